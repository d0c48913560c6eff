package dev.vprof.otlp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters shared by the HTTP and gRPC receivers; the capture report prints a snapshot. Every
 * request lands in exactly one outcome: accepted, malformed, too large, unsupported (wrong path,
 * method, content type or encoding, or an unknown gRPC method) or failed (vprof could not store
 * or handle it), so the outcomes add up to the requests.
 */
public final class ReceiverStats {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong okRequests = new AtomicLong();
    final AtomicLong spansAccepted = new AtomicLong();
    final AtomicLong spansRejected = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong tooLarge = new AtomicLong();
    final AtomicLong unsupported = new AtomicLong();
    final AtomicLong sinkFailures = new AtomicLong();

    public record Snapshot(long requests, long okRequests, long spansAccepted, long spansRejected,
                           long malformedRequests, long tooLargeRequests, long unsupportedRequests, long sinkFailures) {

        /** The requests whose outcome is counted; equal to {@link #requests} once none is in flight. */
        public long outcomes() {
            return okRequests + malformedRequests + tooLargeRequests + unsupportedRequests + sinkFailures;
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(requests.get(), okRequests.get(), spansAccepted.get(), spansRejected.get(), malformed.get(),
                tooLarge.get(), unsupported.get(), sinkFailures.get());
    }

    void accepted(DecodedBatch batch) {
        okRequests.incrementAndGet();
        spansAccepted.addAndGet(batch.spans().size());
        spansRejected.addAndGet(batch.rejected());
    }
}
