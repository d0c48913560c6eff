package dev.vprof.report;

import dev.vprof.metrics.Quantile;
import dev.vprof.metrics.WindowStats;
import dev.vprof.metrics.WindowStats.Latency;
import java.util.Locale;

/**
 * Chooses where the report's per-request latencies come from. Spans carry each request's own
 * figures, so their quantiles are exact; the server's histograms only place a quantile in a
 * bucket. Spans win when they cover the requests the metrics counted (at least
 * {@value #SPAN_COVERAGE} of them: a few may finish between the last scrape and the window's
 * end); a sampled trace covers fewer and would describe only the sample, so the histograms stay.
 */
final class Latencies {
    private Latencies() {}

    static final double SPAN_COVERAGE = 0.9;

    /** Latencies of the requests that ended in the window, from their spans. */
    record FromSpans(int requests, Latency ttft, Latency queue, Latency prefill, Latency decode, Latency e2e) {}

    /** The stats the verdict reads (latencies from spans where chosen), and the report's section. */
    record Chosen(WindowStats stats, Report.LatencySection section) {}

    /**
     * The stats the verdict reads and the report's latency section.
     *
     * @param stats the metrics over the window, or null without them
     * @param spans the span latencies, or null without requests in the window
     * @return null when there is neither
     */
    static Chosen choose(WindowStats stats, FromSpans spans) {
        if (stats == null && spans == null) {
            return null;
        }
        Double counted = stats == null || Double.isNaN(stats.requests()) ? null : stats.requests();
        double histogramCount = stats == null ? Double.NaN : stats.e2e().present() ? stats.e2e().count()
                : stats.ttft().count();
        double metricsCount = counted != null ? counted : histogramCount;
        boolean useSpans = spans != null
                && (Double.isNaN(metricsCount) || spans.requests() >= SPAN_COVERAGE * metricsCount);
        String note;
        WindowStats chosen = stats;
        Latency ttft, queue, prefill, decode, e2e, interToken;
        if (useSpans) {
            ttft = spans.ttft();
            queue = spans.queue();
            prefill = spans.prefill();
            decode = spans.decode();
            e2e = spans.e2e();
            interToken = stats == null ? Latency.ABSENT : stats.interToken();
            if (stats != null) {
                chosen = stats.withRequestLatencies(ttft, queue, prefill, decode, e2e);
            }
            note = String.format(Locale.ROOT, "from the %d llm_request spans that ended in the capture window, exact",
                    spans.requests())
                    + (Double.isNaN(metricsCount) ? ""
                            : String.format(Locale.ROOT, " (the server's metrics counted %.0f requests)", metricsCount));
        } else {
            ttft = stats.ttft();
            queue = stats.queue();
            prefill = stats.prefill();
            decode = stats.decode();
            e2e = stats.e2e();
            interToken = stats.interToken();
            note = spans == null ? "from the server's histograms: quantiles to their bucket"
                    : String.format(Locale.ROOT, "from the server's histograms: the %d spans in the window cover only"
                            + " part of the %.0f requests it counted (sampled traces?)", spans.requests(), metricsCount);
        }
        Report.LatencySection section = new Report.LatencySection(spans == null ? 0 : spans.requests(),
                Double.isNaN(metricsCount) ? null : metricsCount, note,
                summary(ttft), summary(queue), summary(prefill), summary(decode), summary(e2e), summary(interToken));
        return new Chosen(chosen, section);
    }

    static Report.LatencySummary summary(Latency l) {
        String side = switch (l.source()) {
            case SPANS -> "server_spans";
            case HISTOGRAM -> "metrics_histogram";
            case ABSENT -> "absent";
        };
        return new Report.LatencySummary(l.source().name().toLowerCase(Locale.ROOT), side, finite(l.count()),
                finite(l.mean()), quantile(l.p50()), quantile(l.p99()), quantile(l.max()));
    }

    private static Report.QuantileSummary quantile(Quantile q) {
        return q.known() ? new Report.QuantileSummary(finite(q.low()), finite(q.high()), q.exact()) : null;
    }

    /** NaN and infinities as null, so the JSON holds no non-numbers. */
    private static Double finite(double d) {
        return Double.isFinite(d) ? d : null;
    }
}
