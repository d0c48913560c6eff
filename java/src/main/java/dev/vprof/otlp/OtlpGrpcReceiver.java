package dev.vprof.otlp;

import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * OTLP/gRPC trace receiver: {@code opentelemetry.proto.collector.trace.v1.TraceService/Export}
 * over grpc-java's Netty transport, with the method described by hand (see {@link OtlpGrpc}).
 * gzip-compressed messages are handled by gRPC itself. A message over the size limit (or one
 * that decompresses past it) is refused by gRPC with RESOURCE_EXHAUSTED before it reaches the
 * handler; a stream tracer counts it, as HTTP counts its 413, and gRPC's own log of it (a stack
 * trace on stderr, from its Netty transport) is switched off. A call to another method is counted
 * as unsupported. A malformed message gets INVALID_ARGUMENT with the decoder's message; rejected
 * spans are reported in the response's partial_success.
 */
public final class OtlpGrpcReceiver implements AutoCloseable {
    /**
     * grpc-java logs every refused message (too large, bad compression) at WARNING with a stack
     * trace from NettyServerStream; the sender gets the status and vprof counts it, so the log says
     * nothing new. Held here: JUL keeps loggers only weakly, and a collected one forgets its level.
     */
    private static final Logger TRANSPORT_LOG = Logger.getLogger(
            "io.grpc.netty.shaded.io.grpc.netty.NettyServerStream");
    /**
     * A connection that breaks HTTP/2 (HTTP/1.1 sent to this port, bytes that are not a preface)
     * is logged as "Transport failed" with a 23-line stack trace on the capture's stderr. Netty
     * already answers such a client with a GOAWAY whose text says why ("Unexpected HTTP/1.x
     * request: POST /v1/traces") and closes the connection; nothing is left for vprof's log.
     */
    private static final Logger CONNECTION_LOG = Logger.getLogger(
            "io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport");

    static {
        TRANSPORT_LOG.setLevel(Level.OFF);
        CONNECTION_LOG.setLevel(Level.OFF);
    }

    /** A client connects and sends HTTP/2's preface at once; a connection silent this long is not one. */
    private static final Duration HANDSHAKE = HttpConnections.READ_TIMEOUT;
    /** An exporter has one export in flight per connection, a few with retries. */
    private static final int CALLS_PER_CONNECTION = 64;

    private final Server server;
    private final ExecutorService executor;
    private final ScheduledExecutorService timer;
    private final InetSocketAddress address;

    private OtlpGrpcReceiver(Server server, ExecutorService executor, ScheduledExecutorService timer) {
        this.server = server;
        this.executor = executor;
        this.timer = timer;
        this.address = (InetSocketAddress) server.getListenSockets().getFirst();
    }

    /** Binds and starts serving; {@code sink} must be thread-safe, {@code forwarder} may be null. */
    public static OtlpGrpcReceiver start(InetSocketAddress address, long maxMessageBytes, Consumer<ExportRequest> sink,
                                         OtlpForwarder forwarder, ReceiverStats stats) throws IOException {
        OtlpIntake intake = new OtlpIntake(sink, stats);
        ServerCalls.UnaryMethod<OtlpGrpc.Inbound, byte[]> export = (request, response) ->
                export(request, response, intake, forwarder, stats);
        ServerServiceDefinition service = ServerServiceDefinition.builder(OtlpGrpc.SERVICE)
                .addMethod(OtlpGrpc.RECEIVE, ServerCalls.asyncUnaryCall(export))
                .build();
        ExecutorService executor = Executors.newFixedThreadPool(4,
                Thread.ofPlatform().daemon().name("vprof-otlp-grpc-", 0).factory());
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("vprof-otlp-grpc-deadline").factory());
        timer.setRemoveOnCancelPolicy(true);
        // Read and idle timeouts (HttpConnections has the HTTP side's): a connection that never
        // sends HTTP/2's preface is closed after HANDSHAKE, one with no call after IDLE, a call
        // whose message does not come after GrpcMessageDeadline.LIMIT; and at most
        // CALLS_PER_CONNECTION calls at once on one connection. None of them holds a thread.
        Server server = NettyServerBuilder.forAddress(address)
                .maxInboundMessageSize((int) Math.min(Integer.MAX_VALUE, maxMessageBytes))
                .executor(executor)
                .handshakeTimeout(HANDSHAKE.toMillis(), TimeUnit.MILLISECONDS)
                .maxConnectionIdle(HttpConnections.IDLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .maxConcurrentCallsPerConnection(CALLS_PER_CONNECTION)
                .addService(ServerInterceptors.intercept(service, new GrpcMessageDeadline(timer, GrpcMessageDeadline.LIMIT)))
                .addStreamTracerFactory(refusals(stats))
                .build();
        try {
            server.start();
        } catch (IOException e) {
            executor.shutdownNow();
            timer.shutdownNow();
            throw new IOException("cannot listen for OTLP/gRPC on " + OtlpReceiverConfig.format(address) + ": " + e.getMessage()
                    + " (is a collector already running there? choose another port with --otlp-grpc [HOST:]PORT, "
                    + "and keep the collector with --otlp-forward)", e);
        }
        return new OtlpGrpcReceiver(server, executor, timer);
    }

