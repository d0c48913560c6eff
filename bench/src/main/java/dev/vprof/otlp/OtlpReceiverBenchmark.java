package dev.vprof.otlp;

import dev.vprof.capture.SpansCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * OTLP/HTTP protobuf receiver throughput on loopback, in spans per second: senders POST
 * batches of {@link #BATCH} vLLM-like spans (8 attributes each, as an SDK's batch processor
 * would) to {@code /v1/traces}; the receiver decodes them and its sink encodes each batch as
 * a SPANS chunk, as the capture does. Target: at least 50,000 spans/s.
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar OtlpReceiverBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Threads(2)
public class OtlpReceiverBenchmark {
    static final int BATCH = 512;

    /** Whether the sink also encodes each batch as a SPANS chunk (the capture's own cost). */
    @Param({"true"})
    public boolean encodeChunk;

    /**
     * Whether a front end drains a ring flat out on another thread meanwhile (the target asks for the
     * receiver's rate "with the front end draining a ring at the same time"); on a 2-core machine
     * that thread takes a whole core, so this is the pessimistic case.
     */
    @Param({"false", "true"})
    public boolean drainRing;

    private Thread drainer;
    private volatile boolean draining;
    private final AtomicLong drainedBytes = new AtomicLong();
    private OtlpReceiver receiver;
    private HttpClient client;
    private HttpRequest request;
    private final AtomicLong chunkBytes = new AtomicLong();

    @Setup(Level.Trial)
    public void start() throws IOException {
        OtlpReceiverConfig config = new OtlpReceiverConfig(null, new InetSocketAddress("127.0.0.1", 0), null,
                OtlpReceiverConfig.DEFAULT_MAX_BODY_BYTES);
        receiver = OtlpReceiver.start(config, request -> {
            if (encodeChunk) {
                chunkBytes.addAndGet(SpansCodec.encodeRequests(java.util.List.of(request)).length);
            }
        }, null);
        byte[] body = OtlpProtobuf.encodeRequest(batch());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        if (drainRing) {
            draining = true;
            drainer = Thread.ofPlatform().name("ring-drain").daemon().start(() -> {
                try (dev.vprof.drain.SyntheticRing ring = new dev.vprof.drain.SyntheticRing(1 << 20, 32)) {
                    while (draining) {
                        ring.publish(1024);
                        drainedBytes.addAndGet(ring.drain());
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiver.httpAddress().getPort() + "/v1/traces"))
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        if (drainer != null) {
            draining = false;
            drainer.join();
            System.out.printf("%n    ring drained meanwhile: %d records%n", drainedBytes.get() / 32);
        }
        receiver.close();
        client.shutdownNow();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int postBatch() throws Exception {
        HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("receiver answered " + r.statusCode());
        }
        return r.body().length;
    }

    static List<Span> batch() {
        List<Span> spans = new ArrayList<>(BATCH);
        long t0 = 1_760_000_000_000_000_000L;
        for (int i = 0; i < BATCH; i++) {
            byte[] trace = new byte[16];
            byte[] id = new byte[8];
            trace[0] = 1;
            trace[15] = (byte) i;
            trace[14] = (byte) (i >> 8);
            id[0] = 2;
            id[7] = (byte) i;
            id[6] = (byte) (i >> 8);
            spans.add(new Span(trace, id, null, "llm_request", SpanKind.SERVER, t0 + i * 1_000_000L,
                    t0 + i * 1_000_000L + 800_000_000L,
                    List.of(Attribute.of("gen_ai.request.id", "cmpl-" + i),
                            Attribute.of("gen_ai.response.model", "meta-llama/Llama-3.1-8B-Instruct"),
                            Attribute.of("gen_ai.latency.time_in_queue", 0.25),
                            Attribute.of("gen_ai.latency.time_in_model_prefill", 0.05),
                            Attribute.of("gen_ai.latency.time_in_model_decode", 0.45),
                            Attribute.of("gen_ai.latency.time_to_first_token", 0.3),
                            Attribute.of("gen_ai.usage.prompt_tokens", 512L),
                            Attribute.of("gen_ai.usage.completion_tokens", 128L)),
                    StatusCode.UNSET, "", "vllm", "vllm.llm_engine", "0.11.0"));
        }
        return spans;
    }
}
