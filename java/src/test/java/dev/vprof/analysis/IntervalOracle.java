package dev.vprof.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The breakdown tests' own interval arithmetic, written apart from {@code time.Intervals} so that
 * their oracle shares no code with what they check: {start, end} pairs in ns, end exclusive.
 */
final class IntervalOracle {
    private IntervalOracle() {}

    /** The union of {@code in} as sorted disjoint intervals; empty ones dropped. */
    static List<long[]> union(List<long[]> in) {
        List<long[]> sorted = new ArrayList<>(in);
        sorted.sort(Comparator.comparingLong(a -> a[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] iv : sorted) {
            if (iv[1] <= iv[0]) {
                continue;
            }
            if (!out.isEmpty() && iv[0] <= out.get(out.size() - 1)[1]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], iv[1]);
            } else {
                out.add(new long[] {iv[0], iv[1]});
            }
        }
        return out;
    }

    /** The intersection of two sorted lists of disjoint intervals. */
    static List<long[]> intersect(List<long[]> a, List<long[]> b) {
        List<long[]> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            long s = Math.max(a.get(i)[0], b.get(j)[0]);
            long e = Math.min(a.get(i)[1], b.get(j)[1]);
            if (s < e) {
                out.add(new long[] {s, e});
            }
            if (a.get(i)[1] < b.get(j)[1]) {
                i++;
            } else {
                j++;
            }
        }
        return out;
    }

    /** The total length of disjoint intervals. */
    static long length(List<long[]> disjoint) {
        long n = 0;
        for (long[] iv : disjoint) {
            n += iv[1] - iv[0];
        }
        return n;
    }
}
