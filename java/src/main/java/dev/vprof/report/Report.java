package dev.vprof.report;

import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.triage.Finding;
import java.util.List;
import java.util.Map;

/**
 * What `vprof report` says about a capture; serialized as its JSON (snake_case) and
 * rendered as text by {@link TextReport}. Times are epoch ns unless named otherwise; fields
 * ending in {@code _s} are seconds. The JSON's fields are listed in docs/report-json.md.
 *
 * @param verdict the triage verdict over the capture window; null without vLLM metrics
 * @param latency per-request latencies over the capture window, each from the requests' spans
 *                (exact) or the server's histograms (bucket bounds); null with neither
 * @param queue   what the spans say about the queue, against the GPU's busy time; null without requests
 * @param slowPhaseKernels the top kernels inside the slowest requests' prefill and decode windows;
 *                null without requests
 * @param steps   the step table (aggregate.StepRule): each step, its kernels and GPU time, and the
 *                kernels outside any step; null when the capture has no steps
 */
public record Report(
        String file,
        boolean complete,
        List<String> warnings,
        CaptureMetadata metadata,
        VerdictSummary verdict,
        List<ProcessSummary> processes,
        List<RangeSummary> ranges,
        Totals totals,
        List<KernelSummary> topKernels,
        WindowSummary window,
        LatencySection latency,
        MetricsSummary metrics,
        SpansSummary spans,
        List<RequestSummary> requests,
        List<RequestSummary> slowestRequests,
        QueueFacts queue,
        SlowPhaseKernels slowPhaseKernels,
        StepTable steps) {

    /** The report before metrics and spans: the capture's own sections only. */
    public Report(String file, boolean complete, List<String> warnings, CaptureMetadata metadata,
                  List<ProcessSummary> processes, List<RangeSummary> ranges, Totals totals,
                  List<KernelSummary> topKernels) {
        this(file, complete, warnings, metadata, null, processes, ranges, totals, topKernels, null, null, null, null,
                List.of(), List.of(), null, null, null);
    }

    /**
     * The steps of the capture (of the window, for a report of one: the steps that start in it),
     * by one rule for every view (ProfilerStep#N, the NVTX step range, or two or more
     * cudaProfilerApi ranges; a kernel belongs to the step its launch was made in, else to the last
     * step that started before it). rule says what marked them ("ProfilerStep#N", "nvtx:step",
     * "cudaProfilerApi"); count, how many; listed, how many rows follow (at most 1000, in order);
     * duration_ns, their summed duration; outside, the kernels of the report that belong to none of
     * them. The rows' kernels plus the outside ones are the report's kernels whenever every step is
     * listed.
     */
    public record StepTable(String rule, long count, long durationNs, long listed, List<StepSummary> rows,
                            OutsideSteps outside) {}

    /**
     * One step: name as the source gives it (ProfilerStep#1009, step 3, cudaProfilerApi range 2),
     * number (N of ProfilerStep#N, else its place from 0 in its process), its interval (epoch ns) and
     * duration, the kernels that belong to it, their summed duration (gpu_ns) and the GPU's busy time
     * over them (their union: gpu_busy_ns; gpu_busy_approximate when its kernels came far apart in the
     * file, which can only overstate it).
     */
    public record StepSummary(int pid, String name, long number, long startNs, long endNs, long durationNs,
                              long kernels, long gpuNs, long gpuBusyNs, boolean gpuBusyApproximate) {}

    /** The kernels that belong to no step, and their summed duration. */
    public record OutsideSteps(long kernels, long gpuNs) {}

    /**
     * From the requests' spans: queued_ns, how long at least one request waited (inside the capture
     * window); gpu_busy_ns_while_queued, the GPU busy time (kernels, all devices, as a union) during
     * it, and gpu_busy_fraction_while_queued their ratio (null when nothing waited); waiting_max, the
     * most requests in their queue phase at one instant; in_model_max, the most in prefill or decode
     * at one instant (the batch the scheduler ran at its fullest).
     */
    public record QueueFacts(long queuedNs, long gpuBusyNsWhileQueued, Double gpuBusyFractionWhileQueued,
                             long waitingMax, long inModelMax) {}

    /**
     * The kernels inside the slowest requests' phases: the slowest percent % of the requests by
     * ranked_by (e2e; at least one), the union of their prefill windows (prefill_window_ns long) and of
     * their decode windows, and in each the top kernels by GPU time inside those windows.
     */
    public record SlowPhaseKernels(double percent, int requests, String rankedBy, long prefillWindowNs,
                                   long decodeWindowNs, List<PhaseKernel> prefill, List<PhaseKernel> decode) {}

    /** One kernel name in a phase's windows: how many of its kernels overlap them, and their GPU ns inside. */
    public record PhaseKernel(String name, long kernels, long gpuNsInside) {}

    /** The interval metrics and spans are read against; source: metadata, ranges, records or none. */
    public record WindowSummary(long startNs, long endNs, long durationNs, String source) {}

    /**
     * The triage verdict (see {@code vprof triage}) over the capture window: the leading verdict
     * ("queue_bound", ...) and every finding that holds, leading one first.
     */
    public record VerdictSummary(String verdict, String title, List<Finding> findings) {}

    /**
     * Per-request latencies over the capture window. requests_with_spans counts the llm_request
     * spans that ended inside the window; requests_per_metrics the requests the server's counters
     * say finished over it (null without metrics). note says which source was chosen and why.
     */
    public record LatencySection(long requestsWithSpans, Double requestsPerMetrics, String note,
                                 LatencySummary ttft, LatencySummary queue, LatencySummary prefill,
                                 LatencySummary decode, LatencySummary e2e, LatencySummary interToken) {}

    /**
     * One latency: source "spans" (every figure exact), "histogram" (mean exact, quantiles known to
     * a bucket) or "absent"; side, who measured it: "server_spans" (the server's llm_request spans),
     * "metrics_histogram" (the server's /metrics histograms) or "absent" (a client's figures, from a
     * load generator, are never in a report); count of observations; p50, p99 and max as
     * {@link QuantileSummary}.
     */
    public record LatencySummary(String source, String side, Double count, Double meanS, QuantileSummary p50,
                                 QuantileSummary p99, QuantileSummary max) {}

    /**
     * A quantile as numbers: low_s &lt; q &lt;= high_s; exact when low_s = high_s is the value itself;
     * high_s null when the histogram gives no upper bound (the +Inf bucket).
     */
    public record QuantileSummary(Double lowS, Double highS, boolean exact) {}

    /**
     * What the server's metrics say about the capture window, from the increase between the scrape
     * before (or at) the window's start and the last scrape in it (latencies: {@link LatencySection}).
     * Null where the server exports no such metric. invalid lists the metrics left out because their
     * values break the exposition format's rules ("name{labels}: why").
     */
    public record MetricsSummary(
            long scrapes,
            Double seconds,
            Double requests,
            Double queueDepthMean,
            Double queueDepthMax,
            Double runningMean,
            Double kvCacheUsageMax,
            Double aborts,
            Double preemptions,
            Double prefixCacheHitRate,
            Double promptTokensPerS,
            Double generationTokensPerS,
            List<String> missing,
            List<String> invalid,
            List<MetricGap> gaps,
            Double sampleIntervalS) {}

    /** A stretch without metrics: scrapes failed from start_ns until the next good scrape (end_ns). */
    public record MetricGap(long startNs, long endNs, String error) {}

    /**
     * The spans of the capture: how many, how many became requests, and those wholly outside the
     * window (kept out of the timeline, listed here, at most 100).
     */
    public record SpansSummary(long spans, long requests, long outside, long endedBefore, long startedAfter,
                               long straddling, String description, List<OutsideSpan> outsideSpans,
                               boolean gpuOverlapApproximate) {}

    public record OutsideSpan(String traceId, String spanId, String service, String name, long startNs, long endNs) {}

    /**
     * One request (an llm_request span): its phases and the GPU busy time (the union of kernels over
     * every device of the captured processes) that overlapped each. before_engine is the time from
     * the request's arrival until the engine queued it (HTTP handling, tokenization).
     * dominant_phase is the longest phase.
     */
    public record RequestSummary(
            String traceId,
            String requestId,
            long startNs,
            long e2eNs,
            long beforeEngineNs,
            long queueNs,
            long prefillNs,
            long decodeNs,
            long gpuNsBeforeEngine,
            long gpuNsInQueue,
            long gpuNsInPrefill,
            long gpuNsInDecode,
            String dominantPhase,
            boolean inWindow,
            List<String> anomalies) {}

    public record ProcessSummary(
            int pid,
            int ppid,
            String command,
            long cuptiVersion,
            int ranges,
            long kernels,
            long memcpys,
            long memcpyBytes,
            long memsets,
            long memsetBytes,
            long markers,
            long apiCalls,
            Map<String, Long> busyNsByDevice,
            long ringDrops,
            long ringDropsKernels,
            long cuptiDrops,
            long zeroTimestampKernels,
            ClockSummary clock,
            AgentCounters counters,
            Integer rank,
            Integer localRank,
            Integer worldSize,
            List<DeviceProperties> devices,
            List<String> agentWarnings,
            long cpuSlices,
            Map<String, String> source) {}

    public record ClockSummary(int pairs, long offsetNs, double driftPpm, long residualMaxNs, long residualRmsNs) {}

    public record RangeSummary(
            int pid,
            int index,
            int captureId,
            String source,
            String endSource,
            boolean ended,
            long startNs,
            long endNs,
            long durationNs,
            long kernels,
            long memcpys,
            long memcpyBytes,
            long memsets,
            long memsetBytes,
            long markers,
            long apiCalls,
            List<DeviceBusy> devices,
            long ringDrops,
            long ringDropsKernels,
            long cuptiDrops,
            long zeroTimestampKernels,
            List<KernelSummary> topKernels,
            RangeFidelity fidelity) {}

    /**
     * What a range's agent checked (ring format 2; zeros in older files): kernels from CUDA graphs
     * and not; the launches its callbacks counted in the range and how many of them had no record
     * when its drain window closed; records clipped for being launched outside the range (not a
     * loss); records kept off the timeline as invalid, by reason (zero_timestamps, start_zero,
     * end_zero, end_before_start, outside_range, late, bad_record); and the warnings it raised, as
     * codes (no_records, buffers_taken_by_another_client, graph_kernels_not_delivered, ...).
     */
    public record RangeFidelity(
            long graphKernels,
            long nonGraphKernels,
            long kernelLaunches,
            long graphLaunches,
            long kernelsMissing,
            long clipped,
            Map<String, Long> rejected,
            List<String> warnings) {}

    /**
     * busy_percent is of span_ns, the device's first kernel start to its last kernel end;
     * approximate when intervals arrived too far out of order.
     */
    public record DeviceBusy(int device, long busyNs, long spanNs, double busyPercent, boolean approximate) {}

    /**
     * One kernel name's durations. p50/p99 are exact while percentiles_exact is true (up to 1024
     * kernels of the name), and within 0.4% otherwise (a log histogram, see Durations).
     */
    public record KernelSummary(
            String name,
            long count,
            long totalNs,
            long meanNs,
            long minNs,
            long p50Ns,
            long p99Ns,
            long maxNs,
            boolean percentilesExact) {}

    /**
     * Sums over processes. unverifiedRecords: records read from a RECORDS chunk the file was cut
     * inside (a writer killed mid-write), whole but not covered by a checksum that could be checked.
     */
    public record Totals(
            int processes,
            int ranges,
            long kernels,
            long memcpys,
            long memcpyBytes,
            long memsets,
            long ringDrops,
            long ringDropsKernels,
            long cuptiDrops,
            long zeroTimestampKernels,
            long graphKernels,
            long clipped,
            Map<String, Long> rejected,
            long unverifiedRecords) {

        public Totals(int processes, int ranges, long kernels, long memcpys, long memcpyBytes, long memsets,
                      long ringDrops, long ringDropsKernels, long cuptiDrops, long zeroTimestampKernels) {
            this(processes, ranges, kernels, memcpys, memcpyBytes, memsets, ringDrops, ringDropsKernels, cuptiDrops,
                    zeroTimestampKernels, 0, 0, Map.of(), 0);
        }

        /** Records kept off the timeline as invalid, all reasons. */
        public long rejectedTotal() {
            long n = 0;
            for (long v : rejected.values()) {
                n += v;
            }
            return n;
        }
    }

    /** True when anything was lost. */
    public boolean lostRecords() {
        return totals.ringDrops() > 0 || totals.cuptiDrops() > 0 || totals.zeroTimestampKernels() > 0;
    }
}
