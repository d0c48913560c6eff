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
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    /**
     * A request as the receiver reads it. gRPC inflates a compressed message while the marshaller
     * reads it, and both of its failures surface there: the size limit (a StatusRuntimeException)
     * and data that is not what its grpc-encoding says (a ZipException). Thrown out of
     * {@code parse}, either would become UNKNOWN "Application error" with a SEVERE stack trace in
     * gRPC's log; read as one of these, the receiver answers it with a status and a reason.
     */
    sealed interface Inbound {
        /** The message's bytes, decompressed. */
        record Message(byte[] bytes) implements Inbound {}

        /** A compressed message that inflates past the size limit. */
        record TooLarge() implements Inbound {}

        /** A message flagged compressed whose bytes do not decompress: the decompressor's reason. */
        record NotDecompressible(String reason) implements Inbound {}
    }

    private static final MethodDescriptor.Marshaller<Inbound> INBOUND = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(Inbound value) {
            throw new UnsupportedOperationException("the receiver only reads requests");
        }

        @Override
        public Inbound parse(InputStream stream) {
            try (stream) {
                return new Inbound.Message(stream.readAllBytes());
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
                    return new Inbound.TooLarge();
                }
                throw e;
            } catch (IOException e) {
                return new Inbound.NotDecompressible(String.valueOf(e.getMessage()));
            }
        }
    };

    public static final MethodDescriptor<byte[], byte[]> EXPORT = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Export"))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();

    /** The same method as the receiver serves it: requests read as {@link Inbound}. */
    static final MethodDescriptor<Inbound, byte[]> RECEIVE = EXPORT.toBuilder(INBOUND, BYTES).build();
}
