package dev.vprof.adapt;

import dev.vprof.capture.CaptureMetadata;
import java.util.Map;

/**
 * The interval of a capture in epoch ns, against which spans and metric scrapes are placed. The
 * capture session records it in the metadata options ({@value #START_KEY}, {@value #END_KEY});
 * a file without them (older, or cut short) takes it from its capture ranges, and one without
 * ranges from the extent of its records.
 *
 * @param source where the bounds came from: {@code metadata}, {@code ranges}, {@code records} or {@code none}
 */
public record CaptureWindow(long startNs, long endNs, String source) {
    public static final String START_KEY = "window_start_epoch_ns";
    public static final String END_KEY = "window_end_epoch_ns";

    public CaptureWindow {
        if (endNs < startNs) {
            throw new IllegalArgumentException("capture window ends (" + endNs + ") before it starts (" + startNs + ")");
        }
    }

    /** An empty capture: no bounds at all. Spans and scrapes are then all "outside". */
    public static final CaptureWindow NONE = new CaptureWindow(0, 0, "none");

    public long durationNs() {
        return endNs - startNs;
    }

    public boolean present() {
        return !source.equals("none");
    }

    /**
     * The window the metadata records, else {@code [rangesStart, rangesEnd]} when any range was seen
     * (start &lt;= end), else {@code [dataStart, dataEnd]}, else {@link #NONE}.
     */
    public static CaptureWindow choose(CaptureMetadata metadata, long rangesStart, long rangesEnd,
                                       long dataStart, long dataEnd) {
        if (metadata != null && metadata.options() != null) {
            Map<String, String> o = metadata.options();
            long s = parse(o.get(START_KEY));
            long e = parse(o.get(END_KEY));
            if (s > 0 && e >= s) {
                return new CaptureWindow(s, e, "metadata");
            }
        }
        if (rangesStart <= rangesEnd) {
            return new CaptureWindow(rangesStart, rangesEnd, "ranges");
        }
        if (dataStart <= dataEnd) {
            return new CaptureWindow(dataStart, dataEnd, "records");
        }
        return NONE;
    }

    private static long parse(String v) {
        if (v == null) {
            return -1;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
