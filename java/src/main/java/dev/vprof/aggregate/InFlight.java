package dev.vprof.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kernels inside each of many intervals that may overlap (each request from its arrival to its end):
 * per interval, how many kernels overlap it and their time by name. The intervals' time is cut into
 * buckets, each holding the intervals that overlap it, so a kernel is checked only against the
 * intervals of its bucket. Epoch times. Memory: the buckets, and per interval a map bounded by the
 * distinct names (tens in an inference engine).
 */
public final class InFlight implements Sink {
    private static final int MAX_BUCKETS = 1 << 16;
    private final long[] start;
    private final long[] end;
    private final long[] counts;
    private final List<Map<String, Long>> timeByName;
    private final long base;
    private final long width;
    private final int[][] buckets;
    private final int[] sizes;

    /** Intervals [start[i], end[i]) in epoch ns. */
    public InFlight(long[] start, long[] end) {
        int n = start.length;
        this.start = start.clone();
        this.end = end.clone();
        counts = new long[n];
        timeByName = new ArrayList<>(n);
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            timeByName.add(new HashMap<>());
            lo = Math.min(lo, start[i]);
            hi = Math.max(hi, end[i]);
        }
        if (n == 0) {
            lo = hi = 0;
        }
        base = lo;
        width = Math.max(10_000_000L, (hi - lo) / MAX_BUCKETS + 1);
        int nb = (int) ((hi - lo) / width) + 1;
        buckets = new int[nb][];
        sizes = new int[nb];
        for (int i = 0; i < n; i++) {
            for (long b = (start[i] - lo) / width; b <= (end[i] - lo) / width; b++) {
                int bi = (int) b;
                int[] arr = buckets[bi];
                if (arr == null) {
                    arr = buckets[bi] = new int[2];
                } else if (sizes[bi] == arr.length) {
                    arr = buckets[bi] = Arrays.copyOf(arr, arr.length * 2);
                }
                arr[sizes[bi]++] = i;
            }
        }
    }

    @Override
    public void kernel(Kernel k) {
        long s = k.startEpochNs(), e = k.endEpochNs();
        if (s < base) {
            return;
        }
        long b = (s - base) / width;
        if (b >= buckets.length || buckets[(int) b] == null) {
            return;
        }
        int[] arr = buckets[(int) b];
        for (int j = 0; j < sizes[(int) b]; j++) {
            int i = arr[j];
            if (s < end[i] && e > start[i]) {
                counts[i]++;
                timeByName.get(i).merge(k.name(), e - s, Long::sum);
            }
        }
    }

    /** Kernels that overlapped interval {@code i}. */
    public long count(int i) {
        return counts[i];
    }

    /** Interval {@code i}'s kernel names (as the file holds them) by their time in it, the {@code n} largest first. */
    public List<String> top(int i, int n) {
        return timeByName.get(i).entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(n).map(Map.Entry::getKey).toList();
    }
}
