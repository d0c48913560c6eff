package dev.vprof.otlp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * OTLP/HTTP trace receiver: {@code POST /v1/traces} with {@code application/x-protobuf} or
 * {@code application/json}, plain or gzip, with a Content-Length or chunked.
 *
 * <p>Answers, per the OTLP/HTTP spec: 200 with an ExportTraceServiceResponse in the request's
 * encoding (with partial_success when spans were rejected); 400 for a body that cannot be
 * decoded; 413 for a body (or its decompressed form) over the limit; 415 for other content
 * types or encodings; 405/404 for other methods and paths; 503 when the capture could not
 * take the spans (retryable). Error bodies are a google.rpc.Status in the request's encoding.
 */
public final class OtlpHttpReceiver implements AutoCloseable {
    public static final String PATH = "/v1/traces";
    public static final String PROTOBUF = "application/x-protobuf";
    public static final String JSON = "application/json";

    /** google.rpc.Code values used in error bodies. */
    private static final int INVALID_ARGUMENT = 3;
    private static final int RESOURCE_EXHAUSTED = 8;
    private static final int UNIMPLEMENTED = 12;
    private static final int UNAVAILABLE = 14;

    static {
        // The JDK server writes a response's headers and its body separately; with Nagle's
        // algorithm on, the second write can wait for the client's delayed ACK. Request/response
        // servers turn it off. The property is read once, when the JDK's server configuration is
        // first loaded, so it takes effect only if no HttpServer was created before this class.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    /** Handler threads: decoding is CPU-bound and short; a few threads keep loopback senders busy. */
    private static final int THREADS = 4;

    private final HttpServer server;
    private final ExecutorService executor;
    private final long maxBodyBytes;
    private final OtlpIntake intake;
    private final OtlpForwarder forwarder;
    private final ReceiverStats stats;

    private OtlpHttpReceiver(HttpServer server, ExecutorService executor, long maxBodyBytes, Consumer<ExportRequest> sink,
                             OtlpForwarder forwarder, ReceiverStats stats) {
        this.server = server;
        this.executor = executor;
        this.maxBodyBytes = maxBodyBytes;
        this.intake = new OtlpIntake(sink, stats);
        this.forwarder = forwarder;
        this.stats = stats;
    }

    /**
     * Binds and starts serving. {@code sink} is called from several handler threads at once
     * and must be thread-safe; {@code forwarder} may be null.
     */
    public static OtlpHttpReceiver start(InetSocketAddress address, long maxBodyBytes, Consumer<ExportRequest> sink,
                                         OtlpForwarder forwarder, ReceiverStats stats) throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(address, 64);
        } catch (BindException e) {
            throw new IOException("cannot listen for OTLP/HTTP on " + OtlpReceiverConfig.format(address) + ": " + e.getMessage()
                    + " (is a collector already running there? choose another port with --otlp-http [HOST:]PORT, "
                    + "and keep the collector with --otlp-forward)", e);
        }
        ExecutorService executor = Executors.newFixedThreadPool(THREADS,
                Thread.ofPlatform().daemon().name("vprof-otlp-http-", 0).factory());
        OtlpHttpReceiver r = new OtlpHttpReceiver(server, executor, maxBodyBytes, sink, forwarder, stats);
        server.createContext("/", r::handle);
        server.setExecutor(executor);
        server.start();
        return r;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * Every request is counted and answered; nothing escapes to the server's thread (which would
     * print a stack trace): a client that goes away mid-body counts as malformed, a fault of vprof's
     * own as failed, with a 500 that says so when the client is still there.
     */
    private void handle(HttpExchange ex) {
        stats.requests.incrementAndGet();
        try (ex) {
            answer(ex);
        } catch (IOException e) {
            stats.malformed.incrementAndGet(); // the connection broke: nothing to answer
        } catch (RuntimeException e) {
            stats.sinkFailures.incrementAndGet();
            try {
                plain(ex, 500, "vprof could not handle the request: " + e);
            } catch (IOException | RuntimeException gone) {
                // the response had started or the client left: the count is all that is left to do
            }
        }
    }

    private void answer(HttpExchange ex) throws IOException {
        if (!ex.getRequestURI().getPath().equals(PATH)) {
            stats.unsupported.incrementAndGet();
            plain(ex, 404, "not found: OTLP traces are received at POST " + PATH);
            return;
        }
        if (!ex.getRequestMethod().equals("POST")) {
            stats.unsupported.incrementAndGet();
            ex.getResponseHeaders().set("Allow", "POST");
            plain(ex, 405, "method " + ex.getRequestMethod() + " not allowed: use POST " + PATH);
            return;
        }
        String contentType = mediaType(ex.getRequestHeaders().getFirst("Content-Type"));
        boolean json;
        if (contentType.equals(PROTOBUF) || contentType.equals("application/protobuf")) {
            json = false;
        } else if (contentType.equals(JSON)) {
            json = true;
        } else {
            stats.unsupported.incrementAndGet();
            error(ex, true, 415, UNIMPLEMENTED, "unsupported Content-Type '" + contentType
                    + "': send " + PROTOBUF + " or " + JSON);
            return;
        }
        String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
        String enc = encoding == null ? "" : encoding.trim().toLowerCase(Locale.ROOT);
        if (!enc.isEmpty() && !enc.equals("gzip") && !enc.equals("identity")) {
            stats.unsupported.incrementAndGet();
            error(ex, json, 415, UNIMPLEMENTED, "unsupported Content-Encoding '" + encoding + "': send gzip or none");
            return;
        }
        byte[] raw;
        byte[] body;
        try {
            raw = readBounded(ex.getRequestBody(), declaredLength(ex), "request body");
            body = enc.equals("gzip") ? gunzipBounded(raw) : raw;
        } catch (TooLarge e) {
            stats.tooLarge.incrementAndGet();
            // The body was not read to its end, so the server drops the connection after this
            // answer: say so, or the client reuses it for its next request and gets nothing.
            ex.getResponseHeaders().set("Connection", "close");
            error(ex, json, 413, RESOURCE_EXHAUSTED, e.getMessage());
            return;
        } catch (ZipException | EOFException e) {
            stats.malformed.incrementAndGet();
            error(ex, json, 400, INVALID_ARGUMENT, "Content-Encoding is gzip but the body is not valid gzip: " + e.getMessage());
            return;
        }
        DecodedBatch batch;
        switch (intake.accept(json ? ExportRequest.Encoding.JSON : ExportRequest.Encoding.PROTOBUF, body)) {
            case OtlpIntake.Outcome.Malformed m -> {
                error(ex, json, 400, INVALID_ARGUMENT, "cannot decode OTLP " + (json ? "JSON" : "protobuf") + " body: "
                        + m.message());
                return;
            }
            case OtlpIntake.Outcome.Unavailable u -> {
                error(ex, json, 503, UNAVAILABLE, u.message());
                return;
            }
            case OtlpIntake.Outcome.Accepted a -> batch = a.batch();
        }
        if (forwarder != null) {
            forwarder.submitHttp(raw, ex.getRequestHeaders().getFirst("Content-Type"), encoding, json ? null : body,
                    batch.spans());
        }
        byte[] resp = json ? OtlpJson.encodeResponse(batch.rejected(), batch.errorMessage())
                : OtlpProtobuf.encodeResponse(batch.rejected(), batch.errorMessage());
        send(ex, 200, json ? JSON : PROTOBUF, resp);
    }

    /** Thrown when a body or its decompressed form passes the limit. */
    private static final class TooLarge extends Exception {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    private long declaredLength(HttpExchange ex) {
        String cl = ex.getRequestHeaders().getFirst("Content-Length");
        if (cl == null) {
            return -1;
        }
        try {
            return Long.parseLong(cl.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Reads the whole stream, refusing (before reading) a declared length over the limit. */
    private byte[] readBounded(InputStream in, long declared, String what) throws IOException, TooLarge {
        if (declared > maxBodyBytes) {
            throw new TooLarge(what + " of " + declared + " bytes exceeds the limit of " + maxBodyBytes + " bytes; "
                    + "send smaller batches (the exporter's max batch size)");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
        byte[] buf = new byte[16384];
        long total = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            total += n;
            if (total > maxBodyBytes) {
                throw new TooLarge(what + " exceeds the limit of " + maxBodyBytes + " bytes; "
                        + "send smaller batches (the exporter's max batch size)");
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    private byte[] gunzipBounded(byte[] raw) throws IOException, TooLarge {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
            return readBounded(in, -1, "decompressed request body");
        }
    }

    private static String mediaType(String header) {
        if (header == null) {
            return "";
        }
        int semi = header.indexOf(';');
        return (semi < 0 ? header : header.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    private static void error(HttpExchange ex, boolean json, int httpStatus, int rpcCode, String message) throws IOException {
        byte[] body = json ? OtlpJson.encodeRpcStatus(rpcCode, message) : OtlpProtobuf.encodeRpcStatus(rpcCode, message);
        send(ex, httpStatus, json ? JSON : PROTOBUF, body);
    }

    private static void plain(HttpExchange ex, int status, String message) throws IOException {
        send(ex, status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            ex.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
