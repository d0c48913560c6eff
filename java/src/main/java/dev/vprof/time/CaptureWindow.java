package dev.vprof.time;

import dev.vprof.capture.WindowChunk;

/**
 * The interval of a capture in epoch ns, against which spans and metric scrapes are placed. The
 * capture records it ({@link WindowChunk}, read by {@code CaptureReader.window()}); a file
 * without it (older, or cut short) takes it from its capture ranges, and one without ranges from
 * the extent of its records.
 *
 * @param source where the bounds came from: {@code metadata} (the recorded window), {@code ranges},
 *               {@code records} or {@code none}
 */
public record CaptureWindow(long startNs, long endNs, String source) {
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
     * Whether GPU work that starts at {@code epochNs} lies in this window taken as a cut of the
     * capture: [start, end), the end left out so that two windows that meet at T share no kernel
     * (a window made by {@link Selection#within} ends one ns past the capture when it runs to the end).
     */
    public boolean holds(long epochNs) {
        return epochNs >= startNs && epochNs < endNs;
    }

    /**
     * The window the capture recorded ({@code recorded}, may be null), when it has both ends, else
     * {@code [rangesStart, rangesEnd]} when any range was seen (start &lt;= end), else
     * {@code [dataStart, dataEnd]}, else {@link #NONE}.
     */
    public static CaptureWindow choose(WindowChunk recorded, long rangesStart, long rangesEnd,
                                       long dataStart, long dataEnd) {
        if (recorded != null && recorded.hasEnd() && recorded.startEpochNs() > 0
                && recorded.endEpochNs() >= recorded.startEpochNs()) {
            return new CaptureWindow(recorded.startEpochNs(), recorded.endEpochNs(), "metadata");
        }
        if (rangesStart <= rangesEnd) {
            return new CaptureWindow(rangesStart, rangesEnd, "ranges");
        }
        if (dataStart <= dataEnd) {
            return new CaptureWindow(dataStart, dataEnd, "records");
        }
        return NONE;
    }
}
