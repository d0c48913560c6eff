package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the OpenTelemetry JavaScript SDK's own exporters sent (recorded by
 * src/test/otlp-record/record.sh into resources/otlp/sdk), replayed into vprof's receivers byte for
 * byte: HTTP JSON and HTTP protobuf with chunked bodies, plain and gzip, and gRPC plain and gzip.
 * The spans must come out as the SDK held them (spans.json), not as vprof's own encoder would
 * have written them.
 */
class OtlpSdkFixtureTest {
    private static final String DIR = "/otlp/sdk/";

    private final List<Span> received = Collections.synchronizedList(new ArrayList<>());
    private OtlpReceiver receiver;

    @BeforeEach
    void start() throws IOException {
        receiver = OtlpReceiver.start(new OtlpReceiverConfig(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 0), null, OtlpReceiverConfig.DEFAULT_MAX_BODY_BYTES), r -> received.addAll(r.spans()),
                w -> { });
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = OtlpSdkFixtureTest.class.getResourceAsStream(DIR + name)) {
            assertTrue(in != null, "fixture " + name + " (re-record with src/test/otlp-record/record.sh)");
            return in.readAllBytes();
        }
    }

    // ---- the oracle: the spans as the SDK held them ----

    private static List<Span> expectedSpans() throws IOException {
        JsonNode root = new ObjectMapper().readTree(fixture("spans.json"));
        List<Span> out = new ArrayList<>();
        HexFormat hex = HexFormat.of();
        for (JsonNode s : root.get("spans")) {
            List<Attribute> attrs = new ArrayList<>();
            for (JsonNode a : s.get("attributes")) {
                attrs.add(new Attribute(a.get("key").asText(), value(a)));
            }
            String parent = s.get("parent_span_id").asText();
            out.add(new Span(hex.parseHex(s.get("trace_id").asText()), hex.parseHex(s.get("span_id").asText()),
                    parent.isEmpty() ? new byte[0] : hex.parseHex(parent), s.get("name").asText(),
                    SpanKind.of(s.get("kind").asInt()), Long.parseLong(s.get("start_time_unix_nano").asText()),
                    Long.parseLong(s.get("end_time_unix_nano").asText()), attrs, StatusCode.of(s.get("status_code").asInt()),
                    s.get("status_message").asText(), s.get("service_name").asText(), s.get("scope_name").asText(),
                    s.get("scope_version").asText()));
        }
        assertTrue(out.size() >= 10, "the recording holds the spans record.mjs makes");
        return sorted(out);
    }

    private static AnyValue value(JsonNode a) {
        JsonNode v = a.get("value");
        return switch (a.get("type").asText()) {
            case "string" -> new AnyValue.StringValue(v.asText());
            case "bool" -> new AnyValue.BoolValue(v.asBoolean());
            case "int" -> new AnyValue.LongValue(Long.parseLong(v.asText()));
            case "double" -> new AnyValue.DoubleValue(v.asDouble());
            case "array" -> {
                List<AnyValue> values = new ArrayList<>();
                v.forEach(x -> values.add(value(x)));
                yield new AnyValue.ArrayValue(values);
            }
            default -> throw new IllegalArgumentException("attribute type " + a.get("type"));
        };
    }

    private static List<Span> sorted(List<Span> spans) {
        return spans.stream().sorted(Comparator.comparing(Span::spanIdHex)).toList();
    }

    private static void assertSameSpans(List<Span> want, List<Span> got, String where) {
        assertEquals(want.size(), got.size(), where + ": spans");
        for (int i = 0; i < want.size(); i++) {
            assertEquals(want.get(i), got.get(i), where + ", span " + want.get(i).spanIdHex());
        }
    }

    // ---- HTTP: the raw request as the SDK wrote it ----

    /** The head of a raw HTTP/1.1 request, lower-cased, and where its body starts. */
    private record Raw(String head, byte[] bytes, int bodyStart) {
        static Raw of(byte[] bytes) {
            String s = new String(bytes, StandardCharsets.ISO_8859_1);
            int end = s.indexOf("\r\n\r\n");
            return new Raw(s.substring(0, end).toLowerCase(Locale.ROOT), bytes, end + 4);
        }

        boolean has(String header) {
            return head.contains("\r\n" + header);
        }

        /** The body with its chunk framing taken off (and inflated when gzip), for decoding without a server. */
        byte[] body() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int p = bodyStart;
            while (true) {
                int eol = indexOfCrlf(p);
                int size = Integer.parseInt(new String(bytes, p, eol - p, StandardCharsets.ISO_8859_1).trim(), 16);
                p = eol + 2;
                if (size == 0) {
                    break;
                }
                out.write(bytes, p, size);
                p += size + 2;
            }
            byte[] b = out.toByteArray();
            return has("content-encoding: gzip") ? new GZIPInputStream(new java.io.ByteArrayInputStream(b)).readAllBytes() : b;
        }

        private int indexOfCrlf(int from) {
            for (int i = from; i + 1 < bytes.length; i++) {
                if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                    return i;
                }
            }
            throw new IllegalStateException("no chunk size line");
        }
    }

    /** Sends the recorded bytes to the receiver as they are and returns its status line. */
    private String replay(byte[] request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", receiver.httpAddress().getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0 && c != '\n') {
                line.append((char) c);
            }
            return line.toString().strip();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http-json", "http-json-gzip", "http-proto", "http-proto-gzip"})
    void theSdksHttpExportersChunkedBodiesArriveAsTheSdkHeldTheSpans(String name) throws Exception {
        byte[] request = fixture(name + ".http");
        Raw raw = Raw.of(request);
        assertTrue(raw.has("transfer-encoding: chunked"), name + " is a chunked body, as the SDK streams it");
        assertEquals(name.endsWith("gzip"), raw.has("content-encoding: gzip"), name);
        List<Span> want = expectedSpans();

        byte[] body = raw.body();
        DecodedBatch direct = name.startsWith("http-json") ? OtlpJson.decodeRequest(body) : OtlpProtobuf.decodeRequest(body);
        assertEquals(0, direct.rejected(), direct.errorMessage());
        assertSameSpans(want, sorted(direct.spans()), name + " decoded");

        assertEquals("HTTP/1.1 200 OK", replay(request), name);
        assertSameSpans(want, sorted(List.copyOf(received)), name + " through the receiver");
        assertEquals(1, receiver.stats().okRequests());
    }

    // ---- gRPC: the message as the SDK sent it, plain and compressed ----

    @ParameterizedTest
    @ValueSource(strings = {"grpc", "grpc-gzip"})
    void theSdksGrpcExportArrivesAsTheSdkHeldTheSpans(String name) throws Exception {
        JsonNode meta = new ObjectMapper().readTree(fixture(name + ".json"));
        assertEquals("/" + OtlpGrpc.EXPORT.getFullMethodName(), meta.get("path").asText());
        byte[] message = fixture(name + ".bin");
        List<Span> want = expectedSpans();
        assertSameSpans(want, sorted(OtlpProtobuf.decodeRequest(message).spans()), name + " decoded");

        boolean gzip = meta.get("compressed_on_the_wire").asBoolean();
        assertEquals(name.endsWith("gzip"), gzip, name);
        ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", receiver.grpcAddress().getPort())
                .usePlaintext().build();
        try {
            CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
            byte[] reply = ClientCalls.blockingUnaryCall(ch, OtlpGrpc.EXPORT,
                    gzip ? options.withCompression("gzip") : options, message);
            assertEquals(0, reply.length, "a full success: an empty response");
        } finally {
            ch.shutdownNow();
        }
        assertSameSpans(want, sorted(List.copyOf(received)), name + " through the receiver");
    }
}
