package dev.vprof.time;

import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.RangeEvent;

/**
 * Where a capture range's edge lies in epoch ns: the one rule the report, the exports and every
 * other reader use, so a span or kernel at an edge falls on the same side of it everywhere. With
 * clock pairs the edge's CUPTI time goes through the same mapping as the kernels (ranges and
 * kernels then agree to the ns, whatever the agent's own CLOCK_REALTIME reading of the moment
 * said); without pairs, or where the edge carries no CUPTI time, the agent's CLOCK_REALTIME reading
 * is the better epoch time.
 */
public final class RangeEdges {
    private RangeEdges() {}

    public static long epochNs(long realtimeNs, long cuptiNs, ClockMapping clock) {
        if (cuptiNs != 0 && (clock.pairs() > 0 || realtimeNs == 0)) {
            return clock.toEpochNs(cuptiNs);
        }
        return realtimeNs != 0 ? realtimeNs : clock.toEpochNs(cuptiNs);
    }

    public static long epochNs(RangeEvent e, ClockMapping clock) {
        return epochNs(e.realtimeNs(), e.cuptiNs(), clock);
    }
}
