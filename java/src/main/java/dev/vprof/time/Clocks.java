package dev.vprof.time;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.RangeEvent;
import java.util.Map;

/**
 * Every process's CUPTI clock mapped to epoch ns, for one pass over a capture: the reader's fitted
 * clocks ({@link ClockMapping}, identity for a process without clock pairs) behind a cache of the
 * last process asked for, since records come in runs of one process. Every visitor that places a
 * record in epoch time takes it from here; one instance per pass (the cache is not shared between
 * threads).
 */
public final class Clocks {
    private final Map<Integer, ClockMapping> byPid;
    private int lastPid = Integer.MIN_VALUE;
    private ClockMapping last = ClockMapping.identity();

    private Clocks(Map<Integer, ClockMapping> byPid) {
        this.byPid = byPid;
    }

    /** The capture's clocks; fitting them may take a quick pass over the file (CLOCK_SYNC records alone). */
    public static Clocks of(CaptureReader reader) {
        return new Clocks(reader.clocks());
    }

    public static Clocks of(Map<Integer, ClockMapping> byPid) {
        return new Clocks(Map.copyOf(byPid));
    }

    /**
     * No fitted clock: CUPTI time taken as epoch time for every process. For a pass that places
     * nothing in epoch time (a report of the whole capture without spans), which then need not fit
     * the clocks first.
     */
    public static Clocks unfitted() {
        return new Clocks(Map.of());
    }

    /** Whether any process has a fitted clock (else every time is taken as it is). */
    public boolean fitted() {
        return !byPid.isEmpty();
    }

    /** The mapping of {@code pid}. */
    public ClockMapping of(int pid) {
        if (pid != lastPid) {
            last = byPid.getOrDefault(pid, ClockMapping.identity());
            lastPid = pid;
        }
        return last;
    }

    /** {@code cuptiNs} of process {@code pid} in epoch ns. */
    public long epochNs(int pid, long cuptiNs) {
        return of(pid).toEpochNs(cuptiNs);
    }

    /** Where a capture range's edge of process {@code pid} lies in epoch ns ({@link RangeEdges}'s rule). */
    public long edgeNs(int pid, RangeEvent e) {
        return RangeEdges.epochNs(e, of(pid));
    }
}
