package dev.vprof.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Window arithmetic over scrapes, the way PromQL's {@code increase}, {@code histogram_quantile}
 * and {@code avg_over_time}/{@code max_over_time} do it, summed over all series of a metric
 * (a vLLM server with several engines or models reads as one).
 */
public final class MetricMath {
    private MetricMath() {
    }

    /** Series selector: all series. */
    public static final Predicate<Labels> ALL_SERIES = l -> true;

    /**
     * The increase of a counter between two scrapes, summed over the series that pass
     * {@code filter}. A series whose value went down, or whose {@code _created} time changed,
     * was reset (the server restarted): its increase is its new value, as in PromQL. A series
     * absent from {@code first} counts from zero, because prometheus_client creates labelled
     * series on first use (the first abort makes {@code finished_reason="abort"} appear).
     *
     * @return NaN when {@code second} has no such counter
     */
    public static double counterIncrease(MetricsSnapshot first, MetricsSnapshot second,
                                         VllmMetrics.Metric metric, Predicate<Labels> filter) {
        String sampleName = metric.counterSampleName(second);
        if (sampleName == null) {
            return Double.NaN;
        }
        String base = metric.resolve(second);
        return counterIncrease(first, second, sampleName, base + "_created", filter);
    }

    /**
     * {@link #counterIncrease(MetricsSnapshot, MetricsSnapshot, VllmMetrics.Metric, Predicate)} by sample name.
     * NaN, never a rate, when a series breaks the rules ({@link #counterProblem}).
     */
    public static double counterIncrease(MetricsSnapshot first, MetricsSnapshot second, String sampleName,
                                         String createdName, Predicate<Labels> filter) {
        List<Sample> after = second.samples(sampleName);
        if (after.isEmpty() || counterProblem(first, second, sampleName, createdName, filter) != null) {
            return Double.NaN;
        }
        Map<Labels, Double> before = byLabels(first.samples(sampleName));
        Map<Labels, Double> createdBefore = byLabels(first.samples(createdName));
        Map<Labels, Double> createdAfter = byLabels(second.samples(createdName));
        double total = 0;
        for (Sample s : after) {
            if (!filter.test(s.labels())) {
                continue;
            }
            total += increase(before.get(s.labels()), s.value(),
                    createdBefore.get(s.labels()), createdAfter.get(s.labels()));
        }
        return total;
    }

    /**
     * Why the counter's values between two scrapes break the rules, or null: a total that is
     * negative or NaN, or one that went down while its {@code _created} time stayed the same (a
     * reset changes {@code _created}; without {@code _created}, a fall is taken for a reset, as
     * PromQL takes it).
     */
    public static String counterProblem(MetricsSnapshot first, MetricsSnapshot second, String sampleName,
                                        String createdName, Predicate<Labels> filter) {
        Map<Labels, Double> before = byLabels(first.samples(sampleName));
        Map<Labels, Double> createdBefore = byLabels(first.samples(createdName));
        Map<Labels, Double> createdAfter = byLabels(second.samples(createdName));
        for (Sample s : second.samples(sampleName)) {
            if (!filter.test(s.labels())) {
                continue;
            }
            String bad = SeriesRules.counter(s.value());
            if (bad != null) {
                return sampleName + s.labels() + ": " + bad;
            }
            Double b = before.get(s.labels());
            Double cb = createdBefore.get(s.labels());
            Double ca = createdAfter.get(s.labels());
            if (b != null && s.value() < b && cb != null && cb.equals(ca)) {
                return sampleName + s.labels() + ": its total went down from " + SeriesRules.num(b) + " to "
                        + SeriesRules.num(s.value()) + " with the same _created time (not a reset)";
            }
        }
        return null;
    }

