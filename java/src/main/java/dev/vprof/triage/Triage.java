package dev.vprof.triage;

import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.Seconds;
import dev.vprof.metrics.VllmMetrics;
import dev.vprof.metrics.WindowStats;
import dev.vprof.metrics.WindowStats.Latency;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Tier ① of the triage flow (detect at metrics, localize with traces, explain with a
 * profile) as a pure function: from two or more scrapes of a vLLM server's {@code /metrics},
 * which problem the window shows and what to look at next. Never recommends a profile where
 * the metrics already explain the problem (a queue is fixed by capacity, not by a kernel).
 */
public final class Triage {
    private Triage() {
    }

    /**
     * Where the calls are made. Defaults follow common LLM-serving SLOs: TTFT p99 under 1 s,
     * 100 ms between tokens (10 tokens/s per stream), KV usage at 95% meaning preemption is
     * imminent, 5% aborted requests meaning clients give up.
     */
    public record Thresholds(double ttftP99Seconds, double interTokenP99Seconds, double kvCacheNearFull,
                             double abortFraction, double queueShareOfTtft, double waitingGrowth) {
        public static final Thresholds DEFAULT = new Thresholds(1.0, 0.100, 0.95, 0.05, 0.5, 5);
    }

    /**
     * What the data being judged already holds, so that a next step never asks for it, and whether
     * the server's URL may be named in a command (not when it came from a capture of a server that
     * is gone, such as the demo's).
     *
     * @param spans              the requests' spans are at hand (a capture holding them)
     * @param kernels            kernel records are at hand
     * @param urlLive            the metrics URL is one the user can reach now
     * @param gaugeSampleSeconds how far apart the scrapes the gauges were read from are (NaN: unknown)
     * @param queue              what the spans say about the queue against the GPU; null without spans
     */
    public record Held(boolean spans, boolean kernels, boolean urlLive, double gaugeSampleSeconds, Queue queue) {
        /** A live server's /metrics and nothing else: what {@code vprof triage} reads. */
        public static final Held LIVE = new Held(false, false, true, Double.NaN, null);
    }

    /**
     * From the spans and the kernel records: how long requests queued, the GPU's busy fraction over
     * that time (NaN when unknown), the most requests waiting at once and the most in their model
     * phases (prefill or decode) at once, the scheduler's batch at its fullest.
     */
    public record Queue(double queuedSeconds, double gpuBusyFraction, long waitingMax, long inModelMax) {}

    /** The GPU counts as mostly idle while requests queue below this busy fraction. */
    public static final double GPU_IDLE_BELOW = 0.5;

    /** The default vLLM address, used in commands when the caller gives none. */
    static final URI DEFAULT_URL = URI.create("http://localhost:8000/metrics");

    /** Assesses the window between two scrapes; {@code windowSeconds} &lt;= 0 takes it from their stamps. */
    public static Assessment assess(MetricsSnapshot first, MetricsSnapshot second, double windowSeconds) {
        return assess(List.of(first, second), windowSeconds, Thresholds.DEFAULT, DEFAULT_URL);
    }

    /**
     * Assesses a window of scrapes (time order; gauges are read from all of them, counters and
     * histograms from the first and last).
     *
     * @param metricsUrl the server's metrics URL, used to write the next-step commands
     */
    public static Assessment assess(List<MetricsSnapshot> scrapes, double windowSeconds, Thresholds t,
                                    URI metricsUrl) {
        WindowStats w = WindowStats.compute(scrapes, windowSeconds, l -> true);
        return assess(w, VllmMetrics.isVllm(scrapes.getLast()), t, metricsUrl);
    }

    /**
     * Assesses window statistics already computed (a capture's, perhaps with request latencies
     * from spans: see {@link WindowStats#withRequestLatencies}).
     *
     * @param vllm whether the scrapes had vLLM's metrics at all
     */
    public static Assessment assess(WindowStats w, boolean vllm, Thresholds t, URI metricsUrl) {
        return assess(w, vllm, t, metricsUrl, Held.LIVE);
    }

