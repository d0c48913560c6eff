package dev.vprof.otlp;

import static dev.vprof.otlp.TestSpans.concat;
import static dev.vprof.otlp.TestSpans.latencies;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestPhasesTest {
    static final long MS = 1_000_000;

    private static Span llmRequest(long durationMs, List<Attribute> attrs) {
        return TestSpans.span(1, 2, 1, "vllm", "llm_request", 0, durationMs * MS, attrs);
    }

    @Test
    void phasesAreLaidForwardFromTheArrivalThroughTtft() {
        Span s = llmRequest(1000, concat(List.of(Attribute.of("gen_ai.request.id", "cmpl-7")),
                latencies(0.2, 0.1, 0.6, 0.35), List.of(Attribute.of("gen_ai.latency.e2e", 0.99),
                        Attribute.of("gen_ai.usage.prompt_tokens", 100L),
                        Attribute.of("gen_ai.usage.completion_tokens", 20L))));
        RequestSlice r = RequestPhases.of(s);
        long start = s.startEpochNs();
        assertEquals("cmpl-7", r.requestId());
        assertEquals(new RequestSlice.Phase("before_engine", start, start + 50 * MS), r.phase("before_engine"));
        assertEquals(new RequestSlice.Phase("queue", start + 50 * MS, start + 250 * MS), r.phase("queue"));
        assertEquals(new RequestSlice.Phase("prefill", start + 250 * MS, start + 350 * MS), r.phase("prefill"));
        assertEquals(new RequestSlice.Phase("decode", start + 350 * MS, start + 950 * MS), r.phase("decode"));
        assertEquals(100, r.promptTokens());
        assertEquals(20, r.completionTokens());
        assertTrue(r.consistent(), r.anomalies().toString());
    }

    @Test
    void withoutTtftPhasesAreLaidBackwardsFromTheSpanEndAndTheRestIsBeforeTheEngine() {
        Span s = llmRequest(1000, latencies(0.2, 0.1, 0.6));
        RequestSlice r = RequestPhases.of(s);
        long end = s.endEpochNs();
        assertEquals(new RequestSlice.Phase("decode", end - 600 * MS, end), r.phase("decode"));
        assertEquals(new RequestSlice.Phase("prefill", end - 700 * MS, end - 600 * MS), r.phase("prefill"));
        assertEquals(new RequestSlice.Phase("queue", end - 900 * MS, end - 700 * MS), r.phase("queue"));
        assertEquals(new RequestSlice.Phase("before_engine", s.startEpochNs(), end - 900 * MS), r.phase("before_engine"));
        assertTrue(r.consistent(), r.anomalies().toString());
    }

    @Test
    void aSpanLongerThanE2eIsNormalButE2eLongerThanTheSpanIsFlagged() {
        List<Attribute> phases = latencies(0.1, 0.1, 0.1, 0.25);
        List<Attribute> shortE2e = new ArrayList<>(phases);
        shortE2e.add(Attribute.of("gen_ai.latency.e2e", 0.36));
        assertTrue(RequestPhases.of(llmRequest(400, shortE2e)).consistent());
        List<Attribute> longE2e = new ArrayList<>(phases);
        longE2e.add(Attribute.of("gen_ai.latency.e2e", 0.45));
        RequestSlice r = RequestPhases.of(llmRequest(400, longE2e));
        assertTrue(r.anomalies().stream().anyMatch(a -> a.contains("e2e 450.000 ms is longer than the span")),
                r.anomalies().toString());
    }

    @Test
    void ttftPlusDecodePastTheSpanEndMovesThePhasesIntoTheTimeBeforeTheEngine() {
        // ttft 0.35 (0.05 before the engine) + decode 0.6 = 0.95 in a 0.9 s span: 50 ms too long.
        Span s = llmRequest(900, latencies(0.2, 0.1, 0.6, 0.35));
        RequestSlice r = RequestPhases.of(s);
        assertEquals(0, r.phase("before_engine").durationNs());
        assertEquals(200 * MS, r.phase("queue").durationNs());
        assertEquals(s.endEpochNs(), r.phase("decode").endEpochNs());
        assertTrue(r.anomalies().stream().anyMatch(a -> a.contains("moved 50.000 ms earlier")), r.anomalies().toString());
    }

    @Test
    void phasesLongerThanTheSpanAreClampedToItsStartAndFlagged() {
        Span s = llmRequest(500, latencies(0.4, 0.2, 0.3));
        RequestSlice r = RequestPhases.of(s);
        assertEquals(s.startEpochNs(), r.phase("queue").startEpochNs());
        assertEquals(s.endEpochNs() - 500 * MS, r.phase("queue").startEpochNs());
        assertEquals(s.endEpochNs() - 300 * MS, r.phase("decode").startEpochNs());
        for (RequestSlice.Phase p : r.phases()) {
            assertTrue(p.startEpochNs() >= s.startEpochNs() && p.endEpochNs() <= s.endEpochNs(), p.toString());
            assertTrue(p.durationNs() >= 0, p.toString());
        }
        assertTrue(r.anomalies().stream().anyMatch(a -> a.contains("longer than the span")), r.anomalies().toString());
    }

    @Test
    void negativeAndNonNumericLatenciesBecomeZeroAndAreFlagged() {
        Span s = llmRequest(100, List.of(
                Attribute.of("gen_ai.latency.time_in_queue", -0.5),
                Attribute.of("gen_ai.latency.time_in_model_prefill", "soon"),
                Attribute.of("gen_ai.latency.time_in_model_decode", 0.05)));
        RequestSlice r = RequestPhases.of(s);
        assertEquals(0, r.phase("queue").durationNs());
        assertEquals(0, r.phase("prefill").durationNs());
        assertEquals(50 * MS, r.phase("decode").durationNs());
        assertEquals(2, r.anomalies().size(), r.anomalies().toString());
    }

    @Test
    void missingPrefillAndDecodeComeFromTtftAndE2e() {
        Span s = llmRequest(1000, List.of(
                Attribute.of("gen_ai.latency.time_in_queue", 0.25),
                Attribute.of("gen_ai.latency.time_to_first_token", 0.4),
                Attribute.of("gen_ai.latency.e2e", 1.0)));
        RequestSlice r = RequestPhases.of(s);
        assertEquals(150 * MS, r.phase("prefill").durationNs());
        assertEquals(600 * MS, r.phase("decode").durationNs());
        assertEquals(250 * MS, r.phase("queue").durationNs());
        assertFalse(r.consistent());
    }

    @Test
    void ttftLongerThanQueuePlusPrefillIsTheTimeBeforeTheEngineNotAnAnomaly() {
        Span s = llmRequest(1000, latencies(0.1, 0.1, 0.1, 0.9));
        RequestSlice r = RequestPhases.of(s);
        assertEquals(700 * MS, r.phase("before_engine").durationNs());
        assertEquals(100 * MS, r.phase("prefill").durationNs());
        assertTrue(r.consistent(), r.anomalies().toString());
    }

    @Test
    void ttftShorterThanQueuePlusPrefillIsFlaggedNotChanged() {
        RequestSlice r = RequestPhases.of(llmRequest(1000, latencies(0.3, 0.2, 0.1, 0.4)));
        assertEquals(0, r.phase("before_engine").durationNs());
        assertEquals(300 * MS, r.phase("queue").durationNs());
        assertEquals(200 * MS, r.phase("prefill").durationNs());
        assertTrue(r.anomalies().getFirst().contains("ttft 400.000 ms is shorter than queue + prefill 500.000 ms"),
                r.anomalies().toString());
    }

    @Test
    void otherServicesKeepTheirNamesAndParents() {
        List<Span> spans = TestSpans.mixed(3);
        RequestPhases.Split split = RequestPhases.split(spans);
        assertEquals(3, split.requests().size());
        List<Span> expected = new ArrayList<>(spans);
        expected.removeIf(s -> s.name().equals("llm_request"));
        assertEquals(expected, split.others());
        assertEquals("cmpl-1", split.requests().get(1).requestId());
    }

    /** What the capture reader's fuzz target found: latencies past a long's ns, and times no span has. */
    @Test
    void hostileLatenciesAndTimesGivePhasesInOrderAndFlagged() {
        Span huge = llmRequest(1000,
                concat(latencies(1e300, 1e300, 1e300, 1e300), List.of(Attribute.of("e2e", 1e300))));
        Span wide = TestSpans.span(1, 2, 1, "vllm", "llm_request", Long.MIN_VALUE + 1, Long.MAX_VALUE,
                List.of(Attribute.of("gen_ai.latency.time_in_queue", 0.5)));
        for (Span s : List.of(huge, wide)) {
            RequestSlice r = RequestPhases.of(s);
            long at = r.startEpochNs();
            for (RequestSlice.Phase p : r.phases()) {
                assertEquals(at, p.startEpochNs(), p.name());
                assertTrue(p.endEpochNs() >= p.startEpochNs() && p.endEpochNs() <= r.endEpochNs(), p.toString());
                at = p.endEpochNs();
            }
            assertFalse(r.anomalies().isEmpty(), "flagged: " + r);
        }
        assertTrue(RequestPhases.of(huge).anomalies().stream().anyMatch(a -> a.contains("longer than any request")));
    }
}