    /**
     * Why the histogram {@code base} in {@code snapshot} breaks the rules in one of its series, or
     * null (see {@link SeriesRules#histogram}).
     */
    public static String histogramProblem(MetricsSnapshot snapshot, String base, Predicate<Labels> filter) {
        Map<Labels, List<Sample>> buckets = new LinkedHashMap<>();
        for (Sample s : snapshot.samples(base + "_bucket")) {
            Labels series = s.labels().without("le");
            if (filter.test(series)) {
                buckets.computeIfAbsent(series, k -> new ArrayList<>()).add(s);
            }
        }
        Map<Labels, Double> counts = byLabels(snapshot.samples(base + "_count"));
        Map<Labels, Double> sums = byLabels(snapshot.samples(base + "_sum"));
        for (Labels series : counts.keySet()) {
            if (filter.test(series)) {
                buckets.putIfAbsent(series, List.of());
            }
        }
        for (Map.Entry<Labels, List<Sample>> e : buckets.entrySet()) {
            Labels series = e.getKey();
            String bad = SeriesRules.histogram(e.getValue(), counts.getOrDefault(series, Double.NaN),
                    counts.containsKey(series), sums.getOrDefault(series, Double.NaN), sums.containsKey(series), false);
            if (bad != null) {
                return base + series + ": " + bad;
            }
        }
        return null;
    }

    private static double increase(Double before, double after, Double createdBefore, Double createdAfter) {
        if (before == null || Double.isNaN(before)) {
            return after;
        }
        boolean restarted = createdBefore != null && createdAfter != null
                && !createdBefore.equals(createdAfter);
        if (restarted || after < before) {
            return after;
        }
        return after - before;
    }

    /**
     * The increase of a histogram between two scrapes, summed by {@code le} over the series
     * that pass {@code filter}; a series whose count went down or whose {@code _created}
     * changed was reset and contributes its new values whole.
     *
     * @return null when {@code second} has no such histogram, or when a series of it breaks the
     *         rules in either scrape ({@link #histogramProblem}): it gives no quantile
     */
    public static HistogramDelta histogramIncrease(MetricsSnapshot first, MetricsSnapshot second,
                                                   VllmMetrics.Metric metric, Predicate<Labels> filter) {
        String base = metric.resolve(second);
        if (base == null || histogramProblem(second, base, filter) != null
                || histogramProblem(first, base, filter) != null) {
            return null;
        }
        String bucketName = base + "_bucket";
        Map<Labels, Double> countBefore = byLabels(first.samples(base + "_count"));
        Map<Labels, Double> countAfter = byLabels(second.samples(base + "_count"));
        Map<Labels, Double> createdBefore = byLabels(first.samples(base + "_created"));
        Map<Labels, Double> createdAfter = byLabels(second.samples(base + "_created"));
        Map<Labels, Double> bucketsBefore = byLabels(first.samples(bucketName));

        // A series is reset when its count fell or its _created moved: then it counts whole.
        Map<Labels, Boolean> reset = new HashMap<>();
        for (Map.Entry<Labels, Double> e : countAfter.entrySet()) {
            Double cb = countBefore.get(e.getKey());
            Double crb = createdBefore.get(e.getKey());
            Double cra = createdAfter.get(e.getKey());
            reset.put(e.getKey(), cb == null || e.getValue() < cb
                    || (crb != null && cra != null && !crb.equals(cra)));
        }

        TreeMap<Double, Double> byBound = new TreeMap<>();
        for (Sample s : second.samples(bucketName)) {
            Labels series = s.labels().without("le");
            if (!filter.test(series)) {
                continue;
            }
            double le = parseBound(s.labels().get("le"));
            if (Double.isNaN(le)) {
                continue;
            }
            Double before = Boolean.TRUE.equals(reset.get(series)) ? null : bucketsBefore.get(s.labels());
            byBound.merge(le, increase(before, s.value(), null, null), Double::sum);
        }
        double sum = 0;
        double count = 0;
        for (Sample s : second.samples(base + "_count")) {
            if (filter.test(s.labels())) {
                boolean r = Boolean.TRUE.equals(reset.get(s.labels()));
                count += r ? s.value() : increase(countBefore.get(s.labels()), s.value(), null, null);
            }
        }
        Map<Labels, Double> sumBefore = byLabels(first.samples(base + "_sum"));
        for (Sample s : second.samples(base + "_sum")) {
            if (filter.test(s.labels())) {
                boolean r = Boolean.TRUE.equals(reset.get(s.labels()));
                Double b = sumBefore.get(s.labels());
                // _sum may legitimately fall (negative observations), so only a reset voids it.
                sum += r || b == null ? s.value() : s.value() - b;
            }
        }
        double[] bounds = new double[byBound.size()];
        double[] cumulative = new double[byBound.size()];
        int i = 0;
        for (Map.Entry<Double, Double> e : byBound.entrySet()) {
            bounds[i] = e.getKey();
            cumulative[i] = e.getValue();
            i++;
        }
        return new HistogramDelta(bounds, cumulative, sum, count);
    }

