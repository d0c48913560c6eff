package dev.vprof.spanexport;

import static dev.vprof.adapt.SyntheticCapture.MS;
import static dev.vprof.adapt.SyntheticCapture.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpServer;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.cli.Cli;
import dev.vprof.cli.ExitCode;
import dev.vprof.otlp.ExportRequest;
import dev.vprof.otlp.OtlpReceiverConfig;
import dev.vprof.otlp.OtlpReceiver;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof export FILE --otlp URL} on {@link SyntheticCapture} (every GPU figure known by
 * hand: request A's prefill overlaps 300 ms of GPU busy time, and so on), decoded independently
 * with the opentelemetry-proto classes; then vprof's own receiver, a collector that refuses half,
 * one that fails once, and one that is down.
 */
class OtlpExportTest {
    @TempDir
    Path dir;

    private static Cli.Result export(Path file, String url) {
        return Cli.run("export", file.toString(), "--otlp", url);
    }

    /** A collector on 127.0.0.1: records each request, answers the n-th (from 0) with the status and body given. */
    private static HttpServer collector(List<ExportTraceServiceRequest> got, IntFunction<Object[]> answer) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger n = new AtomicInteger();
        s.createContext("/v1/traces", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            got.add(ExportTraceServiceRequest.parseFrom(body));
            Object[] a = answer.apply(n.getAndIncrement());
            byte[] reply = ((ExportTraceServiceResponse) a[1]).toByteArray();
            ex.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            ex.sendResponseHeaders((Integer) a[0], reply.length == 0 ? -1 : reply.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(reply);
            }
        });
        s.start();
        return s;
    }

    private static List<Span> spans(List<ExportTraceServiceRequest> reqs) {
        List<Span> out = new ArrayList<>();
        for (ExportTraceServiceRequest r : reqs) {
            for (ResourceSpans rs : r.getResourceSpansList()) {
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    out.addAll(ss.getSpansList());
                }
            }
        }
        return out;
    }

    private static Map<String, KeyValue> attrs(Span s) {
        return s.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, kv -> kv, (a, b) -> b));
    }

    private static String url(HttpServer s) {
        return "http://127.0.0.1:" + s.getAddress().getPort() + "/v1/traces";
    }

    @Test
    void everyRequestSpanArrivesWithItsGpuAttributesAndAChildPerPhase() throws Exception {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        List<ExportTraceServiceRequest> got = Collections.synchronizedList(new ArrayList<>());
        HttpServer s = collector(got, i -> new Object[] {200, ExportTraceServiceResponse.getDefaultInstance()});
        try {
            Cli.Result r = export(file, url(s));
            assertEquals(ExitCode.OK.code(), r.code(), r.err());
            assertTrue(r.out().contains("12 of 12 spans accepted"), r.out());
        } finally {
            s.stop(0);
        }
        List<Span> spans = spans(got);
        assertEquals(12, spans.size(), "3 requests and 3 phases each");
        Span a = spans.stream().filter(x -> x.getName().equals("llm_request")
                && attrs(x).get("gen_ai.request.id").getValue().getStringValue().equals("req-A")).findFirst().orElseThrow();
        Map<String, KeyValue> at = attrs(a);
        // the original span, ids unchanged: trace 1, span 2, parent 1 (SyntheticCapture)
        assertEquals(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 2}), a.getSpanId());
        assertEquals(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 1}), a.getParentSpanId());
        assertEquals(at(1000), a.getStartTimeUnixNano());
        long tolerance = MS / 100; // the 20 ppm clock fit over ~2 s
        assertEquals((double) (50 * MS), (double) at.get("vprof.gpu.busy_ns.queue").getValue().getIntValue(), (double) tolerance);
        assertEquals((double) (300 * MS), (double) at.get("vprof.gpu.busy_ns.prefill").getValue().getIntValue(), (double) tolerance);
        assertEquals((double) (100 * MS), (double) at.get("vprof.gpu.busy_ns.decode").getValue().getIntValue(), (double) tolerance);
        assertEquals(4, at.get("vprof.kernel_count").getValue().getIntValue()); // gemm ×3, attn in 1.0-3.0 s
        assertEquals(List.of("gemm", "attn"), at.get("vprof.top_kernels").getValue().getArrayValue().getValuesList()
                .stream().map(v -> v.getStringValue()).toList()); // 350 ms of gemm, 200 ms of attn
        assertTrue(at.containsKey("vprof.capture_id"));
        List<Span> children = spans.stream().filter(x -> x.getParentSpanId().equals(a.getSpanId())).toList();
        assertEquals(List.of("vprof.queue", "vprof.prefill", "vprof.decode"), children.stream().map(Span::getName).toList());
        long[][] phases = {{1000, 1500}, {1500, 2000}, {2000, 3000}};
        for (int i = 0; i < 3; i++) {
            assertEquals(a.getTraceId(), children.get(i).getTraceId());
            // Compared as differences: an epoch in ns as a float is only good to about two minutes.
            assertEquals(0.0, (double) (children.get(i).getStartTimeUnixNano() - at(phases[i][0])), MS / 1000, "start ns off");
            assertEquals(0.0, (double) (children.get(i).getEndTimeUnixNano() - at(phases[i][1])), MS / 1000, "end ns off");
        }
        Span b = spans.stream().filter(x -> x.getName().equals("llm_request")
                && attrs(x).get("gen_ai.request.id").getValue().getStringValue().equals("req-B")).findFirst().orElseThrow();
        assertEquals(2, attrs(b).get("vprof.kernel_count").getValue().getIntValue());
        assertEquals("gemm", attrs(b).get("vprof.top_kernels").getValue().getArrayValue().getValues(0).getStringValue());
    }

    @Test
    void vprofsOwnReceiverTakesThemOverGrpc() throws Exception {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        List<ExportRequest> got = Collections.synchronizedList(new ArrayList<>());
        try (OtlpReceiver rx = OtlpReceiver.start(new OtlpReceiverConfig(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 0), null, 1 << 20), got::add, w -> {})) {
            Cli.Result r = export(file, "grpc://127.0.0.1:" + rx.grpcAddress().getPort());
            assertEquals(ExitCode.OK.code(), r.code(), r.err());
            long spans = got.stream().mapToLong(x -> x.spans().size()).sum();
            assertEquals(12, spans);
            assertTrue(got.stream().flatMap(x -> x.spans().stream())
                    .filter(x -> x.name().equals("llm_request")).allMatch(x -> x.attribute("vprof.gpu.busy_ns.prefill") != null));
        }
    }

    @Test
    void aCollectorThatRefusesHalfIsReportedWithCountsAndNotRetried() throws Exception {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        List<ExportTraceServiceRequest> got = Collections.synchronizedList(new ArrayList<>());
        HttpServer s = collector(got, i -> new Object[] {200, ExportTraceServiceResponse.newBuilder()
                .setPartialSuccess(ExportTracePartialSuccess.newBuilder().setRejectedSpans(6)
                        .setErrorMessage("6 spans over the tenant's limit")).build()});
        try {
            Cli.Result r = export(file, url(s));
            assertEquals(ExitCode.CANNOT.code(), r.code(), r.out());
            assertTrue(r.err().contains("6 of 12 spans accepted") && r.err().contains("6 rejected")
                    && r.err().contains("over the tenant's limit"), r.err());
            assertEquals(1, got.size(), "a partial success is not retried");
        } finally {
            s.stop(0);
        }
    }

    @Test
    void aCollectorThatFailsOnceIsRetried() throws Exception {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        List<ExportTraceServiceRequest> got = Collections.synchronizedList(new ArrayList<>());
        HttpServer s = collector(got, i -> new Object[] {i == 0 ? 503 : 200, ExportTraceServiceResponse.getDefaultInstance()});
        try {
            Cli.Result r = export(file, url(s));
            assertEquals(ExitCode.OK.code(), r.code(), r.err());
            assertTrue(r.out().contains("12 of 12 spans accepted") && r.out().contains("1 retries"), r.out());
            assertEquals(2, got.size());
        } finally {
            s.stop(0);
        }
    }

    @Test
    void aCollectorThatIsDownIsReportedAndGivenUpOn() throws Exception {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        long t0 = System.nanoTime();
        Cli.Result r = export(file, "http://127.0.0.1:" + port + "/v1/traces");
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.out());
        assertTrue(r.err().contains("0 of 12 spans accepted") && r.err().contains("12 failed after retries")
                && r.err().contains("4 retries"), r.err());
        assertTrue(seconds < 30, "gave up after " + seconds + " s"); // 5 attempts, backoff 0.2+0.4+0.8+1.6 s
    }
}
