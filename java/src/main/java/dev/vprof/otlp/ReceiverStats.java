package dev.vprof.otlp;

import java.util.concurrent.atomic.AtomicLong;

/** Counters shared by the HTTP and gRPC receivers; the capture report prints a snapshot. */
public final class ReceiverStats {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong spansAccepted = new AtomicLong();
    final AtomicLong spansRejected = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong tooLarge = new AtomicLong();
    final AtomicLong unsupported = new AtomicLong();
    final AtomicLong sinkFailures = new AtomicLong();

    public record Snapshot(long requests, long spansAccepted, long spansRejected, long malformedRequests,
                           long tooLargeRequests, long unsupportedRequests, long sinkFailures) {}

    public Snapshot snapshot() {
        return new Snapshot(requests.get(), spansAccepted.get(), spansRejected.get(), malformed.get(),
                tooLarge.get(), unsupported.get(), sinkFailures.get());
    }

    void accepted(DecodedBatch batch) {
        spansAccepted.addAndGet(batch.spans().size());
        spansRejected.addAndGet(batch.rejected());
    }
}
