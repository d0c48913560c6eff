package dev.vprof.spanexport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.vprof.cli.Cli;
import dev.vprof.cli.ExitCode;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof run --spans FILE --otlp-export URL}: when the capture of a simulator run ends, its
 * request span reaches the collector (decoded with the opentelemetry-proto classes) with the
 * number of kernels that ran in it, which the simulator's schedule fixes: 30 steps of 40.
 */
class OtlpExportAtCaptureEndTest {
    @TempDir
    Path dir;

    @Test
    void theRequestSpansGoOutWhenTheCaptureEnds() throws Exception {
        Path sim = Path.of(System.getProperty("vprof.native.dir", "../native/target/native")).toAbsolutePath()
                .resolve("vprof-simgpu");
        Path spans = spansFile();
        List<ExportTraceServiceRequest> got = Collections.synchronizedList(new ArrayList<>());
        HttpServer s = collector(got);
        try {
            Cli.Result r = Cli.run("run", "--capture-range=cudaProfilerApi", "--spans", spans.toString(), "--otlp-export",
                    "http://127.0.0.1:" + s.getAddress().getPort() + "/v1/traces", "-o", dir.resolve("c.vprof").toString(),
                    "--", sim.toString(), "--steps", "40", "--profiler-range", "5:35");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("4 of 4 spans accepted"), r.out() + "\n" + r.err());
        } finally {
            s.stop(0);
        }
        List<Span> all = got.stream().flatMap(r -> r.getResourceSpansList().stream())
                .flatMap(rs -> rs.getScopeSpansList().stream()).flatMap(ss -> ss.getSpansList().stream()).toList();
        Span req = all.stream().filter(x -> x.getName().equals("llm_request")).findFirst().orElseThrow();
        long kernels = req.getAttributesList().stream().filter(kv -> kv.getKey().equals("vprof.kernel_count"))
                .mapToLong(kv -> kv.getValue().getIntValue()).findFirst().orElseThrow();
        assertEquals(30 * 40, kernels);
        assertEquals(3, all.stream().filter(x -> x.getParentSpanId().equals(req.getSpanId())).count());
        assertTrue(req.getAttributesList().stream().map(KeyValue::getKey).anyMatch(k -> k.equals("vprof.gpu.busy_ns.decode")));
    }

    /** {@code vprof capture} takes the same feed options, --otlp-export among them, and sends at its end too. */
    @Test
    void captureSendsTheSpansWhenItEndsToo() throws Exception {
        Path spans = spansFile();
        List<ExportTraceServiceRequest> got = Collections.synchronizedList(new ArrayList<>());
        HttpServer s = collector(got);
        try {
            Cli.Result r = Cli.run("capture", "--spans", spans.toString(), "--otlp-export",
                    "http://127.0.0.1:" + s.getAddress().getPort() + "/v1/traces", "--duration", "300ms",
                    "-o", dir.resolve("f.vprof").toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("4 of 4 spans accepted"), r.out() + "\n" + r.err());
        } finally {
            s.stop(0);
        }
        assertTrue(got.stream().flatMap(r -> r.getResourceSpansList().stream())
                .flatMap(rs -> rs.getScopeSpansList().stream()).flatMap(ss -> ss.getSpansList().stream())
                .anyMatch(x -> x.getName().equals("llm_request")));
    }

    /** One llm_request span from 10 s before now to 10 minutes after, as OTLP/JSON lines. */
    private Path spansFile() throws Exception {
        long now = System.currentTimeMillis() * 1_000_000L;
        long start = now - 10_000_000_000L, end = now + 600_000_000_000L; // around the whole run
        String line = "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"vllm\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"vllm\"},\"spans\":[{"
                + "\"traceId\":\"0af7651916cd43dd8448eb211c80319c\",\"spanId\":\"b7ad6b7169203331\","
                + "\"name\":\"llm_request\",\"kind\":2,\"startTimeUnixNano\":\"" + start + "\",\"endTimeUnixNano\":\""
                + end + "\",\"attributes\":[{\"key\":\"gen_ai.request.id\",\"value\":{\"stringValue\":\"r1\"}},"
                + "{\"key\":\"gen_ai.latency.time_in_queue\",\"value\":{\"doubleValue\":1.0}},"
                + "{\"key\":\"gen_ai.latency.time_in_model_prefill\",\"value\":{\"doubleValue\":2.0}},"
                + "{\"key\":\"gen_ai.latency.time_in_model_decode\",\"value\":{\"doubleValue\":607.0}}]}]}]}]}\n";
        return Files.writeString(dir.resolve("spans.jsonl"), line);
    }

    /** An OTLP/HTTP collector on a free loopback port that keeps what it is sent. */
    private static HttpServer collector(List<ExportTraceServiceRequest> got) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.createContext("/v1/traces", ex -> {
            got.add(ExportTraceServiceRequest.parseFrom(ex.getRequestBody().readAllBytes()));
            byte[] reply = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            ex.sendResponseHeaders(200, reply.length == 0 ? -1 : reply.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(reply);
            }
        });
        s.start();
        return s;
    }

    @Test
    void otlpExportWithoutSpansIsRefused() {
        Cli.Result r = Cli.run("run", "--otlp-export", "grpc://127.0.0.1:4317", "-o", dir.resolve("x.vprof").toString(),
                "--", "/bin/true");
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.err());
        assertTrue(r.err().contains("--otlp-export") && r.err().contains("--spans"), r.err());
    }
}
