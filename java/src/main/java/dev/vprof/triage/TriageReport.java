package dev.vprof.triage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.vprof.metrics.MetricMath.GaugeStats;
import dev.vprof.metrics.Quantile;
import dev.vprof.metrics.Seconds;
import dev.vprof.metrics.WindowStats.Latency;
import dev.vprof.metrics.WindowStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders an {@link Assessment} for a person (text) or a program (JSON). */
public final class TriageReport {
    private TriageReport() {
    }

    public static String text(Assessment a, String url) {
        StringBuilder sb = new StringBuilder();
        WindowStats w = a.stats();
        sb.append("vprof triage: ").append(url).append(", ").append(Triage.secs(w.seconds())).append(" window\n\n");
        findings(sb, a.findings(), "");
        sb.append("\nWindow: ").append(Triage.count(w.requests())).append(" requests finished, ")
                .append(Triage.num(w.promptTokensPerSecond())).append(" prompt tok/s, ")
                .append(Triage.num(w.generationTokensPerSecond())).append(" generation tok/s\n");
        sb.append(String.format(Locale.ROOT, "  %-12s %-14s %-14s %-10s %s%n", "", "p50", "p99", "mean",
                "source"));
        boolean histogram = false;
        for (Map.Entry<String, Latency> e : latencies(w).entrySet()) {
            Latency l = e.getValue();
            if (l.present()) {
                sb.append(String.format(Locale.ROOT, "  %-12s %-14s %-14s %-10s %s%n", e.getKey(),
                        Seconds.format(l.p50()), Seconds.format(l.p99()), Triage.secs(l.mean()), sourceWords(l)));
                histogram |= l.source() == WindowStats.Source.HISTOGRAM;
            }
        }
        if (histogram) {
            sb.append(HISTOGRAM_LEGEND).append('\n');
        }
        if (!w.missing().isEmpty()) {
            sb.append("Not exported by this server: ").append(String.join(", ", w.missing())).append('\n');
        }
        for (String bad : w.invalid()) {
            sb.append("Left out (values no such metric can have): ").append(bad).append('\n');
        }
        return sb.toString();
    }

    /**
     * "Verdict: TITLE" and every finding (the leading one, then each "Also:") with its evidence and
     * next steps; {@code note} follows the verdict's title on its line (may be empty).
     */
    public static void findings(StringBuilder sb, List<Finding> findings, String note) {
        sb.append("Verdict: ").append(findings.getFirst().verdict().title().toUpperCase(Locale.ROOT))
                .append(note).append('\n');
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (i > 0) {
                sb.append("\nAlso: ").append(f.verdict().title()).append('\n');
            }
            sb.append("  ").append(f.summary()).append('\n');
            for (String e : f.evidence()) {
                sb.append("    - ").append(e).append('\n');
            }
            sb.append("  Next:\n");
            for (String n : f.nextSteps()) {
                sb.append("    > ").append(n).append('\n');
            }
        }
    }

    /**
     * What a histogram quantile's range means; the report prints the same sentence. A histogram
     * only says how many observations fell in each bucket, so a quantile is known to its bucket.
     */
    public static final String HISTOGRAM_LEGEND = "  histogram buckets: the quantile lies in the range shown (the bucket"
            + " that holds it, narrowed by the histogram's sum); the mean is exact";

    private static Map<String, Latency> latencies(WindowStats w) {
        Map<String, Latency> m = new LinkedHashMap<>();
        m.put("TTFT", w.ttft());
        m.put("queue", w.queue());
        m.put("prefill", w.prefill());
        m.put("decode", w.decode());
        m.put("e2e", w.e2e());
        m.put("inter-token", w.interToken());
        return m;
    }

    /** Where a latency's figures come from, in a person's words. */
    public static String sourceWords(Latency l) {
        return switch (l.source()) {
            case HISTOGRAM -> "metrics histogram buckets";
            case SPANS -> "server spans, exact";
            case ABSENT -> "";
        };
    }

    public static String json(Assessment a, String url) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("url", url);
        root.put("verdict", a.verdict().key());
        List<Object> findings = new ArrayList<>();
        for (Finding f : a.findings()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("verdict", f.verdict().key());
            m.put("summary", f.summary());
            m.put("evidence", f.evidence());
            m.put("next_steps", f.nextSteps());
            findings.add(m);
        }
        root.put("findings", findings);
        WindowStats w = a.stats();
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("start_epoch_ns", w.startEpochNs());
        s.put("end_epoch_ns", w.endEpochNs());
        s.put("seconds", n(w.seconds()));
        s.put("requests", count(w.requests()));
        Map<String, Object> reasons = new LinkedHashMap<>();
        w.finishedByReason().forEach((k, v) -> reasons.put(k, n(v)));
        s.put("finished_by_reason", reasons);
        s.put("ttft", latency(w.ttft()));
        s.put("queue", latency(w.queue()));
        s.put("prefill", latency(w.prefill()));
        s.put("decode", latency(w.decode()));
        s.put("inter_token", latency(w.interToken()));
        s.put("e2e", latency(w.e2e()));
        s.put("running", gauge(w.running()));
        s.put("waiting", gauge(w.waiting()));
        s.put("kv_cache_usage", gauge(w.kvCacheUsage()));
        s.put("aborts", count(w.aborts()));
        s.put("preemptions", count(w.preemptions()));
        s.put("prefix_cache_hit_rate", n(w.prefixCacheHitRate()));
        s.put("prompt_tokens_per_second", n(w.promptTokensPerSecond()));
        s.put("generation_tokens_per_second", n(w.generationTokensPerSecond()));
        s.put("missing", w.missing());
        s.put("invalid", w.invalid());
        root.put("stats", s);
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("triage JSON could not be written", e);
        }
    }

    /** JSON has no NaN: an unknown number is null. */
    private static Double n(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }

    /** A count (requests, aborts, observations) as a JSON integer: counter increases are whole. */
    private static Long count(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : Math.round(v);
    }

    /**
     * A latency: count, exact mean, and p50, p99 and max as {@link #bounds}; source "histogram",
     * "spans" or "absent".
     */
    private static Map<String, Object> latency(Latency l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", l.source().name().toLowerCase(Locale.ROOT));
        m.put("count", count(l.count()));
        m.put("mean_s", n(l.mean()));
        m.put("p50", bounds(l.p50()));
        m.put("p99", bounds(l.p99()));
        m.put("max", bounds(l.max()));
        return m;
    }

    /**
     * A quantile as numbers: {@code low_s < q <= high_s}; {@code exact} when both are the value
     * itself; {@code high_s} null when there is no upper bound (the +Inf bucket); null when
     * nothing was observed.
     */
    private static Map<String, Object> bounds(Quantile q) {
        if (!q.known()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("low_s", n(q.low()));
        m.put("high_s", n(q.high()));
        m.put("exact", q.exact());
        return m;
    }

    private static Map<String, Object> gauge(GaugeStats g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("first", n(g.first()));
        m.put("last", n(g.last()));
        m.put("mean", n(g.mean()));
        m.put("max", n(g.max()));
        return m;
    }
}
