package dev.vprof.metrics;

import java.util.Arrays;

/**
 * Where a quantile lies in classic histogram buckets. The buckets are repaired as Prometheus'
 * {@code histogram_quantile} repairs them (sorted by upper bound, equal bounds merged, counts
 * forced monotonic), the nearest rank {@code ceil(q * n)} is found in the first bucket whose
 * cumulative count reaches it, and that bucket's bounds are the answer: no interpolation inside
 * it (see {@link Quantile}).
 *
 * <p>For durations, which are never negative, the histogram's sum narrows the bucket: at least
 * {@code n - k + 1} observations are at or above the k-th smallest, so it is at most
 * {@code sum / (n - k + 1)} (Markov's inequality, 2 × the mean for a median); and with every
 * observation at most the top non-empty bucket's bound M, it is at least
 * {@code (sum - (n - k) M) / k}. A histogram whose sum disagrees with its buckets is left at
 * the bucket's bounds. (A bucket's lower bound is exclusive, a bound from the sum inclusive.)
 */
public final class HistogramQuantile {
    private HistogramQuantile() {
    }

    /**
     * The bucket bounds of the q-quantile of a histogram.
     *
     * @param q           the quantile, 0..1
     * @param upperBounds the {@code le} of each bucket; must include {@code +Inf}
     * @param cumulative  the cumulative count of each bucket (over a window: the increase)
     * @return {@link Quantile#none} when there are no observations, no +Inf bucket or q is outside 0..1
     */
    public static Quantile bounds(double q, double[] upperBounds, double[] cumulative) {
        return bounds(q, upperBounds, cumulative, false, Double.NaN, Double.NaN);
    }

    /**
     * The bounds of a quantile of durations (observations &gt;= 0), narrowed by the sum of the
     * {@code count} observations when those agree with the buckets.
     */
    public static Quantile durationBounds(double q, double[] upperBounds, double[] cumulative, double sum,
                                          double count) {
        return bounds(q, upperBounds, cumulative, true, sum, count);
    }

    private static Quantile bounds(double q, double[] upperBounds, double[] cumulative, boolean nonNegative,
                                   double sum, double count) {
        if (upperBounds.length != cumulative.length) {
            throw new IllegalArgumentException("one count per bucket bound is needed");
        }
        if (!(q >= 0 && q <= 1)) {
            return Quantile.none(q);
        }
        int n = upperBounds.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(upperBounds[a], upperBounds[b]));
        double[] ub = new double[n];
        double[] cum = new double[n];
        int m = 0;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            if (Double.isNaN(upperBounds[i]) || Double.isNaN(cumulative[i])) {
                continue;
            }
            if (m > 0 && ub[m - 1] == upperBounds[i]) {
                cum[m - 1] += cumulative[i]; // duplicate bound: merge, as Prometheus does
            } else {
                ub[m] = upperBounds[i];
                cum[m] = cumulative[i];
                m++;
            }
        }
        if (m < 1 || ub[m - 1] != Double.POSITIVE_INFINITY) {
            return Quantile.none(q);
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < m; i++) {
            // Buckets scraped at slightly different instants can be non-monotonic by a little.
            if (cum[i] < max) {
                cum[i] = max;
            } else {
                max = cum[i];
            }
        }
        double observations = cum[m - 1];
        if (!(observations > 0)) {
            return Quantile.none(q);
        }
        // The nearest rank, at least 1; a little slack so that 0.99 * 100 is rank 99, not 100.
        double rank = Math.max(1, Math.ceil(q * observations - 1e-9));
        int b = 0;
        while (b < m - 1 && cum[b] < rank) {
            b++;
        }
        double low = b == 0 ? Double.NEGATIVE_INFINITY : ub[b - 1];
        double high = ub[b];
        if (nonNegative) {
            low = Math.max(low, 0);
            if (high < 0) {
                return Quantile.none(q); // durations below zero: the histogram is not of durations
            }
            int top = m - 1;
            while (top > 0 && cum[top - 1] >= observations) {
                top--; // the highest bucket that holds an observation
            }
            if (Double.isFinite(sum) && sum >= 0 && Math.abs(count - observations) < 0.5) {
                double nearAbove = sum / (observations - rank + 1);
                double topBound = ub[top];
                double nearBelow = Double.isFinite(topBound) ? (sum - (observations - rank) * topBound) / rank
                        : Double.NEGATIVE_INFINITY;
                double tightHigh = Math.min(high, nearAbove);
                double tightLow = Math.max(low, nearBelow);
                // The value lies above the bucket's (exclusive) lower bound and the sum bounds are
                // inclusive. Sums are floating point: bounds that cross by a rounding error meet; by
                // more, or a cap at or below the bucket, and the sum does not describe these buckets.
                double slack = 1e-9 * Math.max(1, Math.abs(tightHigh));
                if (tightHigh > low && tightLow <= tightHigh + slack) {
                    low = Math.min(tightLow, tightHigh);
                    high = tightHigh;
                }
            }
        }
        return Quantile.between(q, low, high);
    }
}
