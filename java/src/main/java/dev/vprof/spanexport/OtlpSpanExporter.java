package dev.vprof.spanexport;

import dev.vprof.otlp.ForwardTarget;
import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.OtlpGrpc;
import dev.vprof.otlp.OtlpProtobuf;
import dev.vprof.otlp.Span;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Sends spans to an OpenTelemetry Collector (or Jaeger, Tempo) over OTLP/HTTP protobuf or
 * OTLP/gRPC, as the OTLP specification asks of an exporter: batches through a bounded queue to
 * one sender thread; a batch the server could not take for a transient reason (HTTP 429, 502,
 * 503, 504, gRPC UNAVAILABLE, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED, ABORTED, a refused
 * connection) is retried with exponential backoff up to {@code maxAttempts} times and within an
 * overall deadline, never forever; a partial-success answer ({@code rejected_spans},
 * {@code error_message}) is counted and not retried; any other refusal counts the batch as
 * rejected. The result says how many spans were accepted and how many were not, and why.
 */
public final class OtlpSpanExporter {

    /** What happened to the spans. {@code accepted + rejected + failed + dropped} is what was given. */
    public record Result(long given, long accepted, long rejected, long failed, long dropped, int requests,
                         int retries, String lastError) {
        public long notAccepted() {
            return rejected + failed + dropped;
        }

        public String describe(ForwardTarget target) {
            return String.format(Locale.ROOT,
                    "%d of %d spans accepted by %s; not accepted: %d rejected by the server (partial success or "
                            + "refusal), %d failed after retries, %d dropped (queue full); %d requests, %d retries%s",
                    accepted, given, target, rejected, failed, dropped, requests, retries,
                    lastError == null ? "" : "; last error: " + lastError);
        }
    }

    /** Settings; {@link #DEFAULTS} are the OTLP SDKs' usual ones, scaled for a one-shot export. */
    public record Settings(int batchSize, int queueBatches, int maxAttempts, Duration firstBackoff,
                           Duration maxBackoff, Duration requestTimeout, Duration deadline) {
        public static final Settings DEFAULTS = new Settings(512, 16, 5, Duration.ofMillis(200), Duration.ofSeconds(5),
                Duration.ofSeconds(10), Duration.ofSeconds(60));
    }

    private static final Set<Integer> RETRY_HTTP = Set.of(429, 502, 503, 504);
    private static final Set<Status.Code> RETRY_GRPC = Set.of(Status.Code.UNAVAILABLE, Status.Code.RESOURCE_EXHAUSTED,
            Status.Code.DEADLINE_EXCEEDED, Status.Code.ABORTED, Status.Code.CANCELLED);
    private static final List<Span> POISON = List.of();

    private final ForwardTarget target;
    private final Settings settings;

    public OtlpSpanExporter(ForwardTarget target, Settings settings) {
        this.target = target;
        this.settings = settings;
    }

    /** One answer from the server for one request. */
    private record Answer(boolean ok, boolean retry, long rejected, String error) {}

