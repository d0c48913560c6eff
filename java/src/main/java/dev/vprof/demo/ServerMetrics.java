package dev.vprof.demo;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated server's /metrics: vLLM's metric names, types, labels and bucket
 * boundaries (v1 engine, recent releases), rendered in the Prometheus text format.
 * Thread-safe: the scheduler updates, the HTTP thread renders.
 */
final class ServerMetrics {
    // vLLM's bucket boundaries (vllm/v1/metrics/loggers.py).
    static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
        0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    static final double[] ITL_BUCKETS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75,
        1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0};
    static final double[] REQUEST_LATENCY_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0,
        20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

    private final String labels;
    private double running;
    private double waiting;
    private double kvUsage;
    private long promptTokens;
    private long generationTokens;
    private long preemptions;
    private long prefixQueries;
    private long prefixHits;
    private final Map<String, Long> success = new TreeMap<>();
    private final Histogram ttft = new Histogram(TTFT_BUCKETS);
    private final Histogram itl = new Histogram(ITL_BUCKETS);
    private final Histogram e2e = new Histogram(REQUEST_LATENCY_BUCKETS);
    private final Histogram queue = new Histogram(REQUEST_LATENCY_BUCKETS);
    private final Histogram prefill = new Histogram(REQUEST_LATENCY_BUCKETS);
    private final Histogram decode = new Histogram(REQUEST_LATENCY_BUCKETS);

    ServerMetrics(String modelName) {
        this.labels = "engine=\"0\",model_name=\"" + modelName + "\"";
        success.put("abort", 0L);
        success.put("length", 0L);
        success.put("stop", 0L);
    }

    synchronized void gauges(int running, int waiting, double kvUsage) {
        this.running = running;
        this.waiting = waiting;
        this.kvUsage = kvUsage;
    }

    synchronized void prompt(int tokens, int cachedTokens) {
        promptTokens += tokens;
        prefixQueries += tokens;
        prefixHits += cachedTokens;
    }

    synchronized void generated(int tokens) { generationTokens += tokens; }

    synchronized void preempted() { preemptions++; }

    synchronized void firstToken(double ttftSeconds) { ttft.observe(ttftSeconds); }

    synchronized void interToken(double seconds) { itl.observe(seconds); }

    synchronized void finished(String reason, double e2eS, double queueS, double prefillS, double decodeS) {
        success.merge(reason, 1L, Long::sum);
        e2e.observe(e2eS);
        queue.observe(queueS);
        prefill.observe(prefillS);
        decode.observe(decodeS);
    }

    synchronized String render() {
        StringBuilder b = new StringBuilder(16 * 1024);
        gauge(b, "vllm:num_requests_running", "Number of requests in model execution batches.", running);
        gauge(b, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", waiting);
        gauge(b, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", kvUsage);
        counter(b, "vllm:num_preemptions", "Cumulative number of preemption from the engine.", preemptions);
        counter(b, "vllm:prompt_tokens", "Number of prefill tokens processed.", promptTokens);
        counter(b, "vllm:generation_tokens", "Number of generation tokens processed.", generationTokens);
        counter(b, "vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of queried tokens.", prefixQueries);
        counter(b, "vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.", prefixHits);
        b.append("# HELP vllm:request_success_total Count of successfully processed requests.\n");
        b.append("# TYPE vllm:request_success_total counter\n");
        for (var e : success.entrySet()) {
            b.append("vllm:request_success_total{").append(labels).append(",finished_reason=\"")
                    .append(e.getKey()).append("\"} ").append(num(e.getValue())).append('\n');
        }
        histogram(b, "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", ttft);
        histogram(b, "vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", itl);
        histogram(b, "vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", e2e);
        histogram(b, "vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.", queue);
        histogram(b, "vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.", prefill);
        histogram(b, "vllm:request_decode_time_seconds", "Histogram of time spent in DECODE phase for request.", decode);
        return b.toString();
    }

    private void gauge(StringBuilder b, String name, String help, double v) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(" gauge\n");
        b.append(name).append('{').append(labels).append("} ").append(num(v)).append('\n');
    }

    private void counter(StringBuilder b, String name, String help, long v) {
        b.append("# HELP ").append(name).append("_total ").append(help).append('\n');
        b.append("# TYPE ").append(name).append("_total counter\n");
        b.append(name).append("_total{").append(labels).append("} ").append(num((double) v)).append('\n');
    }

    private void histogram(StringBuilder b, String name, String help, Histogram h) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(" histogram\n");
        long cumulative = 0;
        for (int i = 0; i < h.bounds.length; i++) {
            cumulative += h.counts[i];
            b.append(name).append("_bucket{").append(labels).append(",le=\"").append(num(h.bounds[i]))
                    .append("\"} ").append(num((double) cumulative)).append('\n');
        }
        cumulative += h.counts[h.bounds.length];
        b.append(name).append("_bucket{").append(labels).append(",le=\"+Inf\"} ").append(num((double) cumulative)).append('\n');
        b.append(name).append("_sum{").append(labels).append("} ").append(num(h.sum)).append('\n');
        b.append(name).append("_count{").append(labels).append("} ").append(num((double) cumulative)).append('\n');
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%.1f", v) : Double.toString(v);
    }

    private static final class Histogram {
        final double[] bounds;
        final long[] counts;
        double sum;

        Histogram(double[] bounds) {
            this.bounds = bounds;
            this.counts = new long[bounds.length + 1];
        }

        void observe(double v) {
            int i = 0;
            while (i < bounds.length && v > bounds[i]) i++;
            counts[i]++;
            sum += v;
        }
    }
}
