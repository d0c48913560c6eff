package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.testing.NotGzip;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.CompressorRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogRecord;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The receivers under abuse: each malformed request gets its answer at once (a 400 or a gRPC
 * status with the reason), idle and slow clients never delay a valid exporter, and nothing is
 * logged with a stack trace (every JUL record, which is where grpc-java and Netty print, is
 * captured and must carry no exception).
 */
@Timeout(120)
class ReceiverAbuseTest {
    private static final int MAX_BODY = 64 << 10;
    /** "At once": well under the 10-40 s a client waited before; the read timeout where the bytes cannot say it sooner. */
    private static final long AT_ONCE_MS = 1000;
    private static final long AFTER_READ_TIMEOUT_MS = HttpConnections.READ_TIMEOUT.toMillis() + 1500;

    private LoggedReceiver run;
    private OtlpReceiver receiver;
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        run = new LoggedReceiver(MAX_BODY, r -> true);
        receiver = run.receiver;
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        run.close();
        List<String> traces = new ArrayList<>();
        synchronized (run.logged) {
            for (LogRecord r : run.logged) {
                if (r.getThrown() != null) {
                    traces.add(r.getLoggerName() + ": " + r.getMessage() + " " + r.getThrown());
                }
            }
        }
        assertEquals(List.of(), traces, "nothing logged with a stack trace");
    }

    private Socket connect(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        sockets.add(s);
        return s;
    }

    /** What came back: the bytes up to the connection's end (or 8 s), and how long the first one took. */
    private record Answer(String text, long firstByteMs, boolean closed) {
        String statusLine() {
            int eol = text.indexOf("\r\n");
            return eol < 0 ? text : text.substring(0, eol);
        }
    }

    private static Answer readAnswer(Socket s, long t0) throws IOException {
        s.setSoTimeout(8000);
        InputStream in = s.getInputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long first = -1;
        boolean closed = false;
        byte[] buf = new byte[4096];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                if (first < 0) {
                    first = (System.nanoTime() - t0) / 1_000_000;
                }
                out.write(buf, 0, n);
            }
            closed = true;
        } catch (SocketTimeoutException e) {
            // the answer ended without a close: what came is the answer
        }
        return new Answer(out.toString(StandardCharsets.ISO_8859_1), first, closed);
    }

    private Answer send(int port, byte[] bytes, boolean halfClose) throws IOException {
        Socket s = connect(port);
        long t0 = System.nanoTime();
        s.getOutputStream().write(bytes);
        s.getOutputStream().flush();
        if (halfClose) {
            s.shutdownOutput();
        }
        return readAnswer(s, t0);
    }

    private static final String HEAD = "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n";

    static Stream<Arguments> malformedHttp() {
        return Stream.of(
                Arguments.of("a body shorter than its Content-Length, then the client waits",
                        HEAD + "Content-Length: 100\r\n\r\nabc", false, 400, "3 of the 100 bytes", AFTER_READ_TIMEOUT_MS),
                Arguments.of("a body shorter than its Content-Length, then the client closes its side",
                        HEAD + "Content-Length: 100\r\n\r\nabc", true, 400, "ended after 3 of the 100 bytes", AT_ONCE_MS),
                Arguments.of("headers only: the body never comes",
                        HEAD + "Content-Length: 10\r\n\r\n", false, 400, "0 of the 10 bytes", AFTER_READ_TIMEOUT_MS),
                Arguments.of("headers that never end", HEAD, false, 400, "nothing more came", AFTER_READ_TIMEOUT_MS),
                Arguments.of("bytes that are not HTTP", "\u0000\u0001\u0002\u0003\r\n\r\n", false, 400,
                        "not an HTTP request", AT_ONCE_MS),
                Arguments.of("a TLS ClientHello to the plain port", "\u0016\u0003\u0001\u0002\u0000\u0001", false, 400,
                        "byte 0x16", AT_ONCE_MS),
                Arguments.of("printable bytes with no line end", "hello there", false, 400, "did not end",
                        AFTER_READ_TIMEOUT_MS),
                Arguments.of("a request line of one word", "HELLO\r\n\r\n", false, 400, "is not METHOD PATH HTTP/1.1",
                        AT_ONCE_MS),
                Arguments.of("gRPC's HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", false, 505, "--otlp-grpc",
                        AT_ONCE_MS),
                Arguments.of("a Content-Length that is not a number", HEAD + "Content-Length: ten\r\n\r\n", false, 400,
                        "is not a number of bytes", AT_ONCE_MS),
                Arguments.of("a negative Content-Length", HEAD + "Content-Length: -5\r\n\r\n", false, 400,
                        "is not a number of bytes", AT_ONCE_MS),
                Arguments.of("both Content-Length and chunked",
                        HEAD + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc", false, 400,
                        "both Transfer-Encoding and Content-Length", AT_ONCE_MS),
                Arguments.of("a chunk size that is not hexadecimal",
                        HEAD + "Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", false, 400,
                        "is not a hexadecimal number", AT_ONCE_MS),
                Arguments.of("a chunk longer than its size", HEAD + "Transfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
                        false, 400, "longer than its size", AT_ONCE_MS),
                Arguments.of("a Transfer-Encoding other than chunked", HEAD + "Transfer-Encoding: gzip\r\n\r\n", false, 501,
                        "unsupported Transfer-Encoding", AT_ONCE_MS),
                Arguments.of("a declared body over the limit", HEAD + "Content-Length: " + (MAX_BODY + 1) + "\r\n\r\n", false,
                        413, "exceeds the limit of " + MAX_BODY, AT_ONCE_MS),
                Arguments.of("a header line without a colon", HEAD + "no colon here\r\n\r\n", false, 400,
                        "is not NAME: VALUE", AT_ONCE_MS),
                Arguments.of("too many header lines", HEAD + "X-A: 1\r\n".repeat(HttpRequestReader.MAX_HEADERS + 1) + "\r\n",
                        false, 431, "more than " + HttpRequestReader.MAX_HEADERS, AT_ONCE_MS),
                Arguments.of("a header line over the limit", HEAD + "X-A: " + "a".repeat(HttpRequestReader.MAX_LINE) + "\r\n\r\n",
                        false, 431, "longer than " + HttpRequestReader.MAX_LINE, AT_ONCE_MS),
                Arguments.of("HTTP/3 in the request line", "POST /v1/traces HTTP/3\r\n\r\n", false, 505,
                        "is not HTTP/1.0 or HTTP/1.1", AT_ONCE_MS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedHttp")
    void aMalformedHttpRequestIsAnsweredWithItsReasonAndTheConnectionClosed(String what, String bytes, boolean halfClose,
                                                                          int status, String reason, long withinMs)
            throws Exception {
        long malformedBefore = receiver.stats().malformedRequests() + receiver.stats().tooLargeRequests();
        Answer a = send(receiver.httpAddress().getPort(), bytes.getBytes(StandardCharsets.ISO_8859_1), halfClose);
        assertTrue(a.statusLine().startsWith("HTTP/1.1 " + status + " "), what + ": " + a.text());
        assertTrue(a.text().contains(reason), what + ": the answer says why: " + a.text());
        assertTrue(a.firstByteMs() >= 0 && a.firstByteMs() < withinMs, what + ": answered in " + a.firstByteMs()
                + " ms, not within " + withinMs);
        assertTrue(a.closed(), what + ": the connection is closed after the answer");
        assertTrue(a.text().contains("Connection: close"), what + ": and the answer says so");
        assertEquals(malformedBefore + 1, receiver.stats().malformedRequests() + receiver.stats().tooLargeRequests(),
                what + ": counted");
    }

    private static byte[] validHttpExport() {
        byte[] body = OtlpProtobuf.encodeRequest(TestSpans.mixed(2));
        byte[] head = (HEAD + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /**
     * Other code in the capture's JVM may hold every carrier thread of the virtual-thread
     * scheduler: here one virtual thread per carrier blocks in open(2) of a FIFO no one reads,
     * which the JDK does not compensate for. The receiver's connections must not need a carrier
     * (they did: nothing was answered until the receiver closed).
     */
    @Test
    void aMalformedRequestIsAnsweredAtOnceWhileEveryVirtualThreadCarrierIsHeld(@TempDir Path dir) throws Exception {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        List<Path> fifos = new ArrayList<>();
        List<Thread> held = new ArrayList<>();
        try {
            for (int i = 0; i < carriers; i++) {
                Path f = dir.resolve("fifo" + i);
                assertEquals(0, new ProcessBuilder("mkfifo", f.toString()).start().waitFor());
                fifos.add(f);
                held.add(Thread.ofVirtual().start(() -> {
                    try (OutputStream o = Files.newOutputStream(f)) {
                        o.flush();
                    } catch (IOException e) {
                        // freed below
                    }
                }));
            }
            Thread.sleep(300); // each holder is in open(2)
            Answer a = send(receiver.httpAddress().getPort(), "\u0016\u0003\u0001 not http\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1), false);
            assertTrue(a.statusLine().startsWith("HTTP/1.1 400 "), a.text());
            assertTrue(a.firstByteMs() >= 0 && a.firstByteMs() < AT_ONCE_MS, "answered in " + a.firstByteMs() + " ms");
        } finally {
            for (Path f : fifos) {
                // Opened for reading and writing, a FIFO's open never waits; it frees the holder's open.
                FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
            }
            for (Thread t : held) {
                t.join(5000);
            }
        }
    }

    @Test
    void fourIdleHttpConnectionsThatSentOnlyHeadersDoNotDelayAValidExport() throws Exception {
        int port = receiver.httpAddress().getPort();
        for (int i = 0; i < 4; i++) {
            Socket idle = connect(port);
            idle.getOutputStream().write((HEAD + "Content-Length: 1000\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            idle.getOutputStream().flush();
        }
        for (int i = 0; i < 4; i++) {
            connect(port); // and four that sent nothing at all
        }
        Thread.sleep(200); // every idle connection is in the server before the export
        long t0 = System.nanoTime();
        Socket s = connect(port);
        s.getOutputStream().write(validHttpExport());
        s.shutdownOutput();
        Answer a = readAnswer(s, t0);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(a.statusLine().startsWith("HTTP/1.1 200 "), a.text());
        assertTrue(ms < 1000, "a valid export is answered in " + ms + " ms beside eight idle connections");
    }

    @Test
    void aConnectionKeptAliveCarriesRequestAfterRequestAndOneExpectingContinueGetsIt() throws Exception {
        Socket s = connect(receiver.httpAddress().getPort());
        OutputStream out = s.getOutputStream();
        out.write(validHttpExport());
        out.write(validHttpExport());
        byte[] body = OtlpProtobuf.encodeRequest(TestSpans.mixed(1));
        out.write((HEAD + "Expect: 100-continue\r\nConnection: close\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        Thread.sleep(100);
        out.write(body);
        out.flush();
        Answer a = readAnswer(s, System.nanoTime());
        assertEquals(3, a.text().split("HTTP/1.1 200 OK", -1).length - 1, a.text());
        assertTrue(a.text().contains("HTTP/1.1 100 Continue\r\n\r\n"), a.text());
        assertTrue(a.closed(), "closed after the request that asked for it");
        assertEquals(3, receiver.stats().okRequests());
    }

    @Test
    void connectionsPastTheLimitAreAnswered503AtOnceAndTheLimitFreesWhenTheyClose() throws Exception {
        int port = receiver.httpAddress().getPort();
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < HttpConnections.MAX_CONNECTIONS; i++) {
            held.add(connect(port));
        }
        Thread.sleep(300);
        Answer refused = send(port, validHttpExport(), false);
        assertTrue(refused.statusLine().startsWith("HTTP/1.1 503 "), refused.text());
        assertTrue(refused.text().contains("connections open; retry later"), refused.text());
        assertTrue(refused.firstByteMs() < AT_ONCE_MS, refused.firstByteMs() + " ms");
        for (Socket h : held) {
            h.close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Answer a;
        do {
            Thread.sleep(50);
            a = send(port, validHttpExport(), true);
        } while (!a.statusLine().startsWith("HTTP/1.1 200 ") && System.nanoTime() < deadline);
        assertTrue(a.statusLine().startsWith("HTTP/1.1 200 "), "served again once they closed: " + a.text());
    }

    // ---- gRPC ----

    /**
     * The export method as a client-streaming one: grpc-java holds back a unary call's headers
     * until its message is written, so a call that sends headers and nothing more must be
     * declared as one that may send several messages. The server sees the same method.
     */
    private static final MethodDescriptor<byte[], byte[]> HEADERS_FIRST = OtlpGrpc.EXPORT.toBuilder()
            .setType(MethodDescriptor.MethodType.CLIENT_STREAMING).build();

    private ManagedChannel channel(CompressorRegistry compressors) {
        NettyChannelBuilder b = NettyChannelBuilder.forAddress("127.0.0.1", receiver.grpcAddress().getPort()).usePlaintext();
        if (compressors != null) {
            b.compressorRegistry(compressors);
        }
        return b.build();
    }

    @Test
    void aGrpcMessageFlaggedCompressedThatIsNotGzipIsInvalidArgumentWithTheReason() {
        CompressorRegistry compressors = NotGzip.registry();
        ManagedChannel ch = channel(compressors);
        try {
            long t0 = System.nanoTime();
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(ch,
                    OtlpGrpc.EXPORT, CallOptions.DEFAULT.withCompression("gzip").withDeadlineAfter(10, TimeUnit.SECONDS),
                    OtlpProtobuf.encodeRequest(TestSpans.mixed(1))));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus().toString());
            assertTrue(e.getStatus().getDescription().contains("flagged compressed but does not decompress"),
                    e.getStatus().getDescription());
            assertTrue(ms < 5000, ms + " ms");
        } finally {
            ch.shutdownNow();
        }
        assertEquals(1, receiver.stats().malformedRequests());
    }

    @Test
    void http11ToTheGrpcPortIsToldWhyAtOnceAndClosed() throws Exception {
        Answer a = send(receiver.grpcAddress().getPort(), (HEAD + "Content-Length: 0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1), false);
        assertTrue(a.firstByteMs() >= 0 && a.firstByteMs() < 3000, a.firstByteMs() + " ms");
        // Netty's GOAWAY frame carries the reason as its debug text.
        assertTrue(a.text().contains("Unexpected HTTP/1.x request: POST /v1/traces"), a.text());
        assertTrue(a.closed(), "and the connection is closed");
    }

    @Test
    void aSilentConnectionToTheGrpcPortIsClosedAfterTheHandshakeTimeout() throws Exception {
        Socket s = connect(receiver.grpcAddress().getPort());
        Answer a = readAnswer(s, System.nanoTime());
        assertTrue(a.closed(), "closed: " + a.text());
    }

    @Test
    void fourGrpcCallsThatSentOnlyHeadersAndFourSilentSocketsDoNotDelayAValidExport() throws Exception {
        List<ManagedChannel> channels = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                ManagedChannel ch = channel(null);
                channels.add(ch);
                ClientCall<byte[], byte[]> call = ch.newCall(HEADERS_FIRST, CallOptions.DEFAULT);
                call.start(new ClientCall.Listener<>() { }, new Metadata());
                call.request(1); // headers sent, no message, no half-close
                connect(receiver.grpcAddress().getPort());
            }
            Thread.sleep(300);
            ManagedChannel ch = channel(null);
            channels.add(ch);
            long t0 = System.nanoTime();
            ClientCalls.blockingUnaryCall(ch, OtlpGrpc.EXPORT, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
                    OtlpProtobuf.encodeRequest(TestSpans.mixed(2)));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // The channel's own connection set-up is in this time too.
            assertTrue(ms < 1000, "a valid gRPC export took " + ms + " ms beside four stalled calls");
        } finally {
            channels.forEach(ManagedChannel::shutdownNow);
        }
    }

    /** The call deadline itself, with a limit short enough to wait for: a call that sent only headers is ended with the reason. */
    @Test
    void aGrpcCallWhoseMessageNeverComesIsEndedWithDeadlineExceeded() throws Exception {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
        ServerServiceDefinition echo = ServerServiceDefinition.builder(OtlpGrpc.SERVICE)
                .addMethod(OtlpGrpc.EXPORT, ServerCalls.asyncUnaryCall((byte[] req, StreamObserver<byte[]> resp) -> {
                    resp.onNext(req);
                    resp.onCompleted();
                })).build();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerInterceptors.intercept(echo, new GrpcMessageDeadline(timer, Duration.ofMillis(300))))
                .build().start();
        ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1",
                ((InetSocketAddress) server.getListenSockets().getFirst()).getPort()).usePlaintext().build();
        try {
            assertArrayEquals(new byte[] {7}, ClientCalls.blockingUnaryCall(ch, OtlpGrpc.EXPORT,
                    CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[] {7}), "a whole call is served");
            CompletableFuture<Status> closed = new CompletableFuture<>();
            ClientCall<byte[], byte[]> call = ch.newCall(HEADERS_FIRST, CallOptions.DEFAULT);
            long t0 = System.nanoTime();
            call.start(new ClientCall.Listener<>() {
                @Override
                public void onClose(Status status, Metadata trailers) {
                    closed.complete(status);
                }
            }, new Metadata());
            call.request(1);
            Status st = closed.get(10, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(Status.Code.DEADLINE_EXCEEDED, st.getCode(), st.toString());
            assertTrue(st.getDescription().contains("did not arrive within"), st.getDescription());
            assertTrue(ms >= 250 && ms < 5000, ms + " ms");
        } finally {
            ch.shutdownNow();
            server.shutdownNow();
            timer.shutdownNow();
        }
    }
}
