package dev.vprof.capture;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * CLOCK_SYNC pairs per process, gathered during a pass over a file, at most {@link #MAX_PAIRS} in
 * all: CUPTI and CLOCK_REALTIME for the clock fit, and where a record has one, how far
 * CLOCK_REALTIME is ahead of CLOCK_BOOTTIME (where the host's boot lies on its wall clock).
 */
final class ClockPairs {
    /** One pair a second is 12 days of capture; more than this is not a real file. */
    static final int MAX_PAIRS = 1 << 20;

    private static final class Series {
        long[] cupti = new long[8];
        long[] realtime = new long[8];
        long[] bootOffset = new long[8];
        int n;
        int boots;
    }

    private final Map<Integer, Series> series = new HashMap<>();
    private int total;
    private boolean overflowed;

    /** One pair; {@code boottimeNs} 0 where the record has no boot time. */
    void add(int pid, long cuptiNs, long realtimeNs, long boottimeNs) {
        if (total >= MAX_PAIRS) {
            overflowed = true;
            return;
        }
        Series s = series.computeIfAbsent(pid, p -> new Series());
        if (s.n == s.cupti.length) {
            s.cupti = Arrays.copyOf(s.cupti, s.n * 2);
            s.realtime = Arrays.copyOf(s.realtime, s.n * 2);
            s.bootOffset = Arrays.copyOf(s.bootOffset, s.n * 2);
        }
        s.cupti[s.n] = cuptiNs;
        s.realtime[s.n] = realtimeNs;
        s.n++;
        if (boottimeNs > 0 && boottimeNs < realtimeNs) {
            s.bootOffset[s.boots++] = realtimeNs - boottimeNs;
        }
        total++;
    }

    boolean overflowed() {
        return overflowed;
    }

    Map<Integer, ClockMapping> fit() {
        Map<Integer, ClockMapping> out = new HashMap<>();
        series.forEach((pid, s) -> out.put(pid, ClockMapping.fit(s.cupti, s.realtime, s.n)
                .withBootOffset(s.bootOffset, s.boots)));
        return out;
    }
}
