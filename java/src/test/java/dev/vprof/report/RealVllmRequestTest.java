package dev.vprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.capture.SpansV1;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.export.ChromeJsonWriter;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanImport;
import dev.vprof.otlp.SpanKind;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.Timeline;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request span shaped as one a real vLLM server sent (kind SERVER, scope vllm.tracing.otel, 108.64 ms
 * from start to end): the engine's queue, prefill and decode keep the attributes' lengths, the time
 * before the engine (ttft less queue and prefill, about 10.8 ms) is its own phase, and nothing is
 * flagged. The expected figures are the attributes' own values, converted here.
 */
class RealVllmRequestTest {
    static final long MS = 1_000_000L;
    static final int PID = 4242;

    @TempDir
    Path dir;

    // The attributes as vLLM wrote them, in seconds.
    static final double TTFT = 0.0869482;
    static final double QUEUE = 0.0000165;
    static final double PREFILL = 0.0761672;
    static final double DECODE = 0.0208813;

    static long ns(double seconds) {
        return Math.round(seconds * 1e9);
    }

    static Span fixtureSpan() throws Exception {
        Path file = Path.of(RealVllmRequestTest.class.getResource("/otlp/vllm-llm_request.jsonl").toURI());
        SpanImport.Result r = SpanImport.read(file);
        assertEquals(List.of(), r.errors());
        assertEquals(1, r.spans().size());
        return r.spans().getFirst();
    }

    @Test
    void theRealSpanGetsTheEnginePhasesExactlyAndItsTimeBeforeTheEngineAsAPhase() throws Exception {
        Span s = fixtureSpan();
        assertEquals(SpanKind.SERVER, s.kind());
        assertEquals("vllm.tracing.otel", s.scopeName());
        assertEquals(108_640_000L, s.endEpochNs() - s.startEpochNs());

        RequestSlice r = RequestPhases.of(s);
        assertEquals(List.of(), r.anomalies(), "a normal vLLM request is not an anomaly");
        assertEquals(ns(QUEUE), r.phase("queue").durationNs());
        assertEquals(ns(PREFILL), r.phase("prefill").durationNs());
        assertEquals(ns(DECODE), r.phase("decode").durationNs());
        long before = r.phase("before_engine").durationNs();
        assertEquals(ns(TTFT) - ns(QUEUE) - ns(PREFILL), before);
        assertTrue(before > 10_700_000 && before < 10_900_000, before + " ns: about 10.8 ms");
        // Consecutive from the arrival, and the prefill ends when the API server saw the first token.
        assertEquals(s.startEpochNs(), r.phase("before_engine").startEpochNs());
        assertEquals(r.phase("before_engine").endEpochNs(), r.phase("queue").startEpochNs());
        assertEquals(r.phase("queue").endEpochNs(), r.phase("prefill").startEpochNs());
        assertEquals(s.startEpochNs() + ns(TTFT), r.phase("prefill").endEpochNs());
        assertEquals(r.phase("prefill").endEpochNs(), r.phase("decode").startEpochNs());
        assertTrue(r.phase("decode").endEpochNs() <= s.endEpochNs());
        assertEquals(25, r.promptTokens());
        assertEquals(2, r.completionTokens());
    }

    @Test
    void theReportShowsTheTimeBeforeTheEngineAndTheGpuTimeInEachPhase() throws Exception {
        Span s = fixtureSpan();
        long t0 = s.startEpochNs();
        // One kernel in each phase but the queue (16.5 us), placed by the attributes' arithmetic.
        long[][] kernels = {{t0 + 2 * MS, t0 + 5 * MS}, {t0 + 50 * MS, t0 + 60 * MS}, {t0 + 95 * MS, t0 + 100 * MS}};
        Path file = dir.resolve("real-span.vprof");
        try (CaptureWriter w = CaptureWriter.create(file,
                new CaptureMetadata("host", t0 - 1_000 * MS, "0.1.0", List.of("vprof", "test"), Map.of()))) {
            w.process(new ProcessInfo(PID, 1, "python3 -m vllm.entrypoints.openai.api_server", 130000, 1, 1 << 20,
                    t0 - 1_000 * MS));
            RingRecords rr = new RingRecords();
            for (int i = -1; i <= 1; i++) {
                long real = t0 + i * 1_000L * MS;
                rr.clockSync(real, real, real); // CUPTI's clock reads realtime here
            }
            rr.string(1, "gemm").kernelDesc(1, 1, 0, 7);
            int corr = 1;
            for (long[] k : kernels) {
                rr.kernel(k[0], k[1], corr++, 1);
            }
            rr.writeTo(w, PID);
            w.chunk(CaptureFormat.KIND_SPANS, SpansV1.encode(List.of(s)));
        }
        Report report;
        Timeline timeline;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CaptureReader reader = CaptureReader.open(file)) {
            report = CaptureReport.build(reader, 10);
            CaptureTimeline.Result read = CaptureTimeline.stream(reader, KernelNames.demangled(), null);
            timeline = read.timeline();
            new ChromeJsonWriter().write(read.source(), out);
        }
        JsonNode j = new ObjectMapper().readTree(ReportJson.render(report));
        JsonNode req = j.at("/requests/0");
        assertEquals(ns(TTFT) - ns(QUEUE) - ns(PREFILL), req.get("before_engine_ns").asLong());
        assertEquals(ns(QUEUE), req.get("queue_ns").asLong());
        assertEquals(ns(PREFILL), req.get("prefill_ns").asLong());
        assertEquals(ns(DECODE), req.get("decode_ns").asLong());
        assertEquals(3 * MS, req.get("gpu_ns_before_engine").asLong());
        assertEquals(0, req.get("gpu_ns_in_queue").asLong());
        assertEquals(10 * MS, req.get("gpu_ns_in_prefill").asLong());
        assertEquals(5 * MS, req.get("gpu_ns_in_decode").asLong());
        assertEquals("prefill", req.get("dominant_phase").asText());
        assertEquals(0, req.get("anomalies").size(), req.toString());

        String text = TextReport.render(report);
        assertTrue(text.contains("before engine"), text);

        // The exports' request lane: the same four phases, in order, and in a sink's output.
        Request onLane = timeline.requests().getFirst();
        assertEquals(List.of("before_engine", "queue", "prefill", "decode"),
                onLane.phases().stream().map(Phase::name).toList());
        assertEquals(ns(TTFT) - ns(QUEUE) - ns(PREFILL),
                onLane.phases().getFirst().endNs() - onLane.phases().getFirst().startNs());
        JsonNode chrome = new ObjectMapper().readTree(out.toByteArray());
        List<String> phaseEvents = new ArrayList<>();
        for (JsonNode e : chrome.get("traceEvents")) {
            if ("request_phase".equals(e.path("cat").asText())) {
                phaseEvents.add(e.get("name").asText());
            }
        }
        assertEquals(List.of("before_engine", "queue", "prefill", "decode"), phaseEvents);
    }
}
