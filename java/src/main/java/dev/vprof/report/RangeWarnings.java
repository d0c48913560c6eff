package dev.vprof.report;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.RangeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sentences a person reads about what CUPTI did to a capture (docs/cupti-field-facts.md R1-R12), from
 * the warning codes and counts the agent put in each range's END record and its counters: what
 * happened, the likely cause, what to do. Never a silent zero.
 */
final class RangeWarnings {
    private RangeWarnings() {}

    /** Reasons a record was kept off the timeline, in words. */
    private static final Map<String, String> REASONS = Map.of(
            "zero_timestamps", "without timestamps (start = end = 0)",
            "start_zero", "with start = 0",
            "end_zero", "with end = 0",
            "end_before_start", "ending before they started",
            "outside_range", "with times outside the range",
            "bad_record", "failing the sanity check of an unverified CUPTI record layout");

    /** Warning sentences for one range, without a prefix; empty when nothing went wrong. */
    static List<String> sentences(Report.RangeSummary r) {
        Report.RangeFidelity f = r.fidelity();
        List<String> out = new ArrayList<>();
        List<String> w = f.warnings();
        if (w.contains("no_records")) {
            if (w.contains("buffers_taken_by_another_client")) {
                out.add(String.format(Locale.ROOT, "no record arrived although the process launched %d kernels, "
                        + "and CUPTI asked vprof for no buffer: another CUPTI client in this process (torch.profiler / "
                        + "Kineto) registered its own activity buffer callbacks and took vprof's records; run "
                        + "torch.profiler outside vprof's capture ranges (vprof takes the callbacks back at each range "
                        + "begin)", f.kernelLaunches()));
            } else {
                out.add(String.format(Locale.ROOT, "no record arrived although the process launched %d kernels: "
                        + "another CUPTI client in this process (torch.profiler / Kineto) most likely disabled "
                        + "vprof's activity kinds or took its buffers", f.kernelLaunches()));
            }
        } else if (w.contains("records_missing")) {
            out.add(String.format(Locale.ROOT, "%d of %d kernel launches had no record when the range's drain "
                    + "window closed (2 s after its end): still running then, or another CUPTI client in this "
                    + "process (torch.profiler / Kineto) took vprof's buffers or disabled kernel tracing during "
                    + "the range", f.kernelsMissing(), f.kernelLaunches()));
        }
        if (w.contains("graph_kernels_not_delivered")) {
            out.add(String.format(Locale.ROOT, "CUPTI delivered NO kernels of the %d CUDA graph launches in this "
                    + "range: the graphs were captured and instantiated while vprof was dormant (before kernel "
                    + "tracing was on), and this CUDA does not trace their nodes afterwards; the GPU time of these "
                    + "graphs is missing from this report. To see them, capture from the server's start "
                    + "(--capture-range=none) or run it without CUDA graphs (vLLM --enforce-eager, SGLang "
                    + "--disable-cuda-graph)", f.graphLaunches()));
        }
        if (w.contains("cupti_clock_changed")) {
            out.add("CUPTI's clock stopped following CLOCK_REALTIME during this range: another CUPTI client "
                    + "(torch.profiler with its TSC option) installed a timestamp callback; times in this range "
                    + "may not line up with the rest of the capture");
        }
        if (w.contains("cut_short")) {
            out.add("the next range began while this one was still draining: this range was closed at once, "
                    + "and its work that completed afterwards is shown with it (the agent marked it late)");
        }
        if (w.contains("membership_by_timestamps")) {
            out.add("CUPTI's correlation ids did not grow in launch order; records were assigned to this range "
                    + "by their timestamps, which cannot tell queued work from work launched after the end");
        }
        long rejected = 0;
        StringBuilder why = new StringBuilder();
        for (Map.Entry<String, Long> e : f.rejected().entrySet()) {
            rejected += e.getValue();
            why.append(why.isEmpty() ? "" : ", ").append(e.getValue()).append(' ')
                    .append(REASONS.getOrDefault(e.getKey(), e.getKey()));
        }
        if (rejected > 0) {
            out.add(String.format(Locale.ROOT, "%d records were kept off the timeline as invalid: %s",
                    rejected, why));
        }
        return out;
    }

    /** Codes of what the agent noted about its process (CUPTI version, buffers) during the capture. */
    static List<String> processCodes(AgentCounters c) {
        long processWide = VprofRing.WARN_PER_THREAD_BUFFERS | VprofRing.WARN_KERNEL_KIND_KEPT
                | VprofRing.WARN_UNVERIFIED_LAYOUT | VprofRing.WARN_POOL_EMPTY;
        List<String> codes = new ArrayList<>(RangeEvent.flagNames(c.warningFlags() & processWide));
        if (c.poolEmergencyBuffers() > 0) {
            codes.add("pool_emergency_buffers");
        }
        if (c.poolRefusals() > 0) {
            codes.add("pool_refusals");
        }
        return codes;
    }

    /** Warning sentences for a process's codes, without a prefix. */
    static List<String> processSentences(Report.ProcessSummary p) {
        List<String> out = new ArrayList<>();
        AgentCounters c = p.counters();
        for (String code : p.agentWarnings()) {
            switch (code) {
                case "unverified_record_layout" -> out.add("CUPTI API version " + p.cuptiVersion() + " is not one "
                        + "whose record layout vprof has verified (CUDA 12.0 to 12.9, 13.0); every record was "
                        + "sanity-checked and those that failed are counted as bad_record");
                case "kernel_tracing_kept_on" -> out.add("CUPTI 13.0.0 can deadlock when kernel tracing is "
                        + "disabled, so vprof left it on after the capture until the process exits; use the "
                        + "CUPTI of CUDA 13.0 Update 1 or later");
                case "per_thread_buffers_on" -> out.add("CUPTI kept per-thread activity buffers on; vprof kept 64 "
                        + "buffers ready for them");
                case "pool_emergency_buffers" -> out.add(c.poolEmergencyBuffers() + " CUPTI buffer requests found "
                        + "the pool empty and were served by allocating on the application thread (a CUPTI older "
                        + "than 12.9 may crash when refused); use a larger --buffer-size");
                case "pool_refusals" -> out.add(c.poolRefusals() + " CUPTI buffer requests found the pool empty "
                        + "and were refused (CUPTI dropped and counted those records); use a larger --buffer-size");
                default -> { }
            }
        }
        return out;
    }
}
