package dev.vprof.otlp;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Passes every accepted request on to the user's own collector, unchanged, so that their
 * tracing keeps working while vprof listens. The receiver only enqueues (never blocks): a
 * bounded queue feeds one sender thread, and a full queue or a failed send is counted, and
 * the first of each is reported through the warning callback, but never fails the receiver.
 *
 * <p>Byte-for-byte: an HTTP request is re-POSTed with the same body, Content-Type and
 * Content-Encoding; a gRPC request is re-sent as the same message, over gRPC or as an
 * OTLP/HTTP protobuf body. The one exception is an HTTP JSON request forwarded to a gRPC
 * target, which must be re-encoded as protobuf (from the spans that were accepted).
 */
public final class OtlpForwarder implements AutoCloseable {

    /** Requests waiting to be forwarded; beyond this the newest are dropped and counted. */
    public static final int DEFAULT_QUEUE_CAPACITY = 1024;
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);

    /** One request to pass on. {@code protobufMessage} is the uncompressed protobuf, when known. */
    private record Pending(byte[] rawBody, String contentType, String contentEncoding, byte[] protobufMessage,
                           List<Span> spans) {}

    public record Stats(long forwarded, long failed, long dropped, String lastError) {
        public String describe(ForwardTarget target) {
            return "forwarded " + forwarded + " request(s) to " + target + ", " + failed + " failed, " + dropped
                    + " dropped (queue full)" + (lastError == null ? "" : "; last error: " + lastError);
        }
    }

    private final ForwardTarget target;
    private final BlockingQueue<Pending> queue;
    private final Consumer<String> warnings;
    private final HttpClient http;
    private final ManagedChannel channel;
    private final Thread sender;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private final AtomicBoolean warnedFailure = new AtomicBoolean();
    private final AtomicBoolean warnedDrop = new AtomicBoolean();
    private volatile boolean closing;

    private OtlpForwarder(ForwardTarget target, int capacity, Consumer<String> warnings) {
        this.target = target;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.warnings = warnings == null ? w -> {} : warnings;
        if (target.kind() == ForwardTarget.Kind.HTTP) {
            http = HttpClient.newBuilder().connectTimeout(SEND_TIMEOUT).build();
            channel = null;
        } else {
            http = null;
            NettyChannelBuilder b = NettyChannelBuilder.forAddress(target.host(), target.port());
            channel = (target.tls() ? b.useTransportSecurity() : b.usePlaintext()).build();
        }
        sender = Thread.ofPlatform().daemon().name("vprof-otlp-forward").unstarted(this::run);
    }

    public static OtlpForwarder start(ForwardTarget target, int queueCapacity, Consumer<String> warnings) {
        OtlpForwarder f = new OtlpForwarder(target, queueCapacity, warnings);
        f.sender.start();
        return f;
    }

    public ForwardTarget target() {
        return target;
    }

    /** An OTLP/HTTP request as received (body still compressed if it was). Never blocks. */
    boolean submitHttp(byte[] rawBody, String contentType, String contentEncoding, byte[] protobufMessage, List<Span> spans) {
        return offer(new Pending(rawBody, contentType, contentEncoding, protobufMessage, spans));
    }

    /** An OTLP/gRPC request message. Never blocks. */
    boolean submitGrpc(byte[] message) {
        return offer(new Pending(message, OtlpHttpReceiver.PROTOBUF, null, message, null));
    }

    private boolean offer(Pending p) {
        if (closing || !queue.offer(p)) {
            dropped.incrementAndGet();
            if (warnedDrop.compareAndSet(false, true)) {
                warnings.accept("OTLP forward to " + target + ": queue full, dropping requests (the collector is slow or down); "
                        + "vprof keeps receiving");
            }
            return false;
        }
        return true;
    }

    public Stats stats() {
        return new Stats(forwarded.get(), failed.get(), dropped.get(), lastError.get());
    }

    private void run() {
        while (true) {
            Pending p;
            try {
                p = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (p == null) {
                if (closing) {
                    return;
                }
                continue;
            }
            try {
                send(p);
                forwarded.incrementAndGet();
            } catch (Exception e) {
                failed.incrementAndGet();
                String msg = e.getClass().getSimpleName() + ": " + e.getMessage();
                lastError.set(msg);
                if (warnedFailure.compareAndSet(false, true)) {
                    warnings.accept("OTLP forward to " + target + " failed (" + msg + "); vprof keeps receiving, "
                            + "failures are counted in the capture report");
                }
            }
        }
    }

    private void send(Pending p) throws IOException, InterruptedException {
        if (target.kind() == ForwardTarget.Kind.HTTP) {
            HttpRequest.Builder req = HttpRequest.newBuilder(target.httpUri())
                    .timeout(SEND_TIMEOUT)
                    .header("Content-Type", p.contentType())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(p.rawBody()));
            if (p.contentEncoding() != null && !p.contentEncoding().isEmpty()) {
                req.header("Content-Encoding", p.contentEncoding());
            }
            HttpResponse<Void> resp = http.send(req.build(), HttpResponse.BodyHandlers.discarding());
            if (resp.statusCode() / 100 != 2) {
                throw new IOException("HTTP " + resp.statusCode() + " from " + target.httpUri());
            }
        } else {
            byte[] message = p.protobufMessage() != null ? p.protobufMessage() : OtlpProtobuf.encodeRequest(p.spans());
            try {
                ClientCalls.blockingUnaryCall(channel, OtlpGrpc.EXPORT,
                        CallOptions.DEFAULT.withDeadlineAfter(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), message);
            } catch (StatusRuntimeException e) {
                throw new IOException("gRPC " + e.getStatus().getCode() + " from " + target
                        + (e.getStatus().getDescription() == null ? "" : ": " + e.getStatus().getDescription()));
            }
        }
    }

    /** Stops taking requests and sends what is queued, waiting up to {@code drainMillis}. */
    public void close(long drainMillis) {
        closing = true;
        try {
            sender.join(drainMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sender.interrupt();
        long left = queue.size();
        if (left > 0) {
            dropped.addAndGet(left);
            queue.clear();
        }
        if (channel != null) {
            channel.shutdownNow();
        }
        if (http != null) {
            http.shutdownNow();
        }
    }

    @Override
    public void close() {
        close(2_000);
    }
}
