package dev.vprof.metrics;

/**
 * A histogram's increase over a window, summed over all its series
 * ({@code sum by (le) (increase(x_bucket[w]))} in PromQL terms).
 *
 * @param upperBounds bucket bounds, ascending, ending with +Inf
 * @param cumulative  increase of each cumulative bucket count
 * @param sum         increase of {@code _sum}
 * @param count       increase of {@code _count}
 */
public record HistogramDelta(double[] upperBounds, double[] cumulative, double sum, double count) {

    /** The bucket that holds the q-quantile; {@link Quantile#none} with no observations. */
    public Quantile quantile(double q) {
        return HistogramQuantile.bounds(q, upperBounds, cumulative);
    }

    /** As {@link #quantile} for a histogram of durations, narrowed by the sum (see {@link HistogramQuantile}). */
    public Quantile durationQuantile(double q) {
        return HistogramQuantile.durationBounds(q, upperBounds, cumulative, sum, count);
    }

    /** Mean observation from the {@code _sum} and {@code _count} increases; NaN with none. */
    public double mean() {
        return count > 0 ? sum / count : Double.NaN;
    }
}
