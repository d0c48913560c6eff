package dev.vprof.metrics;

import java.util.List;

/**
 * vLLM's metric names, in the one place that knows them, with the older names vLLM used
 * before renaming them. Names are family names as vLLM declares them (counters without
 * {@code _total}: prometheus_client appends it to the sample), and every lookup accepts each
 * alias, newest first, so the same code reads a 0.6 server and a 0.11 one; each also under Ray
 * Serve's {@code ray_} prefix ({@link RayServe}).
 */
public final class VllmMetrics {
    private VllmMetrics() {
    }

    /**
     * One vLLM metric under all the names it has had.
     *
     * @param names the current name first, then older ones
     */
    public record Metric(MetricType type, List<String> names) {
        public Metric(MetricType type, String... names) {
            this(type, List.of(names));
        }

        /** The current name. */
        public String name() {
            return names.get(0);
        }

        /**
         * The family name this snapshot uses for the metric (one of {@link #names()}), or null
         * when the snapshot has none of them.
         */
        public String resolve(MetricsSnapshot snapshot) {
            for (String n : RayServe.withRayPrefix(names)) {
                switch (type) {
                    case COUNTER -> {
                        if (snapshot.has(n + "_total") || snapshot.has(n)) {
                            return n;
                        }
                    }
                    case HISTOGRAM -> {
                        if (snapshot.has(n + "_count") || snapshot.has(n + "_bucket")) {
                            return n;
                        }
                    }
                    default -> {
                        if (snapshot.has(n)) {
                            return n;
                        }
                    }
                }
            }
            return null;
        }

        /** The sample name that carries a counter's value in this snapshot, or null. */
        String counterSampleName(MetricsSnapshot snapshot) {
            String base = resolve(snapshot);
            if (base == null) {
                return null;
            }
            return snapshot.has(base + "_total") ? base + "_total" : base;
        }
    }

    // Gauges
    public static final Metric NUM_REQUESTS_RUNNING = new Metric(MetricType.GAUGE, "vllm:num_requests_running");
    public static final Metric NUM_REQUESTS_WAITING = new Metric(MetricType.GAUGE, "vllm:num_requests_waiting");
    /** Fraction 0..1 of KV-cache blocks in use; {@code gpu_cache_usage_perc} before vLLM 0.10. */
    public static final Metric KV_CACHE_USAGE = new Metric(MetricType.GAUGE,
            "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc");
    /** vLLM V0 only: a ready-made hit rate, used when the hit/query counters are absent. */
    public static final Metric LEGACY_PREFIX_CACHE_HIT_RATE = new Metric(MetricType.GAUGE,
            "vllm:gpu_prefix_cache_hit_rate");

    // Counters
    public static final Metric PROMPT_TOKENS = new Metric(MetricType.COUNTER, "vllm:prompt_tokens");
    public static final Metric GENERATION_TOKENS = new Metric(MetricType.COUNTER, "vllm:generation_tokens");
    /** Finished requests, labelled {@code finished_reason} = stop, length, abort (, error, repetition). */
    public static final Metric REQUEST_SUCCESS = new Metric(MetricType.COUNTER, "vllm:request_success");
    public static final Metric NUM_PREEMPTIONS = new Metric(MetricType.COUNTER, "vllm:num_preemptions");
    /** Prefix-cache queries and hits, in tokens; {@code gpu_prefix_cache_*} before the rename. */
    public static final Metric PREFIX_CACHE_QUERIES = new Metric(MetricType.COUNTER,
            "vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries");
    public static final Metric PREFIX_CACHE_HITS = new Metric(MetricType.COUNTER,
            "vllm:prefix_cache_hits", "vllm:gpu_prefix_cache_hits");
    /** Prompt tokens served from the prefix cache (newer releases). */
    public static final Metric PROMPT_TOKENS_CACHED = new Metric(MetricType.COUNTER, "vllm:prompt_tokens_cached");

    // Histograms (seconds)
    public static final Metric TIME_TO_FIRST_TOKEN = new Metric(MetricType.HISTOGRAM,
            "vllm:time_to_first_token_seconds");
    /** Time between output tokens; {@code time_per_output_token_seconds} before the rename. */
    public static final Metric INTER_TOKEN_LATENCY = new Metric(MetricType.HISTOGRAM,
            "vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds");
    public static final Metric E2E_REQUEST_LATENCY = new Metric(MetricType.HISTOGRAM,
            "vllm:e2e_request_latency_seconds");
    public static final Metric REQUEST_QUEUE_TIME = new Metric(MetricType.HISTOGRAM,
            "vllm:request_queue_time_seconds");
    public static final Metric REQUEST_PREFILL_TIME = new Metric(MetricType.HISTOGRAM,
            "vllm:request_prefill_time_seconds");
    public static final Metric REQUEST_DECODE_TIME = new Metric(MetricType.HISTOGRAM,
            "vllm:request_decode_time_seconds");
    public static final Metric REQUEST_INFERENCE_TIME = new Metric(MetricType.HISTOGRAM,
            "vllm:request_inference_time_seconds");

    /** What values a gauge can take, by what it measures; a value outside is left out with a warning. */
    public enum GaugeRange {
        /** A number of requests: finite, never negative. */
        COUNT,
        /** A fraction, 1 meaning all: finite, from 0 to 1. */
        FRACTION,
        /** Any finite value. */
        FINITE
    }

    /** The range of {@code gauge}'s values. */
    public static GaugeRange range(Metric gauge) {
        if (gauge.equals(KV_CACHE_USAGE) || gauge.equals(LEGACY_PREFIX_CACHE_HIT_RATE)) {
            return GaugeRange.FRACTION;
        }
        if (gauge.equals(NUM_REQUESTS_RUNNING) || gauge.equals(NUM_REQUESTS_WAITING)) {
            return GaugeRange.COUNT;
        }
        return GaugeRange.FINITE;
    }

    /** The label that splits {@link #REQUEST_SUCCESS}; value {@value #ABORT} counts client aborts. */
    public static final String FINISHED_REASON = "finished_reason";
    public static final String ABORT = "abort";

    /**
     * The metrics vprof expects, for "which ones are missing" messages ({@link #PROMPT_TOKENS_CACHED}
     * is only a fallback for the prefix-cache counters and is not expected).
     */
    public static final List<Metric> ALL = List.of(
            NUM_REQUESTS_RUNNING, NUM_REQUESTS_WAITING, KV_CACHE_USAGE,
            PROMPT_TOKENS, GENERATION_TOKENS, REQUEST_SUCCESS, NUM_PREEMPTIONS,
            PREFIX_CACHE_QUERIES, PREFIX_CACHE_HITS,
            TIME_TO_FIRST_TOKEN, INTER_TOKEN_LATENCY, E2E_REQUEST_LATENCY, REQUEST_QUEUE_TIME,
            REQUEST_PREFILL_TIME, REQUEST_DECODE_TIME);

    /** Whether the snapshot looks like a vLLM server at all (any {@code vllm:} or Ray Serve's {@code ray_vllm:} sample). */
    public static boolean isVllm(MetricsSnapshot snapshot) {
        for (MetricFamily f : snapshot.families()) {
            if ((f.name().startsWith("vllm:") || f.name().startsWith(RayServe.PREFIX + "vllm:")) && !f.samples().isEmpty()) {
                return true;
            }
        }
        return false;
    }
}
