package dev.vprof.metrics;

import static dev.vprof.metrics.MetricMath.ALL_SERIES;

import dev.vprof.metrics.MetricMath.GaugeStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What vLLM's metrics say about one window (a triage window, or a capture): counters and
 * histograms from the increase between the first and the last scrape, gauges over every
 * scrape in between. A value the server does not export is NaN and its metric is listed in
 * {@link #missing()}.
 *
 * @param seconds               length of the window
 * @param requests              requests finished in the window (any reason)
 * @param finishedByReason      finished requests by {@code finished_reason}
 * @param aborts                requests finished with {@code finished_reason="abort"}
 * @param preemptions           sequences preempted (KV cache full) in the window
 * @param prefixCacheHitRate    prefix-cache hits / queries in the window, 0..1
 * @param promptTokensPerSecond prompt tokens processed per second
 * @param generationTokensPerSecond output tokens per second
 * @param missing               vLLM metrics the server does not export
 * @param invalid               metrics left out because their values break the exposition format's
 *                              rules (buckets not cumulative, no +Inf, negative counts, a total that
 *                              went down), and gauges left out of the scrapes where a series had a
 *                              value it cannot have (NaN, infinite, a negative count, a fraction
 *                              above 1): "name{labels}: why", one each
 */
public record WindowStats(
        long startEpochNs,
        long endEpochNs,
        double seconds,
        double requests,
        Map<String, Double> finishedByReason,
        Latency ttft,
        Latency queue,
        Latency prefill,
        Latency decode,
        Latency interToken,
        Latency e2e,
        GaugeStats running,
        GaugeStats waiting,
        GaugeStats kvCacheUsage,
        double aborts,
        double preemptions,
        double prefixCacheHitRate,
        double promptTokensPerSecond,
        double generationTokensPerSecond,
        List<String> missing,
        List<String> invalid) {

    /** Where a latency's figures come from. */
    public enum Source {
        /** The server's histogram over the window: quantiles known to a bucket, mean exact. */
        HISTOGRAM,
        /** One observation per request (its span): every figure exact. */
        SPANS,
        /** Neither: the server exports no such histogram and no spans stand in. */
        ABSENT
    }

    /**
     * A latency over the window, in seconds: how many observations, their mean, p50, p99 and the
     * largest (for a histogram, the top non-empty bucket), and where these come from.
     */
    public record Latency(double count, double mean, Quantile p50, Quantile p99, Quantile max, Source source) {
        public static final Latency ABSENT = new Latency(Double.NaN, Double.NaN, Quantile.none(0.5),
                Quantile.none(0.99), Quantile.none(1), Source.ABSENT);

        /** From a histogram's increase: quantiles as the buckets (and the sum) bound them. */
        public static Latency of(HistogramDelta d) {
            if (d == null) {
                return ABSENT;
            }
            return new Latency(d.count(), d.mean(), d.durationQuantile(0.5), d.durationQuantile(0.99),
                    d.durationQuantile(1), Source.HISTOGRAM);
        }

        /** From the observations themselves, in seconds: every figure exact (nearest rank). */
        public static Latency ofObservations(double[] seconds) {
            double[] sorted = seconds.clone();
            Arrays.sort(sorted);
            int n = sorted.length;
            if (n == 0) {
                return new Latency(0, Double.NaN, Quantile.none(0.5), Quantile.none(0.99), Quantile.none(1),
                        Source.SPANS);
            }
            double sum = 0;
            for (double v : sorted) {
                sum += v;
            }
            return new Latency(n, sum / n, Quantile.exact(0.5, nearestRank(sorted, 0.5)),
                    Quantile.exact(0.99, nearestRank(sorted, 0.99)), Quantile.exact(1, sorted[n - 1]), Source.SPANS);
        }

        private static double nearestRank(double[] sorted, double q) {
            int rank = (int) Math.max(1, Math.ceil(q * sorted.length - 1e-9));
            return sorted[rank - 1];
        }

        public boolean present() {
            return !Double.isNaN(count);
        }
    }

    /**
     * These stats with the per-request latencies taken from elsewhere (the requests' spans, exact);
     * inter-token latency, which spans do not carry, stays as it is.
     */
    public WindowStats withRequestLatencies(Latency ttft, Latency queue, Latency prefill, Latency decode,
                                            Latency e2e) {
        return new WindowStats(startEpochNs, endEpochNs, seconds, requests, finishedByReason, ttft, queue, prefill,
                decode, interToken, e2e, running, waiting, kvCacheUsage, aborts, preemptions, prefixCacheHitRate,
                promptTokensPerSecond, generationTokensPerSecond, missing, invalid);
    }

    /** Stats between two scrapes; {@code seconds} &lt;= 0 takes the time between their stamps. */
    public static WindowStats between(MetricsSnapshot first, MetricsSnapshot last, double seconds) {
        return compute(List.of(first, last), seconds, ALL_SERIES);
    }

    /** Stats over a run of scrapes in time order (at least one). */
    public static WindowStats over(List<MetricsSnapshot> scrapes) {
        return compute(scrapes, 0, ALL_SERIES);
    }

    /**
     * Stats over the scrapes of a capture that fall in {@code [fromNs, toNs]}, widened to the
     * last scrape at or before {@code fromNs} so the increase covers the whole window. Gaps
     * are skipped. Null when fewer than two scrapes are usable.
     */
    public static WindowStats window(List<ScrapeResult> scrapes, long fromNs, long toNs) {
        List<MetricsSnapshot> in = new ArrayList<>();
        MetricsSnapshot before = null;
        for (ScrapeResult r : scrapes) {
            if (!(r instanceof ScrapeResult.Scrape s)) {
                continue;
            }
            long t = s.epochNs();
            if (t <= fromNs) {
                before = s.snapshot();
            } else if (t <= toNs) {
                in.add(s.snapshot());
            }
        }
        if (before != null) {
            in.addFirst(before);
        }
        return in.size() < 2 ? null : over(in);
    }

    /**
     * The general form, with a series filter (for example one {@code model_name}).
     *
     * @param seconds the window length; &lt;= 0 to take it from the first and last stamps
     */
    public static WindowStats compute(List<MetricsSnapshot> scrapes, double seconds, Predicate<Labels> filter) {
        if (scrapes.isEmpty()) {
            throw new IllegalArgumentException("a window needs at least one scrape");
        }
        MetricsSnapshot first = scrapes.getFirst();
        MetricsSnapshot last = scrapes.getLast();
        double secs = seconds > 0 ? seconds : (last.epochNs() - first.epochNs()) / 1e9;
        List<String> missing = new ArrayList<>();
        List<String> invalid = new ArrayList<>();
        for (VllmMetrics.Metric m : VllmMetrics.ALL) {
            String base = m.resolve(last);
            if (base == null) {
                missing.add(m.name());
                continue;
            }
            String problem = switch (m.type()) {
                case HISTOGRAM -> {
                    String p = MetricMath.histogramProblem(last, base, filter);
                    yield p != null ? p : MetricMath.histogramProblem(first, base, filter);
                }
                case COUNTER -> MetricMath.counterProblem(first, last, m.counterSampleName(last), base + "_created",
                        filter);
                case GAUGE -> MetricMath.gaugeProblem(scrapes, m, filter);
                default -> null;
            };
            if (problem != null) {
                invalid.add(problem);
            }
        }

        Map<String, Double> byReason = finishedByReason(first, last, filter);
        double requests = Double.NaN;
        if (!byReason.isEmpty()) {
            requests = 0;
            for (double v : byReason.values()) {
                requests += v;
            }
        }
        HistogramDelta e2eDelta = MetricMath.histogramIncrease(first, last, VllmMetrics.E2E_REQUEST_LATENCY, filter);
        if (Double.isNaN(requests) && e2eDelta != null) {
            requests = e2eDelta.count();
        }
        double aborts = byReason.isEmpty() ? Double.NaN : byReason.getOrDefault(VllmMetrics.ABORT, 0.0);

        double hitRate = ratio(
                MetricMath.counterIncrease(first, last, VllmMetrics.PREFIX_CACHE_HITS, filter),
                MetricMath.counterIncrease(first, last, VllmMetrics.PREFIX_CACHE_QUERIES, filter));
        double promptTokens = MetricMath.counterIncrease(first, last, VllmMetrics.PROMPT_TOKENS, filter);
        if (Double.isNaN(hitRate)) {
            hitRate = ratio(MetricMath.counterIncrease(first, last, VllmMetrics.PROMPT_TOKENS_CACHED, filter),
                    promptTokens);
        }
        if (Double.isNaN(hitRate) && VllmMetrics.LEGACY_PREFIX_CACHE_HIT_RATE.resolve(last) != null) {
            hitRate = MetricMath.gaugeStats(scrapes, VllmMetrics.LEGACY_PREFIX_CACHE_HIT_RATE, filter).mean();
            String problem = MetricMath.gaugeProblem(scrapes, VllmMetrics.LEGACY_PREFIX_CACHE_HIT_RATE, filter);
            if (problem != null) {
                invalid.add(problem);
            }
        }

        return new WindowStats(
                first.epochNs(), last.epochNs(), secs, requests, byReason,
                Latency.of(MetricMath.histogramIncrease(first, last, VllmMetrics.TIME_TO_FIRST_TOKEN, filter)),
                Latency.of(MetricMath.histogramIncrease(first, last, VllmMetrics.REQUEST_QUEUE_TIME, filter)),
                Latency.of(MetricMath.histogramIncrease(first, last, VllmMetrics.REQUEST_PREFILL_TIME, filter)),
                Latency.of(MetricMath.histogramIncrease(first, last, VllmMetrics.REQUEST_DECODE_TIME, filter)),
                Latency.of(MetricMath.histogramIncrease(first, last, VllmMetrics.INTER_TOKEN_LATENCY, filter)),
                Latency.of(e2eDelta),
                MetricMath.gaugeStats(scrapes, VllmMetrics.NUM_REQUESTS_RUNNING, filter),
                MetricMath.gaugeStats(scrapes, VllmMetrics.NUM_REQUESTS_WAITING, filter),
                MetricMath.gaugeStats(scrapes, VllmMetrics.KV_CACHE_USAGE, filter),
                aborts,
                MetricMath.counterIncrease(first, last, VllmMetrics.NUM_PREEMPTIONS, filter),
                hitRate,
                perSecond(promptTokens, secs),
                perSecond(MetricMath.counterIncrease(first, last, VllmMetrics.GENERATION_TOKENS, filter), secs),
                missing, invalid);
    }

    private static Map<String, Double> finishedByReason(MetricsSnapshot first, MetricsSnapshot last,
                                                        Predicate<Labels> filter) {
        Map<String, Double> out = new TreeMap<>();
        String sampleName = VllmMetrics.REQUEST_SUCCESS.counterSampleName(last);
        if (sampleName == null) {
            return out;
        }
        String base = VllmMetrics.REQUEST_SUCCESS.resolve(last);
        for (Sample s : last.samples(sampleName)) {
            String reason = s.labels().get(VllmMetrics.FINISHED_REASON);
            String key = reason == null ? "" : reason;
            if (out.containsKey(key)) {
                continue;
            }
            double inc = MetricMath.counterIncrease(first, last, sampleName, base + "_created",
                    l -> filter.test(l) && key.equals(orEmpty(l.get(VllmMetrics.FINISHED_REASON))));
            out.put(key, inc);
        }
        return new LinkedHashMap<>(out);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static double ratio(double num, double den) {
        return !Double.isNaN(num) && !Double.isNaN(den) && den > 0 ? num / den : Double.NaN;
    }

    private static double perSecond(double increase, double seconds) {
        return seconds > 0 ? increase / seconds : Double.NaN;
    }
}
