package dev.vprof.capture;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** What the capture file says about itself: host, when, how it was taken. */
public record CaptureMetadata(
        String host,
        long startEpochNs,
        String vprofVersion,
        List<String> commandLine,
        Map<String, String> options) {

    /** The front end's CLOCK_REALTIME when the capture started (an option the engine records). */
    public static final String START_REALTIME = "node.start_realtime_ns";
    /** Its CLOCK_BOOTTIME, read beside that CLOCK_REALTIME. */
    public static final String START_BOOTTIME = "node.start_boottime_ns";

    /**
     * How far CLOCK_REALTIME was ahead of CLOCK_BOOTTIME on the capturing host when the capture
     * started, from the front end's own pair; empty for a file without it (older captures, an
     * imported trace).
     */
    public OptionalLong bootOffsetNs() {
        if (options == null) {
            return OptionalLong.empty(); // metadata of a damaged file may hold no options at all
        }
        try {
            String r = options.get(START_REALTIME), b = options.get(START_BOOTTIME);
            if (r == null || b == null) {
                return OptionalLong.empty();
            }
            long realtime = Long.parseLong(r), boottime = Long.parseLong(b);
            return boottime > 0 && boottime < realtime ? OptionalLong.of(realtime - boottime) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
