package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every OTLP request, over either transport, is answered without a stack trace on stderr and
 * counted in exactly one outcome (an oversized gRPC message once printed grpc-java's
 * 17-line trace and was not counted).
 */
class ReceiverAccountingTest {
    private static final int MAX_BODY = 64 << 10;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private LoggedReceiver run;
    private OtlpReceiver receiver;

    @BeforeEach
    void start() throws IOException {
        run = new LoggedReceiver(MAX_BODY, r -> r.getLevel().intValue() >= Level.WARNING.intValue() || r.getThrown() != null);
        receiver = run.receiver;
    }

    @AfterEach
    void stop() {
        run.close();
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    private StatusRuntimeException grpcFails(MethodDescriptor<byte[], byte[]> method, CallOptions options,
                                                 byte[] message) {
        ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", receiver.grpcAddress().getPort())
                .usePlaintext().build();
        try {
            return assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(ch, method,
                    options.withDeadlineAfter(10, TimeUnit.SECONDS), message));
        } finally {
            ch.shutdownNow();
        }
    }

    /** gRPC's server tracer sees a stream close after the client has its status: wait for the count. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(5);
        }
    }

    private String grpcLog() {
        StringBuilder sb = new StringBuilder();
        synchronized (run.logged) {
            for (LogRecord r : run.logged) {
                if (r.getLoggerName() != null && r.getLoggerName().contains("grpc")) {
                    sb.append(r.getLoggerName()).append(": ").append(r.getMessage()).append(' ').append(r.getThrown());
                }
            }
        }
        return sb.toString();
    }

    @Test
    void anOversizedGrpcMessageIsRefusedWithoutAStackTraceAndCounted() throws Exception {
        StatusRuntimeException e = grpcFails(OtlpGrpc.EXPORT, CallOptions.DEFAULT, new byte[MAX_BODY + 1]);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        // 1 MiB of zeroes, gzip-compressed to about 1 KiB: too large only once inflated.
        StatusRuntimeException bomb = grpcFails(OtlpGrpc.EXPORT, CallOptions.DEFAULT.withCompression("gzip"),
                new byte[1 << 20]);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, bomb.getStatus().getCode(), bomb.getStatus().toString());
        await(() -> receiver.stats().tooLargeRequests() == 2, "both counted as too large: " + receiver.stats());
        assertEquals(2, receiver.stats().requests());
        assertEquals("", grpcLog(), "nothing logged by gRPC");
        assertTrue(receiver.describe().contains("2 too large (raise --otlp-max-body"), receiver.describe());
    }

    @Test
    void aCallToAnotherGrpcMethodIsCountedAsUnsupported() throws Exception {
        MethodDescriptor<byte[], byte[]> other = OtlpGrpc.EXPORT.toBuilder()
                .setFullMethodName("opentelemetry.proto.collector.metrics.v1.MetricsService/Export").build();
        assertEquals(Status.Code.UNIMPLEMENTED, grpcFails(other, CallOptions.DEFAULT, new byte[0]).getStatus().getCode());
        await(() -> receiver.stats().unsupportedRequests() == 1, "counted: " + receiver.stats());
        assertEquals(1, receiver.stats().requests());
        assertEquals("", grpcLog());
    }

    @Test
    void everyHttpRequestLandsInExactlyOneOutcome() throws Exception {
        URI traces = URI.create("http://127.0.0.1:" + receiver.httpAddress().getPort() + "/v1/traces");
        List<Integer> codes = new ArrayList<>();
        codes.add(send(HttpRequest.newBuilder(traces.resolve("/v1/metrics")).POST(HttpRequest.BodyPublishers.noBody())));
        codes.add(send(HttpRequest.newBuilder(traces).GET()));
        codes.add(send(HttpRequest.newBuilder(traces).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.noBody())));
        codes.add(send(HttpRequest.newBuilder(traces).header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {0x0a, 0x7f}))));
        codes.add(send(HttpRequest.newBuilder(traces).header("Content-Type", "application/x-protobuf")
                .header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(gzip(new byte[1 << 20])))));
        codes.add(send(HttpRequest.newBuilder(traces).header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(OtlpProtobuf.encodeRequest(TestSpans.mixed(1))))));
        assertEquals(List.of(404, 405, 415, 400, 413, 200), codes);
        ReceiverStats.Snapshot s = receiver.stats();
        assertEquals(6, s.requests(), s.toString());
        assertEquals(s.requests(), s.outcomes(), "each request in exactly one outcome: " + s);
        assertEquals(1, s.okRequests());
        assertEquals(3, s.unsupportedRequests());
        assertEquals(1, s.malformedRequests());
        assertEquals(1, s.tooLargeRequests());
    }

    private static int send(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
