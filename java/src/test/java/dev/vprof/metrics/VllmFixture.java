package dev.vprof.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A vLLM server's /metrics as state the test drives (observe a TTFT, finish a request, set
 * the queue depth), rendered the way vLLM's prometheus_client renders it: real names, types,
 * labels and bucket bounds. Mutable; call {@link #snapshot} between changes.
 */
public final class VllmFixture {
    /** A recorded exposition from {@code src/test/resources/metrics/}. */
    public static String resource(String name) throws java.io.IOException {
        try (java.io.InputStream in = VllmFixture.class.getResourceAsStream("/metrics/" + name)) {
            if (in == null) {
                throw new java.io.FileNotFoundException("test resource /metrics/" + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    static final double[] TTFT_BOUNDS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
        1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    static final double[] ITL_BOUNDS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0,
        2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0};
    static final double[] REQUEST_BOUNDS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
        40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
    static final String LABELS = "model_name=\"Qwen/Qwen2.5-7B-Instruct\",engine=\"0\"";

    public static final String TTFT = "vllm:time_to_first_token_seconds";
    public static final String ITL = "vllm:inter_token_latency_seconds";
    public static final String E2E = "vllm:e2e_request_latency_seconds";
    public static final String QUEUE = "vllm:request_queue_time_seconds";
    public static final String PREFILL = "vllm:request_prefill_time_seconds";
    public static final String DECODE = "vllm:request_decode_time_seconds";

    private final boolean legacyNames;
    public double running;
    public double waiting;
    public double kvCacheUsage;
    public double promptTokens;
    public double generationTokens;
    public double preemptions;
    public double prefixQueries;
    public double prefixHits;
    public double created = 1736321000.5;
    private final Map<String, Double> finished = new LinkedHashMap<>();
    private final Map<String, Histogram> histograms = new LinkedHashMap<>();

    private static final class Histogram {
        final double[] bounds;
        final double[] counts; // per bucket, not cumulative; last is +Inf
        double sum;

        Histogram(double[] bounds) {
            this.bounds = bounds;
            this.counts = new double[bounds.length + 1];
        }
    }

    public VllmFixture() {
        this(false);
    }

    /** With {@code legacyNames}, the names vLLM used before its renames. */
    public VllmFixture(boolean legacyNames) {
        this.legacyNames = legacyNames;
        for (String r : new String[] {"stop", "length", "abort"}) {
            finished.put(r, 0.0);
        }
        histograms.put(TTFT, new Histogram(TTFT_BOUNDS));
        histograms.put(ITL, new Histogram(ITL_BOUNDS));
        for (String h : new String[] {E2E, QUEUE, "vllm:request_inference_time_seconds", PREFILL, DECODE}) {
            histograms.put(h, new Histogram(REQUEST_BOUNDS));
        }
    }

    /** Records {@code times} observations of {@code seconds} in histogram {@code name}. */
    public VllmFixture observe(String name, double seconds, int times) {
        Histogram h = histograms.get(name);
        int i = 0;
        while (i < h.bounds.length && seconds > h.bounds[i]) {
            i++;
        }
        h.counts[i] += times;
        h.sum += seconds * times;
        return this;
    }

    /**
     * Finishes {@code n} requests with {@code reason}, each with the given phase times and
     * token counts, as vLLM records them when a request ends.
     */
    public VllmFixture finish(int n, String reason, double queue, double prefill, double decode,
                              int promptTokensEach, int outputTokensEach) {
        finished.merge(reason, (double) n, Double::sum);
        observe(QUEUE, queue, n);
        observe(PREFILL, prefill, n);
        observe(DECODE, decode, n);
        observe(TTFT, queue + prefill, n);
        observe(E2E, queue + prefill + decode, n);
        observe("vllm:request_inference_time_seconds", prefill + decode, n);
        if (outputTokensEach > 1) {
            observe(ITL, decode / (outputTokensEach - 1), n * (outputTokensEach - 1));
        }
        promptTokens += (double) n * promptTokensEach;
        generationTokens += (double) n * outputTokensEach;
        return this;
    }

    /** Parses the rendering, stamped {@code epochSeconds}. */
    public MetricsSnapshot snapshot(double epochSeconds) {
        Exposition e = new ExpositionParser().parse(text(), ExpositionFormat.PROMETHEUS_TEXT);
        if (e.hasErrors()) {
            throw new AssertionError("fixture does not parse: " + e.errors());
        }
        return new MetricsSnapshot((long) (epochSeconds * 1e9), e.families());
    }

    public String text() {
        StringBuilder sb = new StringBuilder(16_384);
        gauge(sb, "vllm:num_requests_running", running);
        gauge(sb, "vllm:num_requests_waiting", waiting);
        gauge(sb, legacyNames ? "vllm:gpu_cache_usage_perc" : "vllm:kv_cache_usage_perc", kvCacheUsage);
        counter(sb, "vllm:num_preemptions", "", preemptions);
        counter(sb, "vllm:prompt_tokens", "", promptTokens);
        counter(sb, "vllm:generation_tokens", "", generationTokens);
        String prefix = legacyNames ? "vllm:gpu_prefix_cache_" : "vllm:prefix_cache_";
        counter(sb, prefix + "queries", "", prefixQueries);
        counter(sb, prefix + "hits", "", prefixHits);
        sb.append("# HELP vllm:request_success_total Count of successfully processed requests.\n");
        sb.append("# TYPE vllm:request_success_total counter\n");
        for (Map.Entry<String, Double> e : finished.entrySet()) {
            sb.append("vllm:request_success_total{").append(LABELS).append(",finished_reason=\"")
                    .append(e.getKey()).append("\"} ").append(e.getValue()).append('\n');
        }
        for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
            String name = e.getKey();
            if (legacyNames && name.equals(ITL)) {
                name = "vllm:time_per_output_token_seconds";
            }
            histogram(sb, name, e.getValue());
        }
        return sb.toString();
    }

    private static void gauge(StringBuilder sb, String name, double v) {
        sb.append("# HELP ").append(name).append(" gauge\n# TYPE ").append(name).append(" gauge\n");
        sb.append(name).append('{').append(LABELS).append("} ").append(exposition(v)).append('\n');
    }

    /** A value as the text format writes it: +Inf, -Inf and NaN by those names. */
    private static String exposition(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        return Double.isInfinite(v) ? (v > 0 ? "+Inf" : "-Inf") : Double.toString(v);
    }

    private void counter(StringBuilder sb, String name, String extraLabels, double v) {
        sb.append("# HELP ").append(name).append("_total counter\n# TYPE ").append(name).append("_total counter\n");
        sb.append(name).append("_total{").append(LABELS).append(extraLabels).append("} ").append(v).append('\n');
        sb.append("# TYPE ").append(name).append("_created gauge\n");
        sb.append(name).append("_created{").append(LABELS).append(extraLabels).append("} ").append(created).append('\n');
    }

    private void histogram(StringBuilder sb, String name, Histogram h) {
        sb.append("# HELP ").append(name).append(" histogram\n# TYPE ").append(name).append(" histogram\n");
        double cum = 0;
        for (int i = 0; i <= h.bounds.length; i++) {
            cum += h.counts[i];
            String le = i == h.bounds.length ? "+Inf" : Double.toString(h.bounds[i]);
            sb.append(name).append("_bucket{").append(LABELS).append(",le=\"").append(le).append("\"} ")
                    .append(cum).append('\n');
        }
        sb.append(name).append("_count{").append(LABELS).append("} ").append(cum).append('\n');
        sb.append(name).append("_sum{").append(LABELS).append("} ").append(h.sum).append('\n');
        sb.append("# TYPE ").append(name).append("_created gauge\n");
        sb.append(name).append("_created{").append(LABELS).append("} ").append(created).append('\n');
    }
}
