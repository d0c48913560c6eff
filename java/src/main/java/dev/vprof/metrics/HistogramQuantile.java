package dev.vprof.metrics;

import java.util.Arrays;

/**
 * Prometheus' {@code histogram_quantile} over classic buckets, step for step: buckets sorted
 * by upper bound, equal bounds merged, counts forced monotonic, the rank found in the first
 * bucket whose cumulative count reaches it, linear interpolation inside that bucket (from 0
 * for the first bucket when its bound is positive), and the highest finite bound when the
 * rank falls in the {@code +Inf} bucket.
 */
public final class HistogramQuantile {
    private HistogramQuantile() {
    }

    /**
     * @param q           the quantile, 0..1 (below 0 gives -Inf, above 1 +Inf, as in PromQL)
     * @param upperBounds the {@code le} of each bucket; must include {@code +Inf}
     * @param cumulative  the cumulative count of each bucket (over a window: the increase)
     * @return NaN when there are no observations, fewer than two buckets or no +Inf bucket
     */
    public static double quantile(double q, double[] upperBounds, double[] cumulative) {
        if (upperBounds.length != cumulative.length) {
            throw new IllegalArgumentException("one count per bucket bound is needed");
        }
        if (Double.isNaN(q)) {
            return Double.NaN;
        }
        if (q < 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (q > 1) {
            return Double.POSITIVE_INFINITY;
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
            if (m > 0 && ub[m - 1] == upperBounds[i]) {
                cum[m - 1] += cumulative[i]; // duplicate bound: merge, as Prometheus does
            } else {
                ub[m] = upperBounds[i];
                cum[m] = cumulative[i];
                m++;
            }
        }
        if (m < 2 || ub[m - 1] != Double.POSITIVE_INFINITY) {
            return Double.NaN;
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
            return Double.NaN;
        }
        double rank = q * observations;
        int b = 0;
        while (b < m - 1 && cum[b] < rank) {
            b++;
        }
        if (b == m - 1) {
            return ub[m - 2];
        }
        if (b == 0 && ub[0] <= 0) {
            return ub[0];
        }
        double start = 0;
        double end = ub[b];
        double count = cum[b];
        if (b > 0) {
            start = ub[b - 1];
            count -= cum[b - 1];
            rank -= cum[b - 1];
        }
        return start + (end - start) * (rank / count);
    }
}