    /** Sends every span, waiting for the sender; returns the counts. */
    public Result export(List<Span> spans) throws InterruptedException {
        BlockingQueue<List<Span>> queue = new ArrayBlockingQueue<>(settings.queueBatches());
        long deadline = System.nanoTime() + settings.deadline().toNanos();
        long[] c = new long[4]; // accepted, rejected, failed, requests
        int[] retries = {0};
        String[] lastError = {null};
        HttpClient http = target.kind() == ForwardTarget.Kind.HTTP
                ? HttpClient.newBuilder().connectTimeout(settings.requestTimeout()).build() : null;
        ManagedChannel channel = null;
        if (http == null) {
            NettyChannelBuilder b = NettyChannelBuilder.forAddress(target.host(), target.port());
            channel = (target.tls() ? b.useTransportSecurity() : b.usePlaintext()).build();
        }
        ManagedChannel ch = channel;
        Thread sender = Thread.ofPlatform().daemon().name("vprof-otlp-export").start(() -> {
            try {
                while (true) {
                    List<Span> batch = queue.take();
                    if (batch == POISON) {
                        return;
                    }
                    Duration backoff = settings.firstBackoff();
                    for (int attempt = 1; ; attempt++) {
                        Answer a = send(http, ch, batch);
                        c[3]++;
                        if (a.ok()) {
                            c[0] += batch.size() - a.rejected();
                            c[1] += a.rejected();
                            if (a.error() != null) {
                                lastError[0] = a.error();
                            }
                            break;
                        }
                        lastError[0] = a.error();
                        long left = deadline - System.nanoTime();
                        if (!a.retry()) {
                            c[1] += batch.size();
                            break;
                        }
                        if (attempt >= settings.maxAttempts() || left <= backoff.toNanos()) {
                            c[2] += batch.size();
                            break;
                        }
                        retries[0]++;
                        Thread.sleep(backoff);
                        backoff = backoff.multipliedBy(2).compareTo(settings.maxBackoff()) > 0 ? settings.maxBackoff()
                                : backoff.multipliedBy(2);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long dropped = 0;
        try {
            for (int i = 0; i < spans.size(); i += settings.batchSize()) {
                List<Span> batch = new ArrayList<>(spans.subList(i, Math.min(spans.size(), i + settings.batchSize())));
                long wait = Math.max(0, deadline - System.nanoTime());
                if (!queue.offer(batch, wait, TimeUnit.NANOSECONDS)) {
                    dropped += batch.size(); // the sender is stuck past the deadline: the rest is counted, not kept
                }
            }
            while (!queue.offer(POISON, 100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() > deadline) {
                    List<List<Span>> left = new ArrayList<>();
                    queue.drainTo(left);
                    for (List<Span> b : left) {
                        dropped += b.size();
                    }
                }
            }
            sender.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000 + settings.requestTimeout().toMillis()));
        } finally {
            sender.interrupt();
            sender.join(1000);
            if (ch != null) {
                ch.shutdownNow();
            }
            if (http != null) {
                http.shutdownNow();
            }
        }
        synchronized (c) {
            long accounted = c[0] + c[1] + c[2] + dropped;
            long failed = c[2] + Math.max(0, spans.size() - accounted); // batches cut off by the deadline mid-send
            return new Result(spans.size(), c[0], c[1], failed, dropped, (int) c[3], retries[0], lastError[0]);
        }
    }

    private Answer send(HttpClient http, ManagedChannel channel, List<Span> batch) throws InterruptedException {
        byte[] body = OtlpProtobuf.encodeRequest(batch);
        if (http != null) {
            HttpRequest req = HttpRequest.newBuilder(target.httpUri()).timeout(settings.requestTimeout())
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            HttpResponse<byte[]> resp;
            try {
                resp = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException e) {
                return new Answer(false, true, 0, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            }
            int code = resp.statusCode();
            if (code / 100 == 2) {
                return partial(resp.body());
            }
            return new Answer(false, RETRY_HTTP.contains(code), 0, "HTTP " + code + " from " + target.httpUri());
        }
        try {
            byte[] answer = ClientCalls.blockingUnaryCall(channel, OtlpGrpc.EXPORT,
                    CallOptions.DEFAULT.withDeadlineAfter(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS), body);
            return partial(answer);
        } catch (StatusRuntimeException e) {
            Status s = e.getStatus();
            return new Answer(false, RETRY_GRPC.contains(s.getCode()), 0, "gRPC " + s.getCode() + " from " + target
                    + (s.getDescription() == null ? "" : ": " + s.getDescription()));
        }
    }

    private static Answer partial(byte[] body) {
        if (body == null || body.length == 0) {
            return new Answer(true, false, 0, null);
        }
        try {
            OtlpProtobuf.PartialSuccess p = OtlpProtobuf.decodeResponse(body);
            String msg = p.errorMessage() == null || p.errorMessage().isEmpty() ? null : "partial success: " + p.errorMessage();
            return new Answer(true, false, Math.max(0, p.rejectedSpans()), msg);
        } catch (OtlpFormatException e) {
            return new Answer(true, false, 0, null); // a 2xx with a body we cannot read: taken as accepted
        }
    }
}
