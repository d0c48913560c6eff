package dev.vprof.capture;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** CLOCK_SYNC pairs per process, gathered during a pass over a file, at most {@link #MAX_PAIRS} in all. */
final class ClockPairs {
    /** One pair a second is 12 days of capture; more than this is not a real file. */
    static final int MAX_PAIRS = 1 << 20;

    private static final class Series {
        long[] cupti = new long[8];
        long[] realtime = new long[8];
        int n;
    }

    private final Map<Integer, Series> series = new HashMap<>();
    private int total;
    private boolean overflowed;

    void add(int pid, long cuptiNs, long realtimeNs) {
        if (total >= MAX_PAIRS) {
            overflowed = true;
            return;
        }
        Series s = series.computeIfAbsent(pid, p -> new Series());
        if (s.n == s.cupti.length) {
            s.cupti = Arrays.copyOf(s.cupti, s.n * 2);
            s.realtime = Arrays.copyOf(s.realtime, s.n * 2);
        }
        s.cupti[s.n] = cuptiNs;
        s.realtime[s.n] = realtimeNs;
        s.n++;
        total++;
    }

    boolean overflowed() {
        return overflowed;
    }

    Map<Integer, ClockMapping> fit() {
        Map<Integer, ClockMapping> out = new HashMap<>();
        series.forEach((pid, s) -> out.put(pid, ClockMapping.fit(s.cupti, s.realtime, s.n)));
        return out;
    }
}
