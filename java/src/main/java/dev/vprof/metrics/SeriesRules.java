package dev.vprof.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What OpenMetrics 1.0 (and the Prometheus text format before it) forbids in the values of a
 * histogram or a counter: buckets that are not cumulative, no {@code +Inf} bucket, a threshold
 * given twice, negative or NaN counts, a {@code _count} that is not the {@code +Inf} bucket, a
 * negative total. A series that breaks a rule is flagged where it is read (a {@link ParseError})
 * and never becomes a quantile or a rate ({@link MetricMath} leaves its metric out). And what
 * vLLM's gauges cannot be by what they measure ({@link VllmMetrics.GaugeRange}): NaN or infinite,
 * a negative count, a fraction above 1; such a scrape's value of the gauge is left out.
 */
final class SeriesRules {
    private SeriesRules() {}

    /**
     * Why one histogram series breaks the rules, or null when it keeps them.
     *
     * @param buckets the series' bucket samples ({@code le} label), in any order
     * @param count   its {@code _count}, or NaN when absent
     * @param sum     its {@code _sum}, or NaN when absent
     * @param gauge   a gauge histogram: its sum may be negative
     */
    static String histogram(List<Sample> buckets, double count, boolean hasCount, double sum, boolean hasSum,
                            boolean gauge) {
        if (buckets.isEmpty()) {
            return "it has no buckets";
        }
        List<double[]> points = new ArrayList<>(buckets.size());
        Set<Double> seen = new HashSet<>();
        boolean negativeThreshold = false;
        for (Sample b : buckets) {
            double le = MetricMath.parseBound(b.labels().get("le"));
            if (!seen.add(le)) {
                return "the bucket le=\"" + b.labels().get("le") + "\" appears twice";
            }
            if (Double.isNaN(b.value()) || b.value() < 0) {
                return "the bucket le=\"" + b.labels().get("le") + "\" has a count of " + num(b.value())
                        + " (counts are never negative or NaN)";
            }
            negativeThreshold |= le < 0;
            points.add(new double[] {le, b.value()});
        }
        points.sort((a, b) -> Double.compare(a[0], b[0]));
        double[] top = points.getLast();
        if (top[0] != Double.POSITIVE_INFINITY) {
            return "it has no +Inf bucket";
        }
        for (int i = 1; i < points.size(); i++) {
            if (points.get(i)[1] < points.get(i - 1)[1]) {
                return "the buckets are not cumulative: le=" + num(points.get(i)[0]) + " holds " + num(points.get(i)[1])
                        + ", fewer than le=" + num(points.get(i - 1)[0]) + " with " + num(points.get(i - 1)[1]);
            }
        }
        if (hasCount && (Double.isNaN(count) || count != top[1])) {
            return "its count " + num(count) + " is not its +Inf bucket's " + num(top[1]);
        }
        if (hasSum && (Double.isNaN(sum) || (!gauge && sum < 0 && !negativeThreshold))) {
            return "its sum is " + num(sum) + " (a sum of observations that are never negative)";
        }
        return null;
    }

    /** Why a counter's total breaks the rules (negative or NaN), or null. */
    static String counter(double total) {
        if (Double.isNaN(total) || total < 0) {
            return "its total is " + num(total) + " (a counter starts at 0 and never goes down)";
        }
        return null;
    }

    /** Why a gauge's value cannot be what {@code range} says it measures, or null. */
    static String gauge(VllmMetrics.GaugeRange range, double value) {
        if (!Double.isFinite(value)) {
            return "a value of " + num(value) + " (a gauge is a finite number)";
        }
        return switch (range) {
            case COUNT -> value < 0 ? "a value of " + num(value) + " (a number of requests is never negative)" : null;
            case FRACTION -> value < 0 || value > 1
                    ? "a value of " + num(value) + " (a fraction from 0 to 1 is expected: 1 means all)" : null;
            case FINITE -> null;
        };
    }

    static String num(double v) {
        if (v == Math.rint(v) && !Double.isInfinite(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        if (Double.isNaN(v)) {
            return "NaN";
        }
        return Double.isInfinite(v) ? (v > 0 ? "+Inf" : "-Inf") : String.format(Locale.ROOT, "%s", v);
    }
}
