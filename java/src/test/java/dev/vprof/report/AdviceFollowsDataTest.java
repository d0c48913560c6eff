package dev.vprof.report;

import static dev.vprof.adapt.SyntheticCapture.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.RecordLists;
import dev.vprof.otlp.Span;
import dev.vprof.triage.Finding;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's advice and figures follow what the capture holds ({@link SyntheticCapture}: spans,
 * scrapes and kernels): next steps never ask for them again, nor name a server that is gone; a queue
 * with an idle GPU points at the scheduler; every latency says its side; gauges say they are sampled;
 * the slowest request's prefill and decode name their kernels.
 */
class AdviceFollowsDataTest {
    @TempDir
    Path dir;

    private static final String DEMO_URL = "http://127.0.0.1:45645/metrics";

    private Report report(CaptureMetadata metadata) throws IOException {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true, metadata);
        try (CaptureReader reader = CaptureReader.open(file)) {
            return CaptureReport.build(reader, 10);
        }
    }

    private Report demoReport() throws IOException {
        return report(new CaptureMetadata("host", SyntheticCapture.R0, "0.1.0", List.of("demo", "attach", "--pid", "7"),
                Map.of("metrics", DEMO_URL)));
    }

    private static List<String> nextSteps(Report r) {
        List<String> all = new ArrayList<>();
        for (Finding f : r.verdict().findings()) {
            all.addAll(f.nextSteps());
        }
        return all;
    }

    @Test
    void nextStepsNeverAskForWhatTheCaptureHoldsNorHitTheDemosDeadPort() throws IOException {
        Report r = demoReport();
        List<String> next = nextSteps(r);
        assertFalse(next.isEmpty());
        for (String n : next) {
            assertFalse(n.contains("record their spans") || n.contains("--otlp"), "asks for spans it holds: " + n);
            assertFalse(n.contains("--metrics"), "asks for metrics it holds: " + n);
            assertFalse(n.contains("127.0.0.1:45645"), "names the demo's dead port: " + n);
        }
        assertTrue(next.stream().anyMatch(n -> n.contains("this capture's spans")), String.join("\n", next));
        // The text the user reads says the same.
        assertFalse(TextReport.render(r).contains("45645"), TextReport.render(r));
    }

    @Test
    void aQueueWhileTheGpuIsMostlyIdleNamesBatchSlotsAndTheSpansRunningMax() throws IOException {
        Report r = demoReport();
        // Queue phases: A 1.0-1.5 s, B 4.0-6.0 s, C 20.0-20.2 s; one kernel (gemm 1.20-1.25) runs in them.
        Report.QueueFacts q = r.queue();
        assertEquals(2_700 * MS, q.queuedNs());
        assertTrue(Math.abs(q.gpuBusyNsWhileQueued() - 50 * MS) < 1_000, q.toString());
        assertEquals(1, q.waitingMax());
        assertEquals(1, q.inModelMax(), "no two requests were in prefill or decode at once");
        Finding queue = r.verdict().findings().stream().filter(f -> f.verdict().key().equals("queue_bound"))
                .findFirst().orElseThrow();
        String text = queue.summary() + "\n" + String.join("\n", queue.evidence()) + "\n"
                + String.join("\n", queue.nextSteps());
        assertTrue(queue.summary().contains("GPU is mostly idle (busy 2%"), text);
        assertTrue(text.contains("--max-num-seqs; at most 1 request was in prefill or decode at once in the spans"),
                text);
        assertTrue(text.contains("--max-num-batched-tokens"), text);
        assertFalse(text.contains("a profile will not fix a queue"), text);
    }

    @Test
    void everyLatencySaysItsSideAndGaugesSayTheyAreSampled() throws IOException {
        Report r = demoReport();
        String text = TextReport.render(r);
        assertTrue(text.contains("TTFT         100-500 ms     1-2 s") && text.contains("metrics histogram buckets"), text);
        assertTrue(text.contains("a client's (vprof bench, a load generator) TTFT"), text);
        assertTrue(text.contains("slowest 3 requests (server spans;"), text);
        // Scrapes every 2 s: the gauge's max is of the samples; the spans count the waiting requests exactly.
        assertTrue(text.contains("queue depth mean / max         1.2 / 3 (sampled every 2 s); 1 waiting at once in the"
                + " spans"), text);
        JsonNode j = new ObjectMapper().readTree(ReportJson.render(r));
        assertEquals("metrics_histogram", j.at("/latency/ttft/side").asText());
        assertEquals("absent", j.at("/latency/prefill/side").asText());
        assertEquals(2.0, j.at("/metrics/sample_interval_s").asDouble(), 1e-9);
        assertEquals(1, j.at("/queue/waiting_max").asLong());
        assertEquals(1, j.at("/queue/in_model_max").asLong());
        for (String verdictLine : List.of(text.substring(text.indexOf("Verdict:"), text.indexOf("summary:")))) {
            assertTrue(verdictLine.contains("(metrics histogram buckets)"), verdictLine);
            assertTrue(verdictLine.contains("sampled every 2 s from /metrics"), verdictLine);
        }
        // Spans' latencies name their side in JSON too.
        Latencies.Chosen c = Latencies.choose(null, new Latencies.FromSpans(1,
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {0.2}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {0.1}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {0.1}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {1}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {1.2})));
        assertEquals("server_spans", c.section().ttft().side());
    }

    @Test
    void theSlowestRequestsPhasesNameTheirKernelsAsAnIndependentCountFindsThem() throws IOException {
        Report r = demoReport();
        Report.SlowPhaseKernels k = r.slowPhaseKernels();
        // Independently: the slowest ceil(10 % of 3) = 1 request by its span's length, its phases as
        // vLLM's attributes lay them forward from the end of the time before the engine (none here):
        // start, + queue, + prefill, + decode; each kernel's epoch interval clipped to them.
        Span slowest = SyntheticCapture.spans().stream().filter(s -> s.name().equals("llm_request"))
                .max(Comparator.comparingLong(s -> s.endEpochNs() - s.startEpochNs())).orElseThrow();
        long queueEnd = slowest.startEpochNs() + Math.round(slowest.attribute("gen_ai.latency.time_in_queue").asDouble() * 1e9);
        long prefillEnd = queueEnd + Math.round(slowest.attribute("gen_ai.latency.time_in_model_prefill").asDouble() * 1e9);
        long decodeEnd = slowest.endEpochNs();
        Map<String, long[]> prefill = new HashMap<>();
        Map<String, long[]> decode = new HashMap<>();
        Path file = dir.resolve("c.vprof");
        RecordLists seen = new RecordLists();
        Map<Integer, ClockMapping> clocks;
        try (CaptureReader reader = CaptureReader.open(file)) {
            clocks = reader.clocks();
            reader.forEachRecord(seen);
        }
        for (int i = 0; i < seen.names.size(); i++) {
            ClockMapping c = clocks.get(seen.pids.get(i));
            long s = c.toEpochNs(seen.starts.get(i)), e = c.toEpochNs(seen.ends.get(i));
            add(prefill, seen.names.get(i), Math.min(e, prefillEnd) - Math.max(s, queueEnd));
            add(decode, seen.names.get(i), Math.min(e, decodeEnd) - Math.max(s, prefillEnd));
        }
        assertEquals(1, k.requests());
        assertEquals(prefillEnd - queueEnd, k.prefillWindowNs());
        assertEquals(decodeEnd - prefillEnd, k.decodeWindowNs());
        assertSame(prefill, k.prefill());
        assertSame(decode, k.decode());
        assertEquals("attn", k.prefill().getFirst().name());
        assertEquals("gemm", k.decode().getFirst().name());
        String text = TextReport.render(r);
        assertTrue(text.contains("top kernels in the prefill of the slowest 1 request"), text);
        JsonNode j = new ObjectMapper().readTree(ReportJson.render(r));
        assertEquals("gemm", j.at("/slow_phase_kernels/decode/0/name").asText());
        assertEquals(k.decode().getFirst().gpuNsInside(), j.at("/slow_phase_kernels/decode/0/gpu_ns_inside").asLong());
    }

    private static void add(Map<String, long[]> into, String name, long inside) {
        if (inside > 0) {
            long[] t = into.computeIfAbsent(name, n -> new long[2]);
            t[0]++;
            t[1] += inside;
        }
    }

    /** The report's list holds exactly the names, counts and ns of the independent tally, largest first. */
    private static void assertSame(Map<String, long[]> expected, List<Report.PhaseKernel> actual) {
        assertEquals(expected.size(), actual.size(), actual.toString());
        for (Report.PhaseKernel pk : actual) {
            long[] t = expected.get(pk.name());
            assertEquals(t[0], pk.kernels(), pk.name());
            assertEquals(t[1], pk.gpuNsInside(), pk.name());
        }
        for (int i = 1; i < actual.size(); i++) {
            assertTrue(actual.get(i - 1).gpuNsInside() >= actual.get(i).gpuNsInside(), actual.toString());
        }
    }
}
