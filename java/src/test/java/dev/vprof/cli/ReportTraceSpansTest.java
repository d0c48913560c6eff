package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof report TRACE --spans FILE}: request spans placed by wall clock on a real PyTorch
 * profiler trace (an H100's, from TraceLens's test data), each phase credited with the GPU busy time
 * of the trace's kernels inside it; the expected busy time is computed here from the JSON itself
 * (epoch ns = baseTimeNanoseconds + ts * 1000, the union of kernel intervals clipped to the phase).
 */
class ReportTraceSpansTest {
    static final Path TRACE = Path.of("../fixtures/real/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
    static final long MS = 1_000_000;

    @TempDir
    Path dir;

    /** The trace's kernels as [start, end) in epoch ns, read straight from the JSON. */
    static List<long[]> kernels() throws Exception {
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(TRACE))) {
            root = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(in);
        }
        long base = root.get("baseTimeNanoseconds").asLong();
        List<long[]> out = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText())) {
                long start = base + e.get("ts").decimalValue().multiply(BigDecimal.valueOf(1000)).longValueExact();
                long dur = e.get("dur").decimalValue().multiply(BigDecimal.valueOf(1000)).longValueExact();
                out.add(new long[] {start, start + dur});
            }
        }
        out.sort(Comparator.comparingLong(k -> k[0]));
        return out;
    }

    /** Busy ns of the union of {@code kernels} inside [a, b). */
    static long busy(List<long[]> kernels, long a, long b) {
        long total = 0;
        long coveredTo = Long.MIN_VALUE;
        for (long[] k : kernels) {
            long s = Math.max(Math.max(k[0], a), coveredTo);
            long e = Math.min(k[1], b);
            if (e > s) {
                total += e - s;
            }
            coveredTo = Math.max(coveredTo, Math.min(k[1], b));
        }
        return total;
    }

    static String attr(String key, double seconds) {
        return "{\"key\":\"" + key + "\",\"value\":{\"doubleValue\":" + seconds + "}}";
    }

    @Test
    void requestSpansOnARealTraceGetTheGpuTimeOfTheKernelsInEachPhase() throws Exception {
        List<long[]> kernels = kernels();
        assertEquals(60, kernels.size());
        long first = kernels.getFirst()[0];
        long last = kernels.stream().mapToLong(k -> k[1]).max().orElseThrow();
        // A request that arrives 1 ms before the first kernel: 0.4 ms before the engine, 0.6 ms queued,
        // prefill up to the middle of the GPU work, decode to just after its end.
        long start = first - MS;
        long middle = first + (last - first) / 2;
        long end = last + MS / 5;
        double queue = 0.0006;
        double prefill = (middle - (start + MS)) / 1e9;
        double decode = (end - middle) / 1e9;
        double ttft = (middle - start) / 1e9;
        String line = "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"vllm\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"vllm.tracing.otel\"},\"spans\":[{"
                + "\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"eee19b7ec3c1b174\",\"name\":\"llm_request\","
                + "\"kind\":2,\"startTimeUnixNano\":\"" + start + "\",\"endTimeUnixNano\":\"" + end + "\",\"attributes\":["
                + "{\"key\":\"gen_ai.request.id\",\"value\":{\"stringValue\":\"cmpl-1\"}},"
                + attr("gen_ai.latency.time_in_queue", queue) + ","
                + attr("gen_ai.latency.time_in_model_prefill", prefill) + ","
                + attr("gen_ai.latency.time_in_model_decode", decode) + ","
                + attr("gen_ai.latency.time_to_first_token", ttft) + ","
                + attr("gen_ai.latency.e2e", (end - start) / 1e9) + "]}]}]}]}\n";
        Path spans = Files.writeString(dir.resolve("spans.jsonl"), line);

        Cli.Result r = Cli.run("report", "--json", TRACE.toString(),
                "--spans", spans.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode req = new ObjectMapper().readTree(r.out()).at("/requests/0");
        assertEquals("cmpl-1", req.get("request_id").asText(), r.out());
        assertEquals(0, req.get("anomalies").size(), req.toString());
        // The phases as laid out from the attributes (rounded to ns as vprof reads seconds).
        long queueStart = start + Math.round(ttft * 1e9) - Math.round(queue * 1e9) - Math.round(prefill * 1e9);
        long prefillStart = queueStart + Math.round(queue * 1e9);
        long decodeStart = prefillStart + Math.round(prefill * 1e9);
        long decodeEnd = decodeStart + Math.round(decode * 1e9);
        assertEquals(queueStart - start, req.get("before_engine_ns").asLong());
        assertEquals(busy(kernels, start, queueStart), req.get("gpu_ns_before_engine").asLong());
        assertEquals(busy(kernels, queueStart, prefillStart), req.get("gpu_ns_in_queue").asLong());
        assertEquals(busy(kernels, prefillStart, decodeStart), req.get("gpu_ns_in_prefill").asLong());
        assertEquals(busy(kernels, decodeStart, decodeEnd), req.get("gpu_ns_in_decode").asLong());
        assertTrue(req.get("gpu_ns_in_prefill").asLong() > 0 && req.get("gpu_ns_in_decode").asLong() > 0, req.toString());
        assertEquals(busy(kernels, start, end), req.get("gpu_ns_in_prefill").asLong() + req.get("gpu_ns_in_decode").asLong(),
                "every kernel lies in prefill or decode");
    }

    @Test
    void aSpansFileThatIsNotSpansIsOneSentence() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"nothing\": 1}");
        Cli.Result r = Cli.run("report", TRACE.toString(), "--spans", bad.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("vprof: --spans"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(!r.err().contains("\tat "), r.err());
    }
}
