package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import java.util.ArrayList;
import java.util.List;

/**
 * A RANGE record: a capture range begins or ends. On an END the drop counts say what the range
 * lost; on a BEGIN they are zero. A LATE_BEGIN/LATE_END pair (format 2) brackets records of the
 * range {@code index} that completed after the next range began (that range was cut short): they
 * belong to it, not to the range open around them. The fields from {@code correlationId} on are format 2 (zero in
 * older files): the edge's correlation id, the VPROF_WARN_* flags the range raised, when its drain
 * window closed, the launches the agent counted and the kernel records it kept, and the records it
 * kept off the timeline by reason.
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
        long cuptiDrops,
        int correlationId,
        int flags,
        long drainedCuptiNs,
        long kernelLaunches,
        long graphLaunches,
        long kernels,
        long graphKernels,
        long kernelsMissing,
        long clipped,
        long rejectedZeroTs,
        long rejectedStartZero,
        long rejectedEndZero,
        long rejectedEndBeforeStart,
        long rejectedOutsideRange,
        long late,
        long rejectedBadRecord) {

    /** A format-1 record: nothing after the drop counts. */
    public RangeEvent(int edge, int source, int index, int captureId, long cuptiNs, long realtimeNs, long ringDrops,
                      long ringDropsKernels, long cuptiDrops) {
        this(edge, source, index, captureId, cuptiNs, realtimeNs, ringDrops, ringDropsKernels, cuptiDrops,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    public boolean isBegin() {
        return edge == VprofRing.RANGE_BEGIN;
    }

    public boolean isEnd() {
        return edge == VprofRing.RANGE_END;
    }

    public boolean isLateBegin() {
        return edge == VprofRing.RANGE_LATE_BEGIN;
    }

    public boolean isLateEnd() {
        return edge == VprofRing.RANGE_LATE_END;
    }

    /** The source as a word: command, profiler, nvtx, heartbeat, exit, tree. */
    public String sourceName() {
        return sourceName(source);
    }

    public static String sourceName(int source) {
        return switch (source) {
            case VprofRing.SOURCE_COMMAND -> "command";
            case VprofRing.SOURCE_PROFILER -> "profiler";
            case VprofRing.SOURCE_NVTX -> "nvtx";
            case VprofRing.SOURCE_HEARTBEAT -> "heartbeat";
            case VprofRing.SOURCE_EXIT -> "exit";
            case VprofRing.SOURCE_TREE -> "tree";
            default -> "source " + source;
        };
    }

    /** The warning flags as snake_case words, in bit order. */
    public static List<String> flagNames(long flags) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            if ((flags & (1L << bit)) != 0) {
                names.add(flagName(1L << bit));
            }
        }
        return names;
    }

    public static String flagName(long flag) {
        if (flag == VprofRing.WARN_NO_RECORDS) return "no_records";
        if (flag == VprofRing.WARN_RECORDS_MISSING) return "records_missing";
        if (flag == VprofRing.WARN_BUFFERS_TAKEN) return "buffers_taken_by_another_client";
        if (flag == VprofRing.WARN_GRAPH_NOT_DELIVERED) return "graph_kernels_not_delivered";
        if (flag == VprofRing.WARN_CLOCK_CHANGED) return "cupti_clock_changed";
        if (flag == VprofRing.WARN_UNVERIFIED_LAYOUT) return "unverified_record_layout";
        if (flag == VprofRing.WARN_DRAIN_TIMEOUT) return "drain_timeout";
        if (flag == VprofRing.WARN_TS_MEMBERSHIP) return "membership_by_timestamps";
        if (flag == VprofRing.WARN_CUT_SHORT) return "cut_short";
        if (flag == VprofRing.WARN_POOL_EMPTY) return "buffer_pool_empty";
        if (flag == VprofRing.WARN_PER_THREAD_BUFFERS) return "per_thread_buffers_on";
        if (flag == VprofRing.WARN_KERNEL_KIND_KEPT) return "kernel_tracing_kept_on";
        return "flag_0x" + Long.toHexString(flag);
    }
}
