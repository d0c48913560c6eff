package dev.vprof.metrics;

/**
 * A quantile as far as its source pins it down. From the observations themselves (request spans,
 * kernel records) it is exact. From a histogram it is only known to lie in one bucket,
 * {@code (low, high]}, perhaps narrowed by what the histogram's sum allows; a point inside the
 * bucket (PromQL's linear interpolation) would invent a precision the buckets do not have: vLLM's
 * TTFT bucket (1.0, 2.5] would print 2.375 s for a p99 whose slowest request took 1.3 s.
 *
 * @param q     the quantile, 0..1
 * @param low   the lower bound (exclusive for a bucket; NaN when nothing was observed)
 * @param high  the upper bound, inclusive; +Inf when the rank falls in the {@code +Inf} bucket
 * @param exact whether low == high is the value itself, from the observations
 */
public record Quantile(double q, double low, double high, boolean exact) {

    /** Nothing observed: no quantile. */
    public static Quantile none(double q) {
        return new Quantile(q, Double.NaN, Double.NaN, false);
    }

    /** The value itself, from the observations. */
    public static Quantile exact(double q, double value) {
        return new Quantile(q, value, value, true);
    }

    /** Somewhere in {@code (low, high]}. */
    public static Quantile between(double q, double low, double high) {
        if (!(low <= high)) {
            throw new IllegalArgumentException("a quantile's bounds must be ordered: " + low + " > " + high);
        }
        return new Quantile(q, low, high, false);
    }

    /** Whether there is anything to show. */
    public boolean known() {
        return !Double.isNaN(low) && !Double.isNaN(high);
    }

    /** The exact value; NaN when only bounds are known. */
    public double value() {
        return exact ? low : Double.NaN;
    }

    /** True only when the data proves the quantile is at least {@code threshold}. */
    public boolean atLeast(double threshold) {
        return known() && low >= threshold;
    }

    /** True only when the data proves the quantile is at most {@code threshold}. */
    public boolean atMost(double threshold) {
        return known() && high <= threshold;
    }

    /** Whether {@code v} is a value this quantile allows (bounds widened by {@code slack} either way). */
    public boolean allows(double v, double slack) {
        return known() && v >= low - slack && v <= high + slack;
    }
}
