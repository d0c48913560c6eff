package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.vprof.capture.SpansCodec;
import dev.vprof.capture.SpansV1;
import dev.vprof.wire.WireWriter;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The receivers end to end on 127.0.0.1 with ephemeral ports. */
class OtlpReceiverTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final List<Span> received = Collections.synchronizedList(new ArrayList<>());
    private final List<ExportRequest> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private OtlpReceiver receiver;

    @BeforeEach
    void start() throws IOException {
        receiver = start(config(null, 64 << 10), r -> {
            requests.add(r);
            received.addAll(r.spans());
        });
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose.reversed()) {
            c.close();
        }
    }

    private OtlpReceiver start(OtlpReceiverConfig config, java.util.function.Consumer<ExportRequest> sink) throws IOException {
        OtlpReceiver r = OtlpReceiver.start(config, sink, w -> {});
        toClose.add(r);
        return r;
    }

    private static OtlpReceiverConfig config(ForwardTarget forward, long maxBody) {
        return new OtlpReceiverConfig(new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0),
                forward, maxBody);
    }

    private static URI tracesUri(OtlpReceiver r) {
        return URI.create("http://127.0.0.1:" + r.httpAddress().getPort() + "/v1/traces");
    }

    private HttpResponse<byte[]> post(String contentType, String encoding, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(tracesUri(receiver)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (encoding != null) {
            b.header("Content-Encoding", encoding);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private byte[] grpcExport(InetSocketAddress address, byte[] message) {
        ManagedChannel ch = NettyChannelBuilder.forAddress(address.getHostString(), address.getPort()).usePlaintext().build();
        try {
            return ClientCalls.blockingUnaryCall(ch, OtlpGrpc.EXPORT,
                    CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), message);
        } finally {
            ch.shutdownNow();
        }
    }

    @Test
    void theCaptureGetsEachRequestsBodyAsReceivedWithItsEncoding() throws Exception {
        byte[] proto = OtlpProtobuf.encodeRequest(TestSpans.mixed(3));
        byte[] json = OtlpJson.encodeRequest(TestSpans.mixed(2));
        grpcExport(receiver.grpcAddress(), proto);
        assertEquals(200, post("application/x-protobuf", "gzip", gzip(proto)).statusCode());
        assertEquals(200, post("application/json", null, json).statusCode());
        assertEquals(3, requests.size());
        List<ExportRequest> byArrival = List.copyOf(requests);
        assertEquals(ExportRequest.Encoding.PROTOBUF, byArrival.get(0).encoding());
        assertArrayEquals(proto, byArrival.get(0).body(), "gRPC: the message");
        assertEquals(ExportRequest.Encoding.PROTOBUF, byArrival.get(1).encoding());
        assertArrayEquals(proto, byArrival.get(1).body(), "HTTP: the body with its gzip undone");
        assertEquals(ExportRequest.Encoding.JSON, byArrival.get(2).encoding());
        assertArrayEquals(json, byArrival.get(2).body());
        for (ExportRequest r : byArrival) {
            assertEquals(r.spans(), ExportRequest.decode(r.encoding(), r.body()).spans(), "the body decodes to its spans");
        }
    }

    @Test
    void sameSpansOverGrpcHttpProtobufAndHttpJsonArriveIdentical() throws Exception {
        List<Span> spans = TestSpans.mixed(10);

        grpcExport(receiver.grpcAddress(), OtlpProtobuf.encodeRequest(spans));
        List<Span> viaGrpc = drain();
        assertEquals(200, post("application/x-protobuf", null, OtlpProtobuf.encodeRequest(spans)).statusCode());
        List<Span> viaProto = drain();
        HttpResponse<byte[]> json = post("application/json", null, OtlpJson.encodeRequest(spans));
        assertEquals(200, json.statusCode());
        assertEquals("application/json", json.headers().firstValue("Content-Type").orElse(""));
        List<Span> viaJson = drain();

        assertEquals(TestSpans.sorted(spans), TestSpans.sorted(viaGrpc));
        assertEquals(viaGrpc, viaProto);
        assertEquals(viaGrpc, viaJson);
        // ...and the capture's own encoding keeps them identical.
        assertEquals(viaGrpc, SpansCodec.decode(SpansV1.encode(viaGrpc)));
        assertEquals(3, receiver.stats().requests());
        assertEquals(30L * 3, receiver.stats().spansAccepted());
    }

    private List<Span> drain() {
        synchronized (received) {
            List<Span> out = new ArrayList<>(received);
            received.clear();
            return out;
        }
    }

    @Test
    void gzipAndChunkedBodiesAreAccepted() throws Exception {
        List<Span> spans = TestSpans.mixed(3);
        assertEquals(200, post("application/x-protobuf", "gzip", gzip(OtlpProtobuf.encodeRequest(spans))).statusCode());
        assertEquals(TestSpans.sorted(spans), TestSpans.sorted(drain()));

        // Chunked transfer encoding: no Content-Length, as streaming exporters send.
        HttpURLConnection c = (HttpURLConnection) tracesUri(receiver).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setChunkedStreamingMode(100);
        c.setRequestProperty("Content-Type", "application/json; charset=utf-8");
        c.setRequestProperty("Content-Encoding", "gzip");
        try (OutputStream out = c.getOutputStream()) {
            out.write(gzip(OtlpJson.encodeRequest(spans)));
        }
        assertEquals(200, c.getResponseCode());
        c.getInputStream().readAllBytes();
        assertEquals(TestSpans.sorted(spans), TestSpans.sorted(drain()));
    }

    @Test
    void malformedBodyIs400WithAMessage() throws Exception {
        HttpResponse<byte[]> r = post("application/x-protobuf", null, new byte[] {0x0a, 0x7f, 0x01});
        assertEquals(400, r.statusCode());
        String msg = OtlpProtobuf.decodeRpcStatusMessage(r.body());
        assertTrue(msg.contains("cannot decode OTLP protobuf body") && msg.contains("runs past the end"), msg);

        HttpResponse<byte[]> j = post("application/json", null, "{\"resourceSpans\": [".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, j.statusCode());
        assertTrue(new String(j.body(), StandardCharsets.UTF_8).contains("malformed JSON"), new String(j.body(), StandardCharsets.UTF_8));

        HttpResponse<byte[]> z = post("application/json", "gzip", "not gzip".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, z.statusCode());
        assertTrue(received.isEmpty());
        assertEquals(3, receiver.stats().malformedRequests());
    }

    @Test
    void oversizedBodyIs413AndSoIsAGzipBomb() throws Exception {
        HttpResponse<byte[]> r = post("application/x-protobuf", null, new byte[(64 << 10) + 1]);
        assertEquals(413, r.statusCode());
        assertTrue(OtlpProtobuf.decodeRpcStatusMessage(r.body()).contains("exceeds the limit of 65536 bytes"));

        // 1 MiB of zeroes compresses to about 1 KiB: small on the wire, too large once inflated.
        HttpResponse<byte[]> bomb = post("application/x-protobuf", "gzip", gzip(new byte[1 << 20]));
        assertEquals(413, bomb.statusCode());
        assertTrue(OtlpProtobuf.decodeRpcStatusMessage(bomb.body()).contains("decompressed"));
        assertEquals(2, receiver.stats().tooLargeRequests());
    }

    @Test
    void otherContentTypesMethodsAndPathsAreRefused() throws Exception {
        assertEquals(415, post("text/plain", null, new byte[0]).statusCode());
        assertEquals(415, post("application/json", "br", new byte[0]).statusCode());
        HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(tracesUri(receiver)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, get.statusCode());
        HttpResponse<String> other = HTTP.send(HttpRequest.newBuilder(tracesUri(receiver).resolve("/v1/metrics"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, other.statusCode());
    }

    @Test
    void badSpansGetPartialSuccessOverHttpAndGrpcAndGoodOnesAreKept() throws Exception {
        List<Span> good = TestSpans.mixed(1);
        String badJson = "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"00\",\"spanId\":\"01\"}]}]}]}";
        byte[] body = OtlpProtobufTest.concat(OtlpJson.encodeRequest(good), new byte[0]);
        // Merge a bad span into a good JSON request by decoding both and sending the union as
        // two resourceSpans entries.
        String goodJson = new String(body, StandardCharsets.UTF_8);
        String merged = goodJson.substring(0, goodJson.length() - 2) + ","
                + badJson.substring("{\"resourceSpans\":[".length());
        HttpResponse<byte[]> r = post("application/json", null, merged.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode());
        OtlpProtobuf.PartialSuccess ps = OtlpJson.decodeResponse(r.body());
        assertEquals(1, ps.rejectedSpans());
        assertTrue(ps.errorMessage().contains("trace id must be 16 bytes"), ps.errorMessage());
        assertEquals(TestSpans.sorted(good), TestSpans.sorted(drain()));

        WireWriter w = new WireWriter();
        int rs = w.beginMessage(1);
        int ss = w.beginMessage(2);
        int sp = w.beginMessage(2);
        w.bytes(1, TestSpans.traceId(1));
        w.bytes(2, new byte[3]);
        w.endMessage(sp);
        w.endMessage(ss);
        w.endMessage(rs);
        byte[] resp = grpcExport(receiver.grpcAddress(), OtlpProtobufTest.concat(OtlpProtobuf.encodeRequest(good), w.toByteArray()));
        OtlpProtobuf.PartialSuccess g = OtlpProtobuf.decodeResponse(resp);
        assertEquals(1, g.rejectedSpans());
        assertTrue(g.errorMessage().contains("span id must be 8 bytes"), g.errorMessage());
        assertEquals(TestSpans.sorted(good), TestSpans.sorted(drain()));
    }

    @Test
    void grpcTakesGzipMessagesAndRefusesOversizedOnes() {
        List<Span> spans = TestSpans.mixed(2);
        ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", receiver.grpcAddress().getPort()).usePlaintext().build();
        try {
            ClientCalls.blockingUnaryCall(ch, OtlpGrpc.EXPORT,
                    CallOptions.DEFAULT.withCompression("gzip").withDeadlineAfter(10, TimeUnit.SECONDS),
                    OtlpProtobuf.encodeRequest(spans));
        } finally {
            ch.shutdownNow();
        }
        assertEquals(TestSpans.sorted(spans), TestSpans.sorted(drain()));
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> grpcExport(receiver.grpcAddress(), new byte[(64 << 10) + 1]));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    }

    @Test
    void malformedGrpcMessageIsInvalidArgument() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> grpcExport(receiver.grpcAddress(), new byte[] {0x0a, 0x05}));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("runs past the end"), e.getStatus().getDescription());
    }

    @Test
    void aFailingSinkAnswersUnavailableSoTheSenderRetries() throws Exception {
        OtlpReceiver failing = start(config(null, 1 << 20), spans -> {
            throw new IllegalStateException("capture closed");
        });
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(tracesUri(failing))
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(OtlpProtobuf.encodeRequest(TestSpans.mixed(1)))).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(503, r.statusCode());
        assertTrue(OtlpProtobuf.decodeRpcStatusMessage(r.body()).contains("capture closed"));
    }

    @Test
    void httpRequestsAreForwardedByteForByteWithTheirHeaders() throws Exception {
        LinkedBlockingQueue<List<Object>> got = new LinkedBlockingQueue<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/traces", ex -> {
            try (ex; InputStream in = ex.getRequestBody()) {
                got.add(List.of(in.readAllBytes(), String.valueOf(ex.getRequestHeaders().getFirst("Content-Type")),
                        String.valueOf(ex.getRequestHeaders().getFirst("Content-Encoding"))));
                ex.sendResponseHeaders(200, -1);
            }
        });
        collector.start();
        toClose.add(() -> collector.stop(0));
        OtlpReceiver forwarding = start(config(ForwardTarget.parse("http://127.0.0.1:" + collector.getAddress().getPort()),
                1 << 20), req -> received.addAll(req.spans()));

        byte[] gz = gzip(OtlpProtobuf.encodeRequest(TestSpans.mixed(2)));
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(tracesUri(forwarding))
                .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(gz)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        List<Object> first = got.poll(10, TimeUnit.SECONDS);
        assertNotNull(first, "the collector got nothing");
        assertArrayEquals(gz, (byte[]) first.get(0));
        assertEquals("application/x-protobuf", first.get(1));
        assertEquals("gzip", first.get(2));

        // A gRPC request to the same receiver reaches the HTTP collector as the same protobuf message.
        byte[] message = OtlpProtobuf.encodeRequest(TestSpans.mixed(1));
        grpcExport(forwarding.grpcAddress(), message);
        List<Object> second = got.poll(10, TimeUnit.SECONDS);
        assertNotNull(second);
        assertArrayEquals(message, (byte[]) second.get(0));
        assertEquals("application/x-protobuf", second.get(1));
        forwarding.close(); // waits for the sender thread, so the counters are final
        assertEquals(2, forwarding.forwardStats().forwarded());
    }

    @Test
    void grpcRequestsAreForwardedByteForByteToASecondReceiver() throws Exception {
        // The second receiver: a vprof receiver behind a tap that keeps the raw messages.
        LinkedBlockingQueue<byte[]> raw = new LinkedBlockingQueue<>();
        List<Span> secondSpans = Collections.synchronizedList(new ArrayList<>());
        OtlpReceiver second = start(config(null, 1 << 20), req -> secondSpans.addAll(req.spans()));
        ServerCalls.UnaryMethod<byte[], byte[]> tap = (req, resp) -> {
            byte[] answer = grpcExport(second.grpcAddress(), req);
            raw.add(req); // after the second receiver has the spans
            resp.onNext(answer);
            resp.onCompleted();
        };
        Server tapServer = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerServiceDefinition.builder(OtlpGrpc.SERVICE)
                        .addMethod(OtlpGrpc.EXPORT, ServerCalls.asyncUnaryCall(tap)).build())
                .build().start();
        toClose.add(tapServer::shutdownNow);

        OtlpReceiver first = start(config(ForwardTarget.parse("grpc://127.0.0.1:" + tapServer.getPort()), 1 << 20),
                req -> received.addAll(req.spans()));
        List<Span> spans = TestSpans.mixed(4);
        byte[] message = OtlpProtobuf.encodeRequest(spans);
        grpcExport(first.grpcAddress(), message);
        assertArrayEquals(message, raw.poll(10, TimeUnit.SECONDS));

        // An HTTP protobuf request forwarded to a gRPC collector: its (decompressed) message, unchanged.
        byte[] message2 = OtlpProtobuf.encodeRequest(TestSpans.mixed(2));
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(tracesUri(first))
                .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(gzip(message2))).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertArrayEquals(message2, raw.poll(10, TimeUnit.SECONDS));
        // Both receivers saw the same spans.
        assertEquals(12 + 6, secondSpans.size());
        assertTrue(TestSpans.sorted(received).equals(TestSpans.sorted(secondSpans)), "the two receivers differ");
    }

    @Test
    void aDeadCollectorIsCountedAndNeverFailsTheReceiver() throws Exception {
        int deadPort;
        try (var s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            deadPort = s.getLocalPort();
        }
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        OtlpReceiver r = OtlpReceiver.start(config(ForwardTarget.parse("http://127.0.0.1:" + deadPort), 1 << 20),
                req -> received.addAll(req.spans()), warnings::add);
        toClose.add(r);
        HttpResponse<byte[]> resp = HTTP.send(HttpRequest.newBuilder(tracesUri(r))
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(OtlpProtobuf.encodeRequest(TestSpans.mixed(1)))).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, resp.statusCode());
        assertEquals(3, received.size());
        r.close(); // drains the queue: the one send has been tried and has failed
        assertEquals(1, r.forwardStats().failed());
        assertTrue(r.describe().contains("1 failed"), r.describe());
        assertEquals(1, warnings.size(), warnings.toString());
    }

    @Test
    void aBusyPortIsAClearError() throws Exception {
        IOException e = assertThrows(IOException.class, () -> OtlpReceiver.start(new OtlpReceiverConfig(null,
                receiver.httpAddress(), null, 1024), s -> {}, null));
        assertTrue(e.getMessage().contains("--otlp-http"), e.getMessage());
    }

    static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        }
        return out.toByteArray();
    }
}