    /**
     * Counts the calls gRPC refuses before the handler sees them: RESOURCE_EXHAUSTED is the
     * deframer's "message exceeds maximum size" (the handler itself never answers it), UNIMPLEMENTED
     * a method this server does not have.
     */
    private static ServerStreamTracer.Factory refusals(ReceiverStats stats) {
        return new ServerStreamTracer.Factory() {
            @Override
            public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
                return new ServerStreamTracer() {
                    @Override
                    public void streamClosed(Status status) {
                        switch (status.getCode()) {
                            case RESOURCE_EXHAUSTED -> {
                                stats.requests.incrementAndGet();
                                stats.tooLarge.incrementAndGet();
                            }
                            case UNIMPLEMENTED -> {
                                stats.requests.incrementAndGet();
                                stats.unsupported.incrementAndGet();
                            }
                            default -> {
                                // Counted by export(), or a call the client gave up before sending.
                            }
                        }
                    }
                };
            }
        };
    }

    private static void export(OtlpGrpc.Inbound inbound, StreamObserver<byte[]> response, OtlpIntake intake,
                               OtlpForwarder forwarder, ReceiverStats stats) {
        byte[] request;
        switch (inbound) {
            case OtlpGrpc.Inbound.TooLarge t -> {
                // Counted by the stream tracer, as every RESOURCE_EXHAUSTED is.
                response.onError(Status.RESOURCE_EXHAUSTED.withDescription("the message inflates past the limit of "
                        + "--otlp-max-body; send smaller batches (the exporter's max batch size)").asRuntimeException());
                return;
            }
            case OtlpGrpc.Inbound.NotDecompressible n -> {
                stats.requests.incrementAndGet();
                stats.malformed.incrementAndGet();
                response.onError(Status.INVALID_ARGUMENT.withDescription("the message is flagged compressed but does "
                        + "not decompress as its grpc-encoding says (" + n.reason() + ")").asRuntimeException());
                return;
            }
            case OtlpGrpc.Inbound.Message m -> request = m.bytes();
        }
        stats.requests.incrementAndGet();
        OtlpIntake.Outcome outcome;
        try {
            outcome = intake.accept(ExportRequest.Encoding.PROTOBUF, request);
        } catch (RuntimeException e) {
            // A fault of vprof's own: answered and counted here, not left to gRPC (which logs a stack trace).
            stats.sinkFailures.incrementAndGet();
            response.onError(Status.INTERNAL.withDescription("vprof could not handle the request: " + e)
                    .asRuntimeException());
            return;
        }
        switch (outcome) {
            case OtlpIntake.Outcome.Malformed m -> response.onError(Status.INVALID_ARGUMENT
                    .withDescription("cannot decode ExportTraceServiceRequest: " + m.message()).asRuntimeException());
            case OtlpIntake.Outcome.Unavailable u -> response.onError(Status.UNAVAILABLE.withDescription(u.message())
                    .asRuntimeException());
            case OtlpIntake.Outcome.Accepted a -> {
                response.onNext(OtlpProtobuf.encodeResponse(a.batch().rejected(), a.batch().errorMessage()));
                response.onCompleted();
                if (forwarder != null) {
                    forwarder.submitGrpc(request);
                }
            }
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        server.shutdownNow();
        try {
            server.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
        timer.shutdownNow();
    }
}