    /**
     * As {@link #assess(WindowStats, boolean, Thresholds, URI)}, for data that holds more than a
     * live server's metrics (a capture): next steps point at what {@code held} has instead of asking
     * for it again, and name the server's URL only while it is live.
     */
    public static Assessment assess(WindowStats w, boolean vllm, Thresholds t, URI metricsUrl, Held held) {
        Commands cmd = new Commands(held.urlLive() ? metricsUrl : PLACEHOLDER_URL);
        List<Finding> findings = new ArrayList<>();
        if (!vllm) {
            findings.add(new Finding(Verdict.NOT_VLLM,
                    metricsUrl + " answers but has no vllm: metrics; is this a vLLM server's /metrics?",
                    List.of("missing = " + String.join(", ", w.missing())),
                    List.of("point --url at the vLLM API server (vllm serve listens on :8000 by default)")));
            return new Assessment(Verdict.NOT_VLLM, findings, w);
        }

        double queueShare = w.queue().mean() / w.ttft().mean();
        double prefillShare = w.prefill().mean() / w.ttft().mean();
        double abortFraction = w.aborts() / w.requests();
        // A threshold is crossed only when the data proves it: a histogram's p99 in (0.75, 1.0] is
        // not over a 1 s target, one in (1.0, 2.5] is.
        boolean ttftSlow = w.ttft().p99().atLeast(t.ttftP99Seconds());

        // KV-cache pressure: preemptions happened, or usage is at the point where they start.
        if (w.preemptions() > 0 || w.kvCacheUsage().max() >= t.kvCacheNearFull()) {
            List<String> ev = new ArrayList<>();
            ev.add("KV-cache usage max = " + pct(w.kvCacheUsage().max()) + " (last " + pct(w.kvCacheUsage().last()) + ")");
            ev.add("preemptions = " + count(w.preemptions()) + " in " + secs(w.seconds()));
            ev.add("requests waiting max = " + count(w.waiting().max()) + " (" + sampled(held) + ")");
            findings.add(new Finding(Verdict.KV_CACHE_PRESSURE,
                    w.preemptions() > 0
                            ? "The KV cache is full: vLLM preempted running sequences to make room."
                            : "The KV cache is nearly full: preemptions are imminent.",
                    ev,
                    List.of("give the cache more room: raise --gpu-memory-utilization if VRAM allows, or lower"
                                    + " --max-num-seqs / --max-model-len to cut concurrent KV demand",
                            "reuse KV across requests: --enable-prefix-caching (hit rate now "
                                    + pct(w.prefixCacheHitRate()) + ")",
                            "if this is steady-state load, add an instance")));
        }

        // Queue-bound: the waiting queue grows, or queueing is most of a slow TTFT.
        boolean growing = w.waiting().last() - w.waiting().first() >= t.waitingGrowth()
                || (w.waiting().mean() >= t.waitingGrowth() && w.waiting().last() >= w.waiting().first());
        if (growing || (queueShare >= t.queueShareOfTtft() && ttftSlow)) {
            Queue q = held.queue();
            boolean idleGpu = held.kernels() && q != null && q.queuedSeconds() > 0
                    && q.gpuBusyFraction() < GPU_IDLE_BELOW;
            List<String> ev = new ArrayList<>();
            ev.add("requests waiting: " + count(w.waiting().first()) + " -> " + count(w.waiting().last())
                    + " (mean " + num(w.waiting().mean()) + ", max " + count(w.waiting().max()) + ", "
                    + sampled(held) + ")" + (q == null ? "" : "; " + q.waitingMax() + " waiting at once in the spans"));
            ev.add("requests running mean = " + num(w.running().mean()) + " (" + sampled(held) + ")"
                    + (q == null ? "" : "; at most " + q.inModelMax() + " in prefill or decode at once in the spans"));
            ev.add("queue time p50/p99 = " + p50p99(w.queue()) + ", " + pct(queueShare) + " of mean TTFT");
            ev.add("TTFT p99 = " + p99(w.ttft()));
            if (held.kernels() && q != null && q.queuedSeconds() > 0) {
                ev.add("GPU busy while requests queued = " + pct(q.gpuBusyFraction()) + " of "
                        + secs(q.queuedSeconds()) + " (kernel records against the spans' queue time)");
            }
            List<String> next = new ArrayList<>();
            if (idleGpu) {
                next.add("raise the scheduler's limits: more batch slots (--max-num-seqs; at most " + q.inModelMax()
                        + (q.inModelMax() == 1 ? " request was" : " requests were")
                        + " in prefill or decode at once in the spans) and a larger"
                        + " --max-num-batched-tokens, as far as the KV cache has room (usage max "
                        + pct(w.kvCacheUsage().max()) + ")");
                next.add("if the queue stays once the GPU is busy, add capacity: more replicas behind the router,"
                        + " or autoscale on num_requests_waiting");
            } else {
                next.add("add capacity or shed load: more replicas behind the router, autoscale on"
                        + " num_requests_waiting, or lower the request rate; a profile will not fix a queue");
            }
            if (held.spans()) {
                next.add("which requests waited and for how long is in this capture's spans: the slowest requests"
                        + " below, every one in vprof report --json (.requests[].queue_ns)");
            } else {
                next.add("to see which requests waited and for how long, record their spans (vLLM started with"
                        + " --otlp-traces-endpoint grpc://127.0.0.1:4317): " + cmd.traces());
            }
            findings.add(new Finding(Verdict.QUEUE_BOUND,
                    idleGpu ? "Requests wait in the queue while the GPU is mostly idle (busy " + pct(q.gpuBusyFraction())
                                    + " of the time they waited): the scheduler's limits hold them back, not the GPU."
                            : "Past the knee: requests arrive faster than the server finishes them and wait in the queue.",
                    ev, next));
        }

        if (w.aborts() > 0 && abortFraction >= t.abortFraction()) {
            findings.add(new Finding(Verdict.CLIENTS_TIMING_OUT,
                    "Clients are giving up: " + pct(abortFraction) + " of finished requests were aborted.",
                    List.of("aborted = " + count(w.aborts()) + " of " + count(w.requests()) + " finished in "
                                    + secs(w.seconds()),
                            "e2e latency p99 = " + p99(w.e2e()) + ", TTFT p99 = " + p99(w.ttft())),
                    List.of("compare the e2e and TTFT p99 with the clients' timeout: the SLO is already missed",
                            held.spans()
                                    ? "find where the slow requests spent their time (queue, prefill or decode) in this"
                                            + " capture's spans: the slowest requests below, every one in vprof report"
                                            + " --json (.requests[])"
                                    : "find where the aborted requests spent their time (queue, prefill or decode) in"
                                            + " their spans: " + cmd.traces())));
        }

        if (ttftSlow && prefillShare >= 0.5 && !(queueShare >= t.queueShareOfTtft())) {
            findings.add(new Finding(Verdict.PREFILL_BOUND,
                    "TTFT is over target and prefill, not queueing, is most of it.",
                    List.of("TTFT p50/p99 = " + p50p99(w.ttft()),
                            "prefill time p50/p99 = " + p50p99(w.prefill()) + ", " + pct(prefillShare)
                                    + " of mean TTFT",
                            "prompt tokens/s = " + num(w.promptTokensPerSecond()),
                            "prefix-cache hit rate = " + pct(w.prefixCacheHitRate())),
                    List.of("long prompts or prefill batching: try chunked prefill with a smaller"
                                    + " --max-num-batched-tokens, and prefix caching for shared prompt heads",
                            phaseKernels("prefill", held, cmd))));
        }

        if (w.interToken().p99().atLeast(t.interTokenP99Seconds())) {
            findings.add(new Finding(Verdict.DECODE_BOUND,
                    "Decoding is slow per token: the time between output tokens is over target.",
                    List.of("inter-token latency p50/p99 = " + p50p99(w.interToken()),
                            "decode time p50/p99 = " + p50p99(w.decode()),
                            "requests running mean = " + num(w.running().mean()),
                            "generation tokens/s = " + num(w.generationTokensPerSecond())),
                    List.of("decode is memory-bandwidth bound and slows with batch width: lower --max-num-seqs,"
                                    + " check that CUDA graphs are on (no --enforce-eager)",
                            phaseKernels("decode", held, cmd))));
        }

        if (findings.isEmpty()) {
            boolean idle = !(w.requests() > 0) && !(w.waiting().max() > 0) && !(w.running().max() > 0);
            findings.add(new Finding(Verdict.HEALTHY,
                    idle ? "Idle: no requests ran in the window, so there is nothing to judge."
                            : "Healthy: no queue build-up, no KV pressure, no aborts, latency within target.",
                    List.of("requests finished = " + count(w.requests()) + " in " + secs(w.seconds()),
                            "TTFT p99 = " + p99(w.ttft()) + ", inter-token p99 = " + p99(w.interToken()),
                            "requests waiting max = " + count(w.waiting().max()) + " (" + sampled(held) + ")" + ", KV-cache usage max = "
                                    + pct(w.kvCacheUsage().max())),
                    idle ? List.of(held.urlLive() ? "run triage while the server is under its usual load"
                                    : "capture again while the server is under its usual load")
                            : List.of(held.spans()
                                    ? "if users still see slow requests, compare their client-side timings with the"
                                            + " server spans below: a client's TTFT adds the network, HTTP and"
                                            + " tokenization time before the engine (the before-engine phase)"
                                    : "if users still see slow requests, trace them end to end: " + cmd.traces())));
        }
        return new Assessment(findings.getFirst().verdict(), findings, w);
    }

