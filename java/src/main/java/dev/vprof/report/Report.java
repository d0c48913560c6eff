package dev.vprof.report;

import dev.vprof.capture.CaptureMetadata;
import java.util.List;
import java.util.Map;

/**
 * What `vprof report` says about a capture; serialized as its JSON (snake_case) and
 * rendered as text by {@link TextReport}. Times are epoch ns unless named otherwise.
 */
public record Report(
        String file,
        boolean complete,
        List<String> warnings,
        CaptureMetadata metadata,
        List<ProcessSummary> processes,
        List<RangeSummary> ranges,
        Totals totals,
        List<KernelSummary> topKernels) {

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
            dev.vprof.capture.AgentCounters counters) {}

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
            List<KernelSummary> topKernels) {}

    /** busy_percent is of the range's duration; approximate when intervals arrived too far out of order. */
    public record DeviceBusy(int device, long busyNs, double busyPercent, boolean approximate) {}

    /**
     * One kernel name's durations. p50/p99 are exact while percentiles_exact is true, and
     * within 0.4% otherwise (see Durations).
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
            long zeroTimestampKernels) {}

    /** True when anything was lost. */
    public boolean lostRecords() {
        return totals.ringDrops() > 0 || totals.cuptiDrops() > 0 || totals.zeroTimestampKernels() > 0;
    }
}
