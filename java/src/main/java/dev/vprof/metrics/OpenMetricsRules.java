package dev.vprof.metrics;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What OpenMetrics 1.0 asks of a family's samples beyond the values {@link SeriesRules} checks:
 * summary sums, counts and quantiles never negative (nor NaN sums and counts); stateset values 0
 * or 1 with a label named after the metric, info values 1; a histogram's _sum only with its
 * _count, buckets in increasing order, no _sum beside negative buckets; no unit on info or
 * stateset; timestamps in one series given on every sample or none, and never going back. The OpenMetrics project's parser test cases are the reference
 * (src/test/resources/openmetrics-parsers).
 */
final class OpenMetricsRules {
    private OpenMetricsRules() {}

    /** Reports each broken rule of one family as (line, message). */
    static void check(String name, MetricType type, String unit, List<Sample> samples, List<Integer> lines,
                      BiConsumer<Integer, String> error) {
        int first = lines.isEmpty() ? 0 : lines.getFirst();
        if (unit != null && !unit.isEmpty()) {
            if (type == MetricType.INFO || type == MetricType.STATESET) {
                error.accept(first, type.word() + " " + name + " may not have a UNIT");
            }
        }
        Map<String, Long> lastTs = new HashMap<>();
        Set<String> stampless = new HashSet<>();
        boolean hasSum = false, hasCount = false, negativeBucket = false;
        Map<Labels, Double> lastLe = new HashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            int line = lines.get(i);
            String suffix = s.name().substring(Math.min(name.length(), s.name().length()));
            double v = s.value();
            String series = s.name() + s.labels();
            if (s.timestampNs() == Sample.NO_TIMESTAMP) {
                if (lastTs.containsKey(series)) {
                    error.accept(line, s.name() + s.labels() + " has a timestamp on some samples and not others");
                }
                stampless.add(series);
            } else {
                Long prev = lastTs.put(series, s.timestampNs());
                if (stampless.contains(series)) {
                    error.accept(line, s.name() + s.labels() + " has a timestamp on some samples and not others");
                } else if (prev != null && s.timestampNs() < prev) {
                    error.accept(line, "the timestamps of " + s.name() + s.labels() + " go back in time");
                }
            }
            switch (type) {
                case SUMMARY -> {
                    if (((suffix.equals("_sum") || suffix.equals("_count")) && (Double.isNaN(v) || v < 0))
                            || (suffix.isEmpty() && v < 0)) {
                        error.accept(line, "summary sample " + s.name() + " is " + v + " (never negative"
                                + (suffix.isEmpty() ? "" : " or NaN") + ")");
                    }
                }
                case STATESET -> {
                    if (v != 0 && v != 1) {
                        error.accept(line, "stateset sample " + s.name() + " is " + v + " (0 or 1)");
                    }
                    if (s.labels().get(name) == null) {
                        error.accept(line, "stateset sample " + s.name() + " has no label " + name + " naming its state");
                    }
                }
                case INFO -> {
                    if (v != 1) {
                        error.accept(line, "info sample " + s.name() + " is " + v + " (always 1)");
                    }
                }
                case HISTOGRAM, GAUGEHISTOGRAM -> {
                    boolean gauge = type == MetricType.GAUGEHISTOGRAM;
                    if (suffix.equals("_bucket") || suffix.equals("_gbucket")) {
                        double le = MetricMath.parseBound(s.labels().get("le"));
                        negativeBucket |= le < 0;
                        Labels key = s.labels().without("le");
                        Double prev = lastLe.put(key, le);
                        if (prev != null && le < prev) { // a threshold given twice is SeriesRules' to flag
                            error.accept(line, "the buckets of " + name + " are not in increasing order of le");
                        }
                    } else if (suffix.equals(gauge ? "_gsum" : "_sum")) {
                        hasSum = true;
                    } else if (suffix.equals(gauge ? "_gcount" : "_count")) {
                        hasCount = true;
                    }
                }
                default -> {
                }
            }
        }
        if (type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) {
            boolean gauge = type == MetricType.GAUGEHISTOGRAM;
            // (a count without a sum is allowed: a histogram with negative buckets may not have a sum)
            if (hasSum && !hasCount) {
                error.accept(first, type.word() + " " + name + " has a sum but no count");
            }
            if (!gauge && negativeBucket && hasSum) {
                error.accept(first, "histogram " + name + " has negative buckets, so it may not have a _sum");
            }
        }
    }
}
