package dev.vprof.otlp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * OTLP/HTTP trace receiver: {@code POST /v1/traces} with {@code application/x-protobuf} or
 * {@code application/json}, plain or gzip, with a Content-Length or chunked.
 *
 * <p>Answers, per the OTLP/HTTP spec: 200 with an ExportTraceServiceResponse in the request's
 * encoding (with partial_success when spans were rejected); 400 for a body that cannot be
 * decoded and for a request that cannot be read (bytes that are not HTTP, a body shorter than
 * its Content-Length, a request that stops arriving: {@link HttpConnections}); 413 for a body (or
 * its decompressed form) over the limit; 415 for other content types or encodings; 405/404 for
 * other methods and paths; 503 when the capture could not take the spans or too many connections
 * are open (retryable). Error bodies are a google.rpc.Status in the request's encoding, or text
 * when the request did not get far enough to name one.
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

    private final long maxBodyBytes;
    private final OtlpIntake intake;
    private final OtlpForwarder forwarder;
    private final ReceiverStats stats;
    /** Set once by {@link #start}, before any connection is accepted. */
    private HttpConnections connections;

    private OtlpHttpReceiver(long maxBodyBytes, Consumer<ExportRequest> sink, OtlpForwarder forwarder,
                             ReceiverStats stats) {
        this.maxBodyBytes = maxBodyBytes;
        this.intake = new OtlpIntake(sink, stats);
        this.forwarder = forwarder;
        this.stats = stats;
    }

    /**
     * Binds and starts serving. {@code sink} is called from several connection threads at once
     * and must be thread-safe; {@code forwarder} may be null.
     */
    public static OtlpHttpReceiver start(InetSocketAddress address, long maxBodyBytes, Consumer<ExportRequest> sink,
                                         OtlpForwarder forwarder, ReceiverStats stats) throws IOException {
        OtlpHttpReceiver r = new OtlpHttpReceiver(maxBodyBytes, sink, forwarder, stats);
        HttpConnections.Handler handler = new HttpConnections.Handler() {
            @Override
            public HttpConnections.Response handle(HttpRequestReader.Head head, byte[] body) {
                return r.handle(head, body);
            }

            @Override
            public HttpConnections.Response refused(HttpRequestReader.Head head, int status, String message) {
                return r.refused(head, status, message);
            }
        };
        try {
            r.connections = HttpConnections.start(address, handler, maxBodyBytes);
        } catch (BindException e) {
            throw new IOException("cannot listen for OTLP/HTTP on " + OtlpReceiverConfig.format(address) + ": " + e.getMessage()
                    + " (is a collector already running there? choose another port with --otlp-http [HOST:]PORT, "
                    + "and keep the collector with --otlp-forward)", e);
        }
        return r;
    }

    public InetSocketAddress address() {
        return connections.address();
    }

    /**
     * Every request is counted and answered; nothing escapes to the connection's thread: a fault
     * of vprof's own is counted as failed, with a 500 that says so.
     */
    private HttpConnections.Response handle(HttpRequestReader.Head head, byte[] raw) {
        stats.requests.incrementAndGet();
        try {
            return answer(head, raw);
        } catch (RuntimeException e) {
            stats.sinkFailures.incrementAndGet();
            return plain(500, "vprof could not handle the request: " + e);
        }
    }

    /** A request that could not be read: counted (malformed, too large, or failed: the connection limit) and answered. */
    private HttpConnections.Response refused(HttpRequestReader.Head head, int status, String message) {
        stats.requests.incrementAndGet();
        switch (status) {
            case 413 -> stats.tooLarge.incrementAndGet();
            case 503 -> stats.sinkFailures.incrementAndGet();
            default -> stats.malformed.incrementAndGet();
        }
        String type = head == null ? "" : mediaType(head.header("Content-Type"));
        if (type.equals(PROTOBUF) || type.equals("application/protobuf") || type.equals(JSON)) {
            int rpc = switch (status) {
                case 413 -> RESOURCE_EXHAUSTED;
                case 503 -> UNAVAILABLE;
                case 501, 505 -> UNIMPLEMENTED;
                default -> INVALID_ARGUMENT;
            };
            return error(type.equals(JSON), status, rpc, message);
        }
        return plain(status, message);
    }

    private HttpConnections.Response answer(HttpRequestReader.Head head, byte[] raw) {
        if (!head.path().equals(PATH)) {
            stats.unsupported.incrementAndGet();
            return plain(404, "not found: OTLP traces are received at POST " + PATH);
        }
        if (!head.method().equals("POST")) {
            stats.unsupported.incrementAndGet();
            return new HttpConnections.Response(405, TEXT, text("method " + HttpRequestReader.printable(head.method())
                    + " not allowed: use POST " + PATH), Map.of("Allow", "POST"));
        }
        String contentType = mediaType(head.header("Content-Type"));
        boolean json;
        if (contentType.equals(PROTOBUF) || contentType.equals("application/protobuf")) {
            json = false;
        } else if (contentType.equals(JSON)) {
            json = true;
        } else {
            stats.unsupported.incrementAndGet();
            return error(true, 415, UNIMPLEMENTED, "unsupported Content-Type '" + HttpRequestReader.printable(contentType)
                    + "': send " + PROTOBUF + " or " + JSON);
        }
        String encoding = head.header("Content-Encoding");
        String enc = encoding == null ? "" : encoding.trim().toLowerCase(Locale.ROOT);
        if (!enc.isEmpty() && !enc.equals("gzip") && !enc.equals("identity")) {
            stats.unsupported.incrementAndGet();
            return error(json, 415, UNIMPLEMENTED, "unsupported Content-Encoding '" + HttpRequestReader.printable(encoding)
                    + "': send gzip or none");
        }
        byte[] body;
        try {
            body = enc.equals("gzip") ? gunzipBounded(raw) : raw;
        } catch (TooLarge e) {
            stats.tooLarge.incrementAndGet();
            return error(json, 413, RESOURCE_EXHAUSTED, e.getMessage());
        } catch (ZipException | EOFException e) {
            stats.malformed.incrementAndGet();
            return error(json, 400, INVALID_ARGUMENT, "Content-Encoding is gzip but the body is not valid gzip: "
                    + e.getMessage());
        } catch (IOException e) {
            stats.malformed.incrementAndGet();
            return error(json, 400, INVALID_ARGUMENT, "the gzip body cannot be read: " + e.getMessage());
        }
        DecodedBatch batch;
        switch (intake.accept(json ? ExportRequest.Encoding.JSON : ExportRequest.Encoding.PROTOBUF, body)) {
            case OtlpIntake.Outcome.Malformed m -> {
                return error(json, 400, INVALID_ARGUMENT, "cannot decode OTLP " + (json ? "JSON" : "protobuf") + " body: "
                        + m.message());
            }
            case OtlpIntake.Outcome.Unavailable u -> {
                return error(json, 503, UNAVAILABLE, u.message());
            }
            case OtlpIntake.Outcome.Accepted a -> batch = a.batch();
        }
        if (forwarder != null) {
            forwarder.submitHttp(raw, head.header("Content-Type"), encoding, json ? null : body, batch.spans());
        }
        byte[] resp = json ? OtlpJson.encodeResponse(batch.rejected(), batch.errorMessage())
                : OtlpProtobuf.encodeResponse(batch.rejected(), batch.errorMessage());
        return new HttpConnections.Response(200, json ? JSON : PROTOBUF, resp);
    }

    /** Thrown when the decompressed body passes the limit. */
    private static final class TooLarge extends Exception {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    /** Inflates a gzip body, refusing it as soon as it passes the limit (a small body can inflate to gigabytes). */
    private byte[] gunzipBounded(byte[] raw) throws IOException, TooLarge {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(8192, raw.length * 4));
            byte[] buf = new byte[16384];
            long total = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                total += n;
                if (total > maxBodyBytes) {
                    throw new TooLarge("decompressed request body exceeds the limit of " + maxBodyBytes + " bytes; "
                            + "send smaller batches (the exporter's max batch size)");
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        }
    }

    private static String mediaType(String header) {
        if (header == null) {
            return "";
        }
        int semi = header.indexOf(';');
        return (semi < 0 ? header : header.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    private static final String TEXT = "text/plain; charset=utf-8";

    private static HttpConnections.Response error(boolean json, int httpStatus, int rpcCode, String message) {
        byte[] body = json ? OtlpJson.encodeRpcStatus(rpcCode, message) : OtlpProtobuf.encodeRpcStatus(rpcCode, message);
        return new HttpConnections.Response(httpStatus, json ? JSON : PROTOBUF, body);
    }

    private static HttpConnections.Response plain(int status, String message) {
        return new HttpConnections.Response(status, TEXT, text(message));
    }

    private static byte[] text(String message) {
        return (message + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        connections.close();
    }
}
