package dev.vprof.engine;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.RangeEvent;
import dev.vprof.region.ArmSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The closing stage of a {@link CaptureSession}: what the capture's summary counts (every
 * attached process's records and drops, the feeds, what the torch traces added), the hint when a
 * capture range never opened, and the words for why the capture ended.
 */
final class CaptureTally {
    private CaptureTally() {}

    /**
     * The summary of a capture over {@code attached}; {@code folded} is what --torch-traces added
     * (null without), {@code triggerGiven} whether --trigger was passed.
     */
    static CaptureSummary summary(List<Attached> attached, CaptureFeeds feeds, TorchTraceFold.Folded folded,
                                  ArmSpec spec, boolean triggerGiven, String stopReason, int failedAgents) {
        long ranges = 0, kernels = 0, records = 0, ringDrops = 0, ringDropsKernels = 0, cuptiDrops = 0;
        List<String> agentWarnings = new ArrayList<>();
        for (Attached a : attached) {
            long raised = a.delta().warningFlags();
            if (raised != 0) {
                agentWarnings.add("pid " + a.pid() + ": " + a.lastReason + " ["
                        + String.join(", ", RangeEvent.flagNames(raised)) + "]");
            }
            ranges += a.reader.rangesBegun();
            kernels += a.reader.records(VprofRing.REC_KERNEL);
            records += a.reader.records();
            AgentCounters d = a.delta();
            ringDrops += d.ringDrops();
            ringDropsKernels += d.ringDropsKernels();
            cuptiDrops += d.cuptiDrops();
        }
        List<String> feedLines = new ArrayList<>(feeds.summaryLines());
        int processes = attached.size();
        String from = null;
        if (folded != null) { // the one summary line counts what the traces added
            processes += folded.processes();
            kernels += folded.kernels();
            records += folded.records();
            from = folded.from();
        }
        List<String> hints = rangeHints(ranges, attached.size(), spec,
                triggerGiven && feeds.counts().triggerFailures() == 0);
        return new CaptureSummary(processes, ranges, kernels, records, ringDrops, ringDropsKernels, cuptiDrops,
                stopReason, feeds.counts(), feedLines, agentWarnings, hints, failedAgents, null, from);
    }

    /**
     * A capture range that never opened leaves an empty file that looks like success: say why it
     * may have. {@code triggered}: --trigger was passed and its POSTs succeeded.
     */
    static List<String> rangeHints(long ranges, int processes, ArmSpec spec, boolean triggered) {
        if (ranges > 0 || processes == 0 || spec.rangeMode() == VprofRing.RANGE_NONE) {
            return List.of();
        }
        String waited = processes == 1 ? "its process" : "any of its " + processes + " processes";
        if (spec.rangeMode() == VprofRing.RANGE_PROFILER) {
            String why = triggered
                    ? "--trigger POSTed /start_profile, but no process called cudaProfilerStart: was vLLM started"
                            + " with --profiler-config '{\"profiler\":\"cuda\"}'?"
                    : "did you pass --trigger, or start vLLM with --profiler-config '{\"profiler\":\"cuda\"}'?";
            return List.of("vprof: warning: no capture range opened: --capture-range=cudaProfilerApi waited for "
                    + "cudaProfilerStart in " + waited + " and it never came, so nothing was recorded; " + why);
        }
        String range = spec.rangeName() + (spec.rangeDomain().isEmpty() ? "" : "@" + spec.rangeDomain());
        return List.of("vprof: warning: no capture range opened: no NVTX range '" + range + "' was pushed in "
                + waited + ", so nothing was recorded; names are case-sensitive (the domain too), and a"
                + " range pushed before the capture started does not count");
    }

    /**
     * Why a capture ended by itself: RUN ends with its command; ATTACH with its targets, each of
     * which either ended its ranges itself ({@code endedByItself}) or exited.
     */
    static CaptureEnd.Cause cause(CapturePlan.Mode mode, List<Boolean> endedByItself) {
        if (mode == CapturePlan.Mode.RUN) {
            return CaptureEnd.Cause.COMMAND_EXITED;
        }
        boolean anyRange = endedByItself.contains(true);
        boolean anyExit = endedByItself.contains(false);
        return anyRange && anyExit ? CaptureEnd.Cause.RANGES_DONE_OR_EXITED
                : anyRange ? CaptureEnd.Cause.RANGES_DONE : CaptureEnd.Cause.TARGETS_EXITED;
    }
}
