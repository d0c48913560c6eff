package dev.vprof.triage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.vprof.metrics.MetricMath.GaugeStats;
import dev.vprof.metrics.WindowStats;
import dev.vprof.metrics.WindowStats.Latency;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders an {@link Assessment} for a person (text) or a program (JSON). */
public final class TriageReport {
    private TriageReport() {
    }

    public static String text(Assessment a, String url) {
        StringBuilder sb = new StringBuilder();
        WindowStats w = a.stats();
        sb.append("vprof triage: ").append(url).append(", ").append(Triage.secs(w.seconds())).append(" window\n\n");
        sb.append("Verdict: ").append(a.verdict().title().toUpperCase(java.util.Locale.ROOT)).append('\n');
        for (int i = 0; i < a.findings().size(); i++) {
            Finding f = a.findings().get(i);
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
        sb.append("\nWindow: ").append(Triage.count(w.requests())).append(" requests finished, ")
                .append(Triage.num(w.promptTokensPerSecond())).append(" prompt tok/s, ")
                .append(Triage.num(w.generationTokensPerSecond())).append(" generation tok/s\n");
        latency(sb, "TTFT", w.ttft());
        latency(sb, "queue", w.queue());
        latency(sb, "prefill", w.prefill());
        latency(sb, "decode", w.decode());
        latency(sb, "inter-token", w.interToken());
        if (!w.missing().isEmpty()) {
            sb.append("Not exported by this server: ").append(String.join(", ", w.missing())).append('\n');
        }
        return sb.toString();
    }

    private static void latency(StringBuilder sb, String name, Latency l) {
        if (l.present()) {
            sb.append(String.format(java.util.Locale.ROOT, "  %-12s p50 %-8s p99 %-8s mean %s%n", name,
                    Triage.secs(l.p50()), Triage.secs(l.p99()), Triage.secs(l.mean())));
        }
    }

    public static String json(Assessment a, String url) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("url", url);
        root.put("verdict", a.verdict().name().toLowerCase(java.util.Locale.ROOT));
        List<Object> findings = new ArrayList<>();
        for (Finding f : a.findings()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("verdict", f.verdict().name().toLowerCase(java.util.Locale.ROOT));
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
        s.put("requests", n(w.requests()));
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
        s.put("aborts", n(w.aborts()));
        s.put("preemptions", n(w.preemptions()));
        s.put("prefix_cache_hit_rate", n(w.prefixCacheHitRate()));
        s.put("prompt_tokens_per_second", n(w.promptTokensPerSecond()));
        s.put("generation_tokens_per_second", n(w.generationTokensPerSecond()));
        s.put("missing", w.missing());
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

    private static Map<String, Object> latency(Latency l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", n(l.count()));
        m.put("mean_s", n(l.mean()));
        m.put("p50_s", n(l.p50()));
        m.put("p99_s", n(l.p99()));
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
