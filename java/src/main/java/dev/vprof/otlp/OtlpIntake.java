package dev.vprof.otlp;

import java.util.function.Consumer;

/**
 * What both OTLP transports do with a request body once they have it: decode it, hand the
 * accepted spans (with the body) to the capture, and count. The transports only turn the outcome
 * into their own answer (HTTP status or gRPC status) and forward the request.
 */
final class OtlpIntake {
    /** What came of one request. */
    sealed interface Outcome {
        /** Decoded and stored; {@code batch} says what was rejected, for the partial-success answer. */
        record Accepted(DecodedBatch batch) implements Outcome {}

        /** The body is not an ExportTraceServiceRequest: the decoder's message. */
        record Malformed(String message) implements Outcome {}

        /** The capture could not take the spans (ended, or behind): the sender should retry. */
        record Unavailable(String message) implements Outcome {}
    }

    private final Consumer<ExportRequest> sink;
    private final ReceiverStats stats;

    OtlpIntake(Consumer<ExportRequest> sink, ReceiverStats stats) {
        this.sink = sink;
        this.stats = stats;
    }

    Outcome accept(ExportRequest.Encoding encoding, byte[] body) {
        DecodedBatch batch;
        try {
            batch = ExportRequest.decode(encoding, body);
        } catch (OtlpFormatException e) {
            stats.malformed.incrementAndGet();
            return new Outcome.Malformed(e.getMessage());
        }
        try {
            if (!batch.spans().isEmpty()) {
                sink.accept(new ExportRequest(encoding, body, batch.spans()));
            }
        } catch (RuntimeException e) {
            stats.sinkFailures.incrementAndGet();
            return new Outcome.Unavailable("vprof could not store the spans: " + e.getMessage());
        }
        stats.accepted(batch);
        return new Outcome.Accepted(batch);
    }
}
