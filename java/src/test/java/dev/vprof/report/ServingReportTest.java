package dev.vprof.report;

import static dev.vprof.adapt.SyntheticCapture.MS;
import static dev.vprof.adapt.SyntheticCapture.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's serving sections on {@link SyntheticCapture}, every figure worked out by hand. */
class ServingReportTest {
    @TempDir
    Path dir;

    private Report report(boolean withMetricsAndSpans) throws IOException {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), withMetricsAndSpans);
        try (CaptureReader reader = CaptureReader.open(file)) {
            return CaptureReport.build(reader, 10);
        }
    }

    @Test
    void metricsOverTheWindowComeFromTheScrapeBeforeItAndTheLastInIt() throws IOException {
        Report.MetricsSummary m = report(true).metrics();
        // Window 0.5 .. 9.5 s (the range): scrapes at 0 (before), 2, 4, 6, 8; the one at 10 is after.
        assertEquals(6, m.scrapes());
        assertEquals(8.0, m.seconds(), 1e-9);
        assertEquals(3.0, m.requests(), 1e-9); // stop 0 -> 2, abort 0 -> 1
        assertEquals(1.0, m.aborts(), 1e-9);
        assertEquals(2.0, m.preemptions(), 1e-9);
        assertEquals(0.2, m.prefixCacheHitRate(), 1e-9); // 140 hits / 700 queries
        assertEquals(87.5, m.promptTokensPerS(), 1e-9); // 700 / 8 s
        assertEquals(56.25, m.generationTokensPerS(), 1e-9); // 450 / 8 s
        assertEquals(1.2, m.queueDepthMean(), 1e-9); // waiting 0, 1, 3, 2, 0
        assertEquals(3.0, m.queueDepthMax(), 1e-9);
        assertEquals(0.7, m.kvCacheUsageMax(), 1e-9);
        assertTrue(m.missing().contains("vllm:request_prefill_time_seconds"));
        assertEquals(List.of(new Report.MetricGap(at(5000), at(6000), "connection refused")), m.gaps());
    }

    @Test
    void histogramQuantilesAreTheirBucketsNarrowedByTheSumNeverAPoint() throws IOException {
        Report.LatencySection l = report(true).latency();
        // Two spans end in the window but the metrics counted 3 requests: the spans are a sample,
        // so the figures come from the histograms.
        assertEquals(2, l.requestsWithSpans());
        assertEquals(3.0, l.requestsPerMetrics(), 1e-9);
        assertTrue(l.note().contains("histograms"), l.note());
        // TTFT deltas 1, 2, 3, 4 (cumulative) at le 0.1, 0.5, 1, +Inf, sum 2 s: rank 2 lies in
        // (0.1, 0.5]; rank 4 in the +Inf bucket, where the sum caps it at 2 s.
        assertEquals("histogram", l.ttft().source());
        assertEquals(new Report.QuantileSummary(0.1, 0.5, false), l.ttft().p50());
        assertEquals(new Report.QuantileSummary(1.0, 2.0, false), l.ttft().p99());
        assertEquals(0.5, l.ttft().meanS(), 1e-9);
        // Queue deltas 1, 2, 2 at le 1, 2, +Inf, sum 1 s: rank 1 in (0, 1], capped at 1 / 2 s by the
        // sum; rank 2 in (1, 2], where a sum of 1 s cannot be right: the bucket alone.
        assertEquals(new Report.QuantileSummary(0.0, 0.5, false), l.queue().p50());
        assertEquals(new Report.QuantileSummary(1.0, 2.0, false), l.queue().p99());
        assertEquals("absent", l.prefill().source(), "the server exports no prefill histogram");
        assertNull(l.prefill().p50());
        String text = TextReport.render(report(true));
        assertTrue(text.contains("TTFT         100-500 ms     1-2 s"), text);
        assertTrue(text.contains(dev.vprof.triage.TriageReport.HISTOGRAM_LEGEND), text);
    }

    @Test
    void spansThatCoverTheRequestsGiveExactFigures() {
        Latencies.FromSpans spans = new Latencies.FromSpans(3,
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {0.2, 1.3, 0.05}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {0.1, 1.2, 0.0}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {0.1, 0.1, 0.05}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {1, 2, 3}),
                dev.vprof.metrics.WindowStats.Latency.ofObservations(new double[] {1.2, 3.3, 3.05}));
        Latencies.Chosen c = Latencies.choose(null, spans);
        assertEquals("spans", c.section().ttft().source());
        assertEquals(new Report.QuantileSummary(0.2, 0.2, true), c.section().ttft().p50());
        assertEquals(new Report.QuantileSummary(1.3, 1.3, true), c.section().ttft().p99(), "nearest rank: the slowest");
        assertEquals(new Report.QuantileSummary(1.3, 1.3, true), c.section().ttft().max());
        assertEquals("absent", c.section().interToken().source(), "spans carry no inter-token latency");
    }

    @Test
    void eachRequestGetsTheGpuTimeThatOverlappedEachPhase() throws IOException {
        Report rep = report(true);
        assertEquals(3, rep.requests().size());
        Report.RequestSummary a = byId(rep.requests(), "req-A");
        assertEquals(2_000 * MS, a.e2eNs());
        assertEquals(500 * MS, a.queueNs());
        assertEquals(500 * MS, a.prefillNs());
        assertEquals(1_000 * MS, a.decodeNs());
        near(50 * MS, a.gpuNsInQueue());
        near(300 * MS, a.gpuNsInPrefill()); // 1.6-1.8 on GPU 0 and 1.7-1.9 on GPU 1: the union
        near(100 * MS, a.gpuNsInDecode());
        assertTrue(a.inWindow());
        Report.RequestSummary b = byId(rep.requests(), "req-B");
        assertEquals(0, b.gpuNsInQueue());
        near(300 * MS, b.gpuNsInPrefill());
        near(500 * MS, b.gpuNsInDecode());
        assertEquals("queue", b.dominantPhase());
        assertEquals(List.of("req-B", "req-A", "req-C"),
                rep.slowestRequests().stream().map(Report.RequestSummary::requestId).toList());
    }

    @Test
    void spansOutsideTheWindowAreReportedNotDropped() throws IOException {
        Report rep = report(true);
        Report.SpansSummary s = rep.spans();
        assertEquals(5, s.spans());
        assertEquals(3, s.requests());
        assertEquals(2, s.outside());
        assertEquals(2, s.startedAfter());
        assertEquals(List.of("llm_request", "late"), s.outsideSpans().stream().map(Report.OutsideSpan::name).toList());
        Report.RequestSummary c = byId(rep.requests(), "req-C");
        assertFalse(c.inWindow());
        String text = TextReport.render(rep);
        assertTrue(text.contains("2 span(s) outside the capture window"), text);
        assertTrue(text.contains("GAP: no metrics for 1.000 s"), text);
        assertTrue(text.contains("request latency over the capture window"), text);
        assertTrue(text.contains("req-B (outside") == false && text.contains("req-C (outside the capture window)"), text);
    }

    @Test
    void theClockSectionStatesTheSkewDriftAndResidual() throws IOException {
        Report.ClockSummary c = report(true).processes().getFirst().clock();
        assertEquals(11, c.pairs());
        assertEquals((double) -SyntheticCapture.SKEW_NS, (double) c.offsetNs(), 10.0);
        assertEquals(-20.0, c.driftPpm(), 0.01); // epoch gains 20 us/s less than CUPTI
        assertTrue(c.residualMaxNs() < 10, "a straight line fits exactly: " + c.residualMaxNs() + " ns");
    }

    @Test
    void jsonCarriesTheNewSectionsBesideTheOldOnes() throws IOException {
        JsonNode j = new ObjectMapper().readTree(ReportJson.render(report(true)));
        for (String old : List.of("processes", "ranges", "totals", "top_kernels")) {
            assertTrue(j.has(old), old);
        }
        assertEquals(0.1, j.at("/latency/ttft/p50/low_s").asDouble(), 1e-9);
        assertEquals(0.5, j.at("/latency/ttft/p50/high_s").asDouble(), 1e-9);
        assertFalse(j.at("/latency/ttft/p50/exact").asBoolean());
        assertEquals("histogram", j.at("/latency/ttft/source").asText());
        assertTrue(j.at("/latency/prefill/p50").isNull());
        // Two preemptions in the window: KV-cache pressure leads; the queue and the aborts follow.
        assertEquals("kv_cache_pressure", j.at("/verdict/verdict").asText(), j.at("/verdict").toString());
        assertEquals("clients_timing_out", j.at("/verdict/findings/2/verdict").asText());
        JsonNode a = j.get("requests").get(0);
        for (String f : List.of("trace_id", "request_id", "e2e_ns", "queue_ns", "prefill_ns", "decode_ns",
                "gpu_ns_in_queue", "gpu_ns_in_prefill", "gpu_ns_in_decode")) {
            assertTrue(a.has(f), f);
        }
        assertEquals(SyntheticCapture.traceHex(1), a.get("trace_id").asText());
        assertEquals("req-B", j.at("/slowest_requests/0/request_id").asText());
        assertTrue(j.at("/processes/0/clock").has("residual_max_ns"));
        assertEquals("ranges", j.at("/window/source").asText());
    }

    @Test
    void aCaptureWithoutMetricsOrSpansReportsAsBefore() throws IOException {
        Report rep = report(false);
        assertNull(rep.metrics());
        assertNull(rep.spans());
        assertTrue(rep.requests().isEmpty());
        assertEquals(6, rep.totals().kernels());
        String text = TextReport.render(rep);
        assertFalse(text.contains("metrics over the capture window"), text);
        assertFalse(text.contains("slowest"), text);
    }

    private static Report.RequestSummary byId(List<Report.RequestSummary> requests, String id) {
        return requests.stream().filter(r -> r.requestId().equals(id)).findFirst().orElseThrow();
    }

    /** Kernels pass through the fitted clock line: equal to within rounding. */
    private static void near(long expected, long actual) {
        assertTrue(Math.abs(expected - actual) < 1_000, "expected " + expected + " ns, got " + actual);
    }
}
