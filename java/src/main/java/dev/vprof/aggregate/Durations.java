package dev.vprof.aggregate;

import java.util.Arrays;

/**
 * A distribution of durations in bounded memory. The first {@link #EXACT_MAX} values (while
 * the shared {@link SampleBudget} allows) are kept as they are, so percentiles of small
 * populations are exact. Beyond that the values move into a log-bucket histogram with 128
 * sub-buckets per power of two (as HdrHistogram does), whose percentiles are within 0.4% of
 * the true value: exact enough to rank kernels, in at most a few KiB per distribution.
 */
public final class Durations {
    public static final int EXACT_MAX = 1024;
    private static final int SUB_BITS = 7;
    private static final int SUB = 1 << SUB_BITS;

    private long[] exact = new long[0];
    private int exactCount;
    private boolean histogram;
    /** [group][sub]: group 0 holds 0..127 exactly; group g >= 1 holds [2^(g+6), 2^(g+7)). */
    private long[][] groups;
    private long count;

    public void add(long value, SampleBudget budget) {
        count++;
        if (!histogram) {
            if (exactCount < exact.length) {
                exact[exactCount++] = value;
                return;
            }
            int grown = exact.length == 0 ? 8 : Math.min(EXACT_MAX, exact.length * 2);
            if (exactCount < EXACT_MAX && budget.take(grown - exact.length)) {
                exact = Arrays.copyOf(exact, grown);
                exact[exactCount++] = value;
                return;
            }
            toHistogram(budget);
        }
        record(value);
    }

    public long count() {
        return count;
    }

    /** True while every value is kept, so that percentiles are exact. */
    public boolean exact() {
        return !histogram;
    }

    /** The nearest-rank percentile {@code p} (0 < p <= 100); 0 when empty. */
    public long percentile(double p) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * count));
        if (!histogram) {
            long[] sorted = Arrays.copyOf(exact, exactCount);
            Arrays.sort(sorted);
            return sorted[(int) Math.min(rank, exactCount) - 1];
        }
        long seen = 0;
        for (int g = 0; g < groups.length; g++) {
            long[] subs = groups[g];
            if (subs == null) {
                continue;
            }
            for (int s = 0; s < SUB; s++) {
                seen += subs[s];
                if (seen >= rank) {
                    return representative(g, s);
                }
            }
        }
        return 0; // not reached: the buckets sum to count
    }

    private void toHistogram(SampleBudget budget) {
        histogram = true;
        groups = new long[64 - SUB_BITS + 1][];
        for (int i = 0; i < exactCount; i++) {
            record(exact[i]);
        }
        budget.give(exact.length);
        exact = null;
        exactCount = 0;
    }

    private void record(long value) {
        long v = Math.max(0, value);
        int g;
        int s;
        if (v < SUB) {
            g = 0;
            s = (int) v;
        } else {
            int e = 63 - Long.numberOfLeadingZeros(v); // >= SUB_BITS
            g = e - SUB_BITS + 1;
            s = (int) ((v >>> (e - SUB_BITS)) & (SUB - 1));
        }
        long[] subs = groups[g];
        if (subs == null) {
            subs = groups[g] = new long[SUB];
        }
        subs[s]++;
    }

    /** The middle of bucket (g, s). */
    private static long representative(int g, int s) {
        if (g == 0) {
            return s;
        }
        int shift = g - 1;
        long low = ((long) (SUB + s)) << shift;
        return low + ((1L << shift) >>> 1);
    }
}
