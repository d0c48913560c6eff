package dev.vprof.otlp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The OTLP receiver as the capture uses it: the gRPC and HTTP transports that the options
 * ask for, and the forwarder when {@code --otlp-forward} is given, all feeding one sink.
 *
 * <pre>{@code
 * OtlpReceiverConfig cfg = ...; // from the command line's --otlp options, or built directly
 * try (OtlpReceiver r = OtlpReceiver.start(cfg, request -> capture.offer(request), log::println)) {
 *     ... capture ...
 *     report(r.stats(), r.forwardStats());
 * }
 * }</pre>
 */
public final class OtlpReceiver implements AutoCloseable {
    private final OtlpGrpcReceiver grpc;
    private final OtlpHttpReceiver http;
    private final OtlpForwarder forwarder;
    private final ReceiverStats stats;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OtlpReceiver(OtlpGrpcReceiver grpc, OtlpHttpReceiver http, OtlpForwarder forwarder, ReceiverStats stats) {
        this.grpc = grpc;
        this.http = http;
        this.forwarder = forwarder;
        this.stats = stats;
    }

    /**
     * Starts what {@code config} asks for.
     *
     * @param sink     receives each request that held accepted spans, with its body; called from
     *                 several threads at once, so it must be thread-safe; an exception from it
     *                 answers the sender "unavailable"
     * @param warnings one-line warnings (forwarding trouble), may be null
     * @throws IOException when a port cannot be bound (the message says which and what to do)
     */
    public static OtlpReceiver start(OtlpReceiverConfig config, Consumer<ExportRequest> sink, Consumer<String> warnings)
            throws IOException {
        ReceiverStats stats = new ReceiverStats();
        OtlpForwarder forwarder = config.forward() == null ? null
                : OtlpForwarder.start(config.forward(), OtlpForwarder.DEFAULT_QUEUE_CAPACITY, warnings);
        OtlpGrpcReceiver grpc = null;
        OtlpHttpReceiver http = null;
        try {
            if (config.grpc() != null) {
                grpc = OtlpGrpcReceiver.start(config.grpc(), config.maxBodyBytes(), sink, forwarder, stats);
            }
            if (config.http() != null) {
                http = OtlpHttpReceiver.start(config.http(), config.maxBodyBytes(), sink, forwarder, stats);
            }
        } catch (IOException | RuntimeException e) {
            if (grpc != null) {
                grpc.close();
            }
            if (forwarder != null) {
                forwarder.close(0);
            }
            throw e;
        }
        return new OtlpReceiver(grpc, http, forwarder, stats);
    }

    /** The bound gRPC address (the real port when 0 was asked), or null when gRPC is off. */
    public InetSocketAddress grpcAddress() {
        return grpc == null ? null : grpc.address();
    }

    /** The bound HTTP address, or null when HTTP is off. */
    public InetSocketAddress httpAddress() {
        return http == null ? null : http.address();
    }

    public ReceiverStats.Snapshot stats() {
        return stats.snapshot();
    }

    /** Forwarding counters, or null when not forwarding. */
    public OtlpForwarder.Stats forwardStats() {
        return forwarder == null ? null : forwarder.stats();
    }

    /** One line for the capture log: where it listened and what it got. */
    public String describe() {
        ReceiverStats.Snapshot s = stats.snapshot();
        StringBuilder b = new StringBuilder("OTLP receiver");
        if (grpc != null) {
            b.append(" grpc=").append(OtlpReceiverConfig.format(grpc.address()));
        }
        if (http != null) {
            b.append(" http=").append(OtlpReceiverConfig.format(http.address()));
        }
        b.append(": ").append(s.requests()).append(" request(s), ").append(s.spansAccepted()).append(" span(s) kept, ")
                .append(s.spansRejected()).append(" rejected, ").append(s.malformedRequests()).append(" malformed, ")
                .append(s.tooLargeRequests()).append(" too large");
        if (s.tooLargeRequests() > 0) {
            b.append(" (raise --otlp-max-body to keep them)");
        }
        if (s.unsupportedRequests() > 0) {
            b.append(", ").append(s.unsupportedRequests()).append(" unsupported");
        }
        if (forwarder != null) {
            b.append("; ").append(forwarder.stats().describe(forwarder.target()));
        }
        return b.toString();
    }

    /** Stops both transports, then lets the forwarder send what it has queued (up to 2 s). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (http != null) {
            http.close();
        }
        if (grpc != null) {
            grpc.close();
        }
        if (forwarder != null) {
            forwarder.close();
        }
    }
}
