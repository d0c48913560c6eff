package dev.vprof.loadgen;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A benchmark run's summary: throughput and latency percentiles, in the units vLLM's bench prints. */
public record BenchResult(int requests, int failed, double durationS, double requestThroughput,
                          double outputTokenThroughput, int outputTokens,
                          double ttftMeanMs, double ttftP50Ms, double ttftP99Ms,
                          double itlMeanMs, double itlP50Ms, double itlP99Ms,
                          double e2eP50Ms, double e2eP99Ms, List<String> errors) {

    static BenchResult of(List<LoadGenerator.RequestResult> results, long wallNs) {
        long[] ttft = results.stream().filter(r -> r.ok() && r.ttftNs() >= 0).mapToLong(r -> r.ttftNs()).sorted().toArray();
        long[] e2e = results.stream().filter(LoadGenerator.RequestResult::ok).mapToLong(r -> r.e2eNs()).sorted().toArray();
        long[] itl = results.stream().filter(LoadGenerator.RequestResult::ok)
                .flatMapToLong(r -> Arrays.stream(r.interTokenNs())).sorted().toArray();
        int ok = (int) results.stream().filter(LoadGenerator.RequestResult::ok).count();
        int tokens = results.stream().mapToInt(LoadGenerator.RequestResult::outputTokens).sum();
        double seconds = wallNs / 1e9;
        List<String> errors = results.stream().filter(r -> !r.ok()).map(r -> "request " + r.index() + ": " + r.error())
                .limit(5).toList();
        return new BenchResult(results.size(), results.size() - ok, seconds, ok / seconds, tokens / seconds, tokens,
                mean(ttft), pct(ttft, 50), pct(ttft, 99), mean(itl), pct(itl, 50), pct(itl, 99),
                pct(e2e, 50), pct(e2e, 99), errors);
    }

    /** Nearest-rank percentile in ms of sorted ns values; NaN when empty. */
    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) return Double.NaN;
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)] / 1e6;
    }

    static double mean(long[] v) {
        return v.length == 0 ? Double.NaN : Arrays.stream(v).average().orElse(Double.NaN) / 1e6;
    }

    /**
     * {@code vprof bench --json}: the same figures as one JSON object's fields; counts as integers,
     * times in ms, a figure the run could not measure (no successful request) as null.
     */
    public Map<String, Object> asJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", requests);
        m.put("successful", requests - failed);
        m.put("failed", failed);
        m.put("duration_s", finite(durationS));
        m.put("output_tokens", outputTokens);
        m.put("request_throughput", finite(requestThroughput));
        m.put("output_token_throughput", finite(outputTokenThroughput));
        m.put("ttft_ms", quantiles(true, ttftMeanMs, ttftP50Ms, ttftP99Ms));
        m.put("itl_ms", quantiles(true, itlMeanMs, itlP50Ms, itlP99Ms));
        m.put("e2e_ms", quantiles(false, Double.NaN, e2eP50Ms, e2eP99Ms));
        m.put("errors", errors);
        return m;
    }

    private static Map<String, Object> quantiles(boolean withMean, double mean, double p50, double p99) {
        Map<String, Object> q = new LinkedHashMap<>();
        if (withMean) {
            q.put("mean", finite(mean));
        }
        q.put("p50", finite(p50));
        q.put("p99", finite(p99));
        return q;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    public String format() {
        StringBuilder b = new StringBuilder();
        b.append("============ Serving Benchmark Result ============\n");
        line(b, "Successful requests:", "%d", requests - failed);
        line(b, "Failed requests:", "%d", failed);
        line(b, "Benchmark duration (s):", "%.2f", durationS);
        line(b, "Total generated tokens:", "%d", outputTokens);
        line(b, "Request throughput (req/s):", "%.2f", requestThroughput);
        line(b, "Output token throughput (tok/s):", "%.2f", outputTokenThroughput);
        b.append("---------------Time to First Token----------------\n");
        line(b, "Mean TTFT (ms):", "%.2f", ttftMeanMs);
        line(b, "Median TTFT (ms):", "%.2f", ttftP50Ms);
        line(b, "P99 TTFT (ms):", "%.2f", ttftP99Ms);
        b.append("---------------Inter-token Latency----------------\n");
        line(b, "Mean ITL (ms):", "%.2f", itlMeanMs);
        line(b, "Median ITL (ms):", "%.2f", itlP50Ms);
        line(b, "P99 ITL (ms):", "%.2f", itlP99Ms);
        b.append("----------------End-to-end Latency----------------\n");
        line(b, "Median E2E (ms):", "%.2f", e2eP50Ms);
        line(b, "P99 E2E (ms):", "%.2f", e2eP99Ms);
        b.append("==================================================\n");
        for (String e : errors) b.append("error: ").append(e).append('\n');
        return b.toString();
    }

    /** A number the run could not measure (no successful request) reads "n/a", never "NaN". */
    private static void line(StringBuilder b, String label, String fmt, Object v) {
        if (v instanceof Double d && !Double.isFinite(d)) {
            b.append(String.format(Locale.ROOT, "%-40s%s%n", label, "n/a"));
            return;
        }
        b.append(String.format(Locale.ROOT, "%-40s" + fmt + "%n", label, v));
    }
}
