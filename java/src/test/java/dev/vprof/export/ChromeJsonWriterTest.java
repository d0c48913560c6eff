package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.Timeline;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class ChromeJsonWriterTest {

    static JsonNode write(ListTimeline t) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeJsonWriter.Stats stats = new ChromeJsonWriter().write(t, out);
        assertEquals(out.size(), stats.bytes());
        // Keep decimals exact so the nanosecond round trip is checked, not a double's rounding.
        return new ObjectMapper().enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .readTree(out.toByteArray());
    }

    static List<JsonNode> events(JsonNode root, Predicate<JsonNode> p) {
        List<JsonNode> out = new ArrayList<>();
        root.get("traceEvents").forEach(e -> {
            if (p.test(e)) {
                out.add(e);
            }
        });
        return out;
    }

    static long ns(JsonNode micros) {
        return micros.decimalValue().movePointRight(3).longValueExact();
    }

    @Test
    void kernelsBecomeCompleteEventsWithExactTimesRelativeToTheBase() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        long base = Long.parseLong(root.get("otherData").get("vprof_base_time_ns").asText());
        assertEquals(SampleTimelines.T0, base);
        List<JsonNode> kernels = events(root, e -> "kernel".equals(e.path("cat").asText()));
        assertEquals(3, kernels.size());
        JsonNode gemm = kernels.getFirst();
        assertEquals("X", gemm.get("ph").asText());
        assertEquals("sm90_xmma_gemm_bf16 \"quoted\"\\path", gemm.get("name").asText(), "quotes and backslashes escaped");
        assertEquals(SampleTimelines.T0 + 1_000, base + ns(gemm.get("ts")));
        assertEquals(4_000, ns(gemm.get("dur")));
        assertEquals(0, new BigDecimal("1.000").compareTo(gemm.get("ts").decimalValue()));
        assertEquals(101, gemm.get("args").get("correlation").asLong());
        assertEquals("[132,1,1]", gemm.get("args").get("grid").toString());
    }

    @Test
    void timesAreWrittenAsMicrosecondsWithThreeExactDecimals() throws IOException {
        ListTimeline t = new ListTimeline();
        t.kernel(t.process(1).device(0).stream(1), t.intern("k"), 1_000_000_000_000_000_000L, 1_000_000_000_000_001_234L, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        t.kernel(t.process(1).device(0).stream(1), t.intern("k"), 1_000_000_000_000_002_005L, 1_000_000_000_000_002_006L, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ChromeJsonWriter().write(t, out);
        String text = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("\"ts\":0.000,\"dur\":1.234"), text);
        assertTrue(text.contains("\"ts\":2.005,\"dur\":0.001"), text);
    }

    @Test
    void metadataNamesProcessesThreadsAndGpuStreams() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        List<String> names = events(root, e -> "M".equals(e.get("ph").asText()) && e.get("name").asText().endsWith("_name"))
                .stream().map(e -> e.get("args").get("name").asText()).toList();
        assertTrue(names.containsAll(List.of("vllm-worker", "GPU 0 stream 7", "GPU 0 stream 13", "MainThread",
                "Capture ranges", "Requests", "Spans: router", "Metrics")), names.toString());
        assertFalse(events(root, e -> "process_sort_index".equals(e.get("name").asText())).isEmpty());
    }

    @Test
    void flowsRunFromLaunchCallToKernelAndBindToTheKernel() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        List<JsonNode> starts = events(root, e -> "s".equals(e.get("ph").asText()));
        List<JsonNode> ends = events(root, e -> "f".equals(e.get("ph").asText()));
        assertEquals(4, starts.size());
        assertEquals(4, ends.size());
        assertEquals(starts.getFirst().get("id"), ends.getFirst().get("id"));
        assertEquals("e", ends.getFirst().get("bp").asText());
        assertEquals(4242, starts.getFirst().get("tid").asLong());
    }

    @Test
    void countersSkipValuesJsonCannotHold() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        List<JsonNode> p99 = events(root, e -> "C".equals(e.get("ph").asText())
                && e.get("name").asText().startsWith("vllm:time_to_first_token_seconds p99"));
        assertEquals(1, p99.size());
        assertEquals(0.25, p99.getFirst().get("args").get("value").asDouble());
    }

    @Test
    void overlappingRequestsLandOnDifferentLanesWithTheirPhases() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        List<JsonNode> requests = events(root, e -> "request".equals(e.path("cat").asText()));
        assertEquals(List.of(1L, 2L, 1L), requests.stream().map(e -> e.get("tid").asLong()).toList());
        assertEquals(9, events(root, e -> "request_phase".equals(e.path("cat").asText())).size());
        assertEquals("req-b", requests.get(1).get("args").get("gen_ai.request.id").asText());
    }

    @Test
    void controlCharactersAndNonAsciiNamesStayValidJson() throws IOException {
        ListTimeline t = new ListTimeline();
        String odd = "tab\there\nnew\u0001ctl \u00e9\u4e2d \ud83d\ude80 lone\ud800";
        t.kernel(t.process(1).device(0).stream(1), t.intern(odd), 10, 20, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        JsonNode root = write(t);
        JsonNode k = events(root, e -> "kernel".equals(e.path("cat").asText())).getFirst();
        assertEquals("tab\there\nnew\u0001ctl \u00e9\u4e2d \ud83d\ude80 lone\ufffd", k.get("name").asText());
    }
}
