package dev.vprof.otlp;

import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The OTLP/gRPC trace method, described by hand: the service and method names from
 * collector/trace/v1/trace_service.proto, and messages carried as raw bytes so that the
 * receiver can decode them itself and the forwarder can pass them on unchanged.
 */
public final class OtlpGrpc {
    private OtlpGrpc() {}

    public static final String SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService";

    /**
     * Stands for a compressed message that inflates past the size limit. gRPC enforces that limit
     * while the marshaller reads, by throwing from the stream; thrown out of {@code parse}, it would
     * become UNKNOWN "Application error" with a SEVERE stack trace in gRPC's log. The receiver
     * answers this marker with RESOURCE_EXHAUSTED instead.
     */
    static final byte[] TOO_LARGE = new byte[0];

    /** Passes message bytes through untouched; gRPC itself bounds their size (maxInboundMessageSize). */
    static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try (stream) {
                return stream.readAllBytes();
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
                    return TOO_LARGE;
                }
                throw e;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    public static final MethodDescriptor<byte[], byte[]> EXPORT = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Export"))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();
}