    /**
     * The next step that shows a slow phase's kernels: in this capture when it holds kernels and
     * spans (the report lists them per phase), else the profile command that records them.
     */
    static String phaseKernels(String phase, Held held, Commands cmd) {
        return held.kernels() && held.spans()
                ? "the " + phase + " kernels are in this capture: the top kernels in the slowest requests' " + phase
                        + " below (vprof report --json: .slow_phase_kernels." + phase + ")"
                : "to see the " + phase + " kernels, profile a few seconds (vLLM started with"
                        + " --profiler-config '{\"profiler\":\"cuda\"}'): " + cmd.profile();
    }

    /** The address commands name when the server's own is not live (a capture's server may be gone). */
    static final URI PLACEHOLDER_URL = URI.create("http://VLLM_HOST:8000/metrics");

    /** How a gauge was read: "sampled every 200 ms from /metrics", or without the interval when unknown. */
    static String sampled(Held held) {
        double s = held.gaugeSampleSeconds();
        return s > 0 && Double.isFinite(s) ? "sampled every " + secs(s) + " from /metrics" : "sampled from /metrics";
    }

    /** The vprof commands a next step names, written for this server. */
    record Commands(URI metricsUrl) {
        String base() {
            String path = metricsUrl.getRawPath();
            String s = metricsUrl.toString();
            return path == null || path.isEmpty() ? s : s.substring(0, s.lastIndexOf(path));
        }

        String traces() {
            return "vprof attach --pid <vllm-pid> --otlp --metrics " + metricsUrl + " --duration 30s";
        }

        String profile() {
            return "vprof attach --pid <vllm-pid> --capture-range=cudaProfilerApi --trigger " + base()
                    + " --metrics " + metricsUrl + " --otlp --duration 10s";
        }
    }

    static String secs(double s) {
        return Seconds.format(s);
    }

    /** "p50 / p99 (source)": exact from spans, a bucket's bounds from a histogram. */
    static String p50p99(Latency l) {
        return Seconds.format(l.p50()) + " / " + Seconds.format(l.p99()) + source(l);
    }

    static String p99(Latency l) {
        return Seconds.format(l.p99()) + source(l);
    }

    /** The source of a latency's quantiles, as a suffix: a reader must know a bucket from a value. */
    static String source(Latency l) {
        return switch (l.source()) {
            case HISTOGRAM -> " (metrics histogram buckets)";
            case SPANS -> " (server spans, exact)";
            case ABSENT -> "";
        };
    }

    static String pct(double f) {
        return Double.isNaN(f) || Double.isInfinite(f) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", f * 100);
    }

    static String count(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f", v);
    }

    static String num(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }
}
