package dev.vprof.analysis;

import static dev.vprof.analysis.IntervalOracle.intersect;
import static dev.vprof.analysis.IntervalOracle.length;
import static dev.vprof.analysis.IntervalOracle.union;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.Span;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU time inside the slowest requests' prefill and decode (and the rest's), against a tally made
 * here from the capture's kernel records and the spans' own attributes: each kernel's epoch interval
 * clipped to the phases, unioned per device.
 */
class PhaseBreakdownTest {
    @TempDir
    Path dir;

    @Test
    void thePhaseBreakdownAgreesWithTheKernelRecordsInsideThePhases() throws Exception {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        // The phases as vLLM's attributes lay them forward from the span's start: + queue, + prefill, then decode.
        List<Span> reqs = new ArrayList<>(SyntheticCapture.spans().stream().filter(s -> s.name().equals("llm_request"))
                .toList());
        reqs.sort(Comparator.comparingLong((Span s) -> s.endEpochNs() - s.startEpochNs()).reversed());
        int slow = (int) Math.ceil(reqs.size() * 0.10);
        Map<String, List<long[]>> phases = new HashMap<>();
        for (int i = 0; i < reqs.size(); i++) {
            Span s = reqs.get(i);
            long queueEnd = s.startEpochNs() + Math.round(s.attribute("gen_ai.latency.time_in_queue").asDouble() * 1e9);
            long prefillEnd = queueEnd + Math.round(s.attribute("gen_ai.latency.time_in_model_prefill").asDouble() * 1e9);
            String who = i < slow ? "slowest" : "rest";
            phases.computeIfAbsent(who + " prefill", k -> new ArrayList<>()).add(new long[] {queueEnd, prefillEnd});
            phases.computeIfAbsent(who + " decode", k -> new ArrayList<>()).add(new long[] {prefillEnd, s.endEpochNs()});
        }
        // Each kernel's epoch interval, per device.
        Map<Integer, List<long[]>> kernels = new HashMap<>();
        Analyses.Result result;
        try (CaptureReader reader = CaptureReader.open(file)) {
            Map<Integer, ClockMapping> clocks = reader.clocks();
            reader.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    ClockMapping c = clocks.get(pid);
                    kernels.computeIfAbsent(desc == null ? -1 : desc.deviceId(), d -> new ArrayList<>())
                            .add(new long[] {c.toEpochNs(start), c.toEpochNs(end)});
                }
            });
            result = Analyses.run(reader, KernelNames.demangled());
        }
        assertTrue(!result.phases().isEmpty(), "the capture has requests");
        int checked = 0;
        for (PhaseBreakdown.Row row : result.phases()) {
            List<long[]> window = union(phases.get(row.phase()));
            long length = length(window);
            long busy = length(intersect(union(kernels.get(row.figures().device())), window));
            TemporalBreakdown.Row f = row.figures();
            assertEquals(length, f.spanNs(), row.phase() + " length");
            assertEquals(busy, f.computeNs() + f.communicationNs(), row.phase() + " GPU time inside");
            assertEquals(length - busy - f.memoryNs(), f.idleNs(), row.phase() + " idle");
            assertEquals(length, f.idleNs() + f.computeNs() + f.communicationNs() + f.memoryNs(), row.phase());
            assertEquals(row.phase().startsWith("slowest") ? slow : reqs.size() - slow, row.requests());
            assertTrue(busy > 0, row.phase() + " holds kernels");
            checked++;
        }
        assertTrue(checked >= 2, "the slowest requests' prefill and decode at least: " + result.phases());
        assertTrue(result.phases().stream().anyMatch(r -> r.phase().equals("slowest prefill")));
        assertTrue(result.phases().stream().anyMatch(r -> r.phase().equals("slowest decode")));
    }
}
