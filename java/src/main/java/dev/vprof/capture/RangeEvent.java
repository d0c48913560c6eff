package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;

/**
 * A RANGE record: a capture range begins or ends. On an END the three drop counts
 * say what the range lost; on a BEGIN they are zero.
 */
public record RangeEvent(
        int edge,
        int source,
        int index,
        int captureId,
        long cuptiNs,
        long realtimeNs,
        long ringDrops,
        long ringDropsKernels,
        long cuptiDrops) {

    public boolean isBegin() {
        return edge == VprofRing.RANGE_BEGIN;
    }

    public boolean isEnd() {
        return edge == VprofRing.RANGE_END;
    }

    /** The source as a word: command, profiler, nvtx, heartbeat, exit. */
    public String sourceName() {
        return sourceName(source);
    }

    public static String sourceName(int source) {
        return switch (source) {
            case (int) VprofRing.SOURCE_COMMAND -> "command";
            case (int) VprofRing.SOURCE_PROFILER -> "profiler";
            case (int) VprofRing.SOURCE_NVTX -> "nvtx";
            case (int) VprofRing.SOURCE_HEARTBEAT -> "heartbeat";
            case (int) VprofRing.SOURCE_EXIT -> "exit";
            default -> "source " + source;
        };
    }
}
