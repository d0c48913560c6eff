package dev.vprof.otlp;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gRPC receiver's read timeout: a call whose request message has not arrived whole
 * {@link #LIMIT} after its headers is ended with DEADLINE_EXCEEDED and a reason. gRPC itself waits
 * for as long as the client keeps the stream open, and grpc-java's server builder has no such
 * limit; a call that sent only headers then holds its stream (and its share of the connection's
 * streams) for good. It holds no thread meanwhile (the transport is event-driven), so it never
 * delays another client's export; this only bounds what such calls keep.
 */
final class GrpcMessageDeadline implements ServerInterceptor {
    /** An OTLP request is one message of at most a few MiB, written at once: far under this. */
    static final Duration LIMIT = Duration.ofSeconds(10);

    private static final int WAITING = 0;
    private static final int RECEIVED = 1;
    private static final int TIMED_OUT = 2;

    private final ScheduledExecutorService timer;
    private final Duration limit;

    GrpcMessageDeadline(ScheduledExecutorService timer, Duration limit) {
        this.timer = timer;
        this.limit = limit;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        AtomicInteger state = new AtomicInteger(WAITING);
        ServerCall.Listener<Q> delegate = next.startCall(call, headers);
        // The unary handler touches the call again only after the half-close, which this state
        // keeps from it once the timer has won: the two never act on the call together.
        ScheduledFuture<?> expiry = timer.schedule(() -> {
            if (state.compareAndSet(WAITING, TIMED_OUT)) {
                call.close(Status.DEADLINE_EXCEEDED.withDescription("the request message did not arrive within "
                        + limit.toSeconds() + " s of its headers"), new Metadata());
            }
        }, limit.toMillis(), TimeUnit.MILLISECONDS);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
            @Override
            public void onMessage(Q message) {
                if (state.get() != TIMED_OUT) {
                    super.onMessage(message);
                }
            }

            @Override
            public void onHalfClose() {
                expiry.cancel(false);
                if (state.compareAndSet(WAITING, RECEIVED)) {
                    super.onHalfClose();
                }
            }

            @Override
            public void onCancel() {
                expiry.cancel(false);
                super.onCancel();
            }

            @Override
            public void onComplete() {
                expiry.cancel(false);
                super.onComplete();
            }
        };
    }
}