    /**
     * A gauge summed over its series in one scrape; NaN when absent, and when any of its series
     * has a value the gauge cannot have ({@link #gaugeProblem} says which): never a sum of the
     * series that remain.
     */
    public static double gauge(MetricsSnapshot snapshot, VllmMetrics.Metric metric, Predicate<Labels> filter) {
        String name = metric.resolve(snapshot);
        if (name == null) {
            return Double.NaN;
        }
        VllmMetrics.GaugeRange range = VllmMetrics.range(metric);
        double total = 0;
        boolean any = false;
        for (Sample s : snapshot.samples(name)) {
            if (filter.test(s.labels())) {
                if (SeriesRules.gauge(range, s.value()) != null) {
                    return Double.NaN;
                }
                total += s.value();
                any = true;
            }
        }
        return any ? total : Double.NaN;
    }

    /**
     * Which series of a gauge had a value it cannot have in these scrapes, or null: the first
     * such series with its value, and in how many scrapes the gauge was left out for it.
     */
    public static String gaugeProblem(List<MetricsSnapshot> snapshots, VllmMetrics.Metric metric,
                                      Predicate<Labels> filter) {
        VllmMetrics.GaugeRange range = VllmMetrics.range(metric);
        String first = null;
        int bad = 0;
        int read = 0;
        for (MetricsSnapshot snap : snapshots) {
            String name = metric.resolve(snap);
            if (name == null) {
                continue;
            }
            read++;
            for (Sample s : snap.samples(name)) {
                String why = filter.test(s.labels()) ? SeriesRules.gauge(range, s.value()) : null;
                if (why != null) {
                    if (first == null) {
                        first = name + s.labels() + ": " + why;
                    }
                    bad++;
                    break;
                }
            }
        }
        return first == null ? null : first + "; left out of " + bad + " of " + read + " scrape" + (read == 1 ? "" : "s");
    }

    /**
     * A gauge's first, last, mean and max over scrapes (each scrape summed over series);
     * scrapes without the gauge are skipped. All NaN when no scrape has it.
     */
    public static GaugeStats gaugeStats(List<MetricsSnapshot> snapshots, VllmMetrics.Metric metric,
                                        Predicate<Labels> filter) {
        List<Double> values = new ArrayList<>();
        for (MetricsSnapshot s : snapshots) {
            double v = gauge(s, metric, filter);
            if (!Double.isNaN(v)) {
                values.add(v);
            }
        }
        if (values.isEmpty()) {
            return GaugeStats.ABSENT;
        }
        double sum = 0;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            sum += v;
            max = Math.max(max, v);
        }
        return new GaugeStats(values.getFirst(), values.getLast(), sum / values.size(), max, values.size());
    }

    /** A gauge over a window: first and last value, mean and max over the scrapes read. */
    public record GaugeStats(double first, double last, double mean, double max, int scrapes) {
        public static final GaugeStats ABSENT = new GaugeStats(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);

        public boolean present() {
            return scrapes > 0;
        }
    }

    static double parseBound(String le) {
        if (le == null) {
            return Double.NaN;
        }
        return switch (le) {
            case "+Inf", "Inf", "+inf", "inf" -> Double.POSITIVE_INFINITY;
            case "-Inf", "-inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    yield Double.parseDouble(le);
                } catch (NumberFormatException e) {
                    yield Double.NaN;
                }
            }
        };
    }

    private static Map<Labels, Double> byLabels(List<Sample> samples) {
        if (samples.isEmpty()) {
            return Map.of();
        }
        Map<Labels, Double> m = new HashMap<>(samples.size() * 2);
        for (Sample s : samples) {
            m.put(s.labels(), s.value());
        }
        return m;
    }
}
