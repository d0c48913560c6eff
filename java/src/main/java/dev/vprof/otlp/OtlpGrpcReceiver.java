package dev.vprof.otlp;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * OTLP/gRPC trace receiver: {@code opentelemetry.proto.collector.trace.v1.TraceService/Export}
 * over grpc-java's Netty transport, with the method described by hand (see {@link OtlpGrpc}).
 * gzip-compressed messages are handled by gRPC itself. A message over the size limit is
 * refused by gRPC with RESOURCE_EXHAUSTED; a malformed one gets INVALID_ARGUMENT with the
 * decoder's message; rejected spans are reported in the response's partial_success.
 */
public final class OtlpGrpcReceiver implements AutoCloseable {
    private final Server server;
    private final ExecutorService executor;
    private final InetSocketAddress address;

    private OtlpGrpcReceiver(Server server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
        this.address = (InetSocketAddress) server.getListenSockets().getFirst();
    }

    /** Binds and starts serving; {@code sink} must be thread-safe, {@code forwarder} may be null. */
    public static OtlpGrpcReceiver start(InetSocketAddress address, long maxMessageBytes, Consumer<ExportRequest> sink,
                                         OtlpForwarder forwarder, ReceiverStats stats) throws IOException {
        OtlpIntake intake = new OtlpIntake(sink, stats);
        ServerCalls.UnaryMethod<byte[], byte[]> export = (request, response) ->
                export(request, response, intake, forwarder, stats);
        ServerServiceDefinition service = ServerServiceDefinition.builder(OtlpGrpc.SERVICE)
                .addMethod(OtlpGrpc.EXPORT, ServerCalls.asyncUnaryCall(export))
                .build();
        ExecutorService executor = Executors.newFixedThreadPool(4,
                Thread.ofPlatform().daemon().name("vprof-otlp-grpc-", 0).factory());
        Server server = NettyServerBuilder.forAddress(address)
                .maxInboundMessageSize((int) Math.min(Integer.MAX_VALUE, maxMessageBytes))
                .executor(executor)
                .addService(service)
                .build();
        try {
            server.start();
        } catch (IOException e) {
            executor.shutdownNow();
            throw new IOException("cannot listen for OTLP/gRPC on " + OtlpOptions.format(address) + ": " + e.getMessage()
                    + " (is a collector already running there? choose another port with --otlp-grpc [HOST:]PORT, "
                    + "and keep the collector with --otlp-forward)", e);
        }
        return new OtlpGrpcReceiver(server, executor);
    }

    private static void export(byte[] request, StreamObserver<byte[]> response, OtlpIntake intake,
                               OtlpForwarder forwarder, ReceiverStats stats) {
        stats.requests.incrementAndGet();
        switch (intake.accept(ExportRequest.Encoding.PROTOBUF, request)) {
            case OtlpIntake.Outcome.Malformed m -> response.onError(Status.INVALID_ARGUMENT
                    .withDescription("cannot decode ExportTraceServiceRequest: " + m.message()).asRuntimeException());
            case OtlpIntake.Outcome.Unavailable u -> response.onError(Status.UNAVAILABLE.withDescription(u.message())
                    .asRuntimeException());
            case OtlpIntake.Outcome.Accepted a -> {
                if (forwarder != null) {
                    forwarder.submitGrpc(request);
                }
                response.onNext(OtlpProtobuf.encodeResponse(a.batch().rejected(), a.batch().errorMessage()));
                response.onCompleted();
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
    }
}
