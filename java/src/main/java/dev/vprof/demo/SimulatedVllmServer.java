package dev.vprof.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated vLLM OpenAI-compatible server for the demo and tests: a continuous-
 * batching scheduler with a paged KV cache, GPU workers run by the CUPTI test double,
 * vLLM's /metrics, llm_request spans with gen_ai.* attributes exported over OTLP, and
 * /start_profile and /stop_profile that make the workers call cudaProfilerStart/Stop
 * (vLLM's {@code --profiler-config '{"profiler":"cuda"}'}).
 *
 * <p>Its timing model is deliberately simple (a step costs a fixed part, a part per
 * prefill token and a part per decoding sequence) so that overload behaves like the
 * real thing: past max_num_seqs requests queue and TTFT climbs.
 */
public final class SimulatedVllmServer implements AutoCloseable {

    /**
     * How the server is shaped. {@code otlpTraces} may be null (no spans). {@code torchProfilerDir}:
     * vLLM's {@code torch_profiler_dir}; with it, /stop_profile writes a PyTorch profiler trace per
     * worker there ({@link TorchProfilerTraces}); null for none. {@code bind}: where the HTTP
     * server listens (the demo's default: an ephemeral loopback port).
     */
    public record Config(String model, int maxNumSeqs, int kvBlocks, int blockSize, int maxBatchedTokens,
                         int workers, Path simgpu, Map<String, String> workerEnv, URI otlpTraces, Path logDir,
                         Path torchProfilerDir, InetSocketAddress bind) {
        public static Config demo(Path simgpu, Map<String, String> workerEnv, URI otlpTraces, Path logDir) {
            return new Config("Qwen/Qwen2.5-7B-Instruct", 16, 1200, 16, 4096, 2, simgpu, workerEnv, otlpTraces, logDir,
                    null, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        }

        /** The same server, whose profiler also writes torch traces into {@code dir}. */
        public Config withTorchProfilerDir(Path dir) {
            return new Config(model, maxNumSeqs, kvBlocks, blockSize, maxBatchedTokens, workers, simgpu, workerEnv,
                    otlpTraces, logDir, dir, bind);
        }

        /** The same server, listening on {@code address} (port 0: an ephemeral one). */
        public Config withBind(InetSocketAddress address) {
            return new Config(model, maxNumSeqs, kvBlocks, blockSize, maxBatchedTokens, workers, simgpu, workerEnv,
                    otlpTraces, logDir, torchProfilerDir, address);
        }
    }

    // Step cost model, in nanoseconds.
    private static final long STEP_FIXED_NS = 3_000_000;
    private static final long PER_PREFILL_TOKEN_NS = 25_000;
    private static final long PER_DECODE_SEQ_NS = 250_000;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private final Config config;
    private final HttpServer http;
    private final ExecutorService httpThreads;
    private final GpuWorkers workers;
    private final ServerMetrics metrics;
    private final OtlpJsonExporter spans;
    private final TorchProfilerTraces torch; // null without a torch_profiler_dir
    private final Thread scheduler;
    private final Object lock = new Object();
    private final Deque<Request> waiting = new ArrayDeque<>();
    private final List<Request> running = new ArrayList<>();
    private final AtomicLong requestIds = new AtomicLong();
    private final AtomicLong metricsAnswered = new AtomicLong();
    private int kvFree;
    private volatile boolean stopped;
    private volatile IOException workerFailure;

    private SimulatedVllmServer(Config config) throws IOException {
        this.config = config;
        this.kvFree = config.kvBlocks();
        this.metrics = new ServerMetrics(config.model());
        // Bound before the workers start: an address in use fails with no process left behind.
        this.http = HttpServer.create(config.bind(), 128);
        try {
            this.workers = new GpuWorkers(config.simgpu(), config.workers(), config.workerEnv(), config.logDir());
        } catch (IOException | RuntimeException e) {
            http.stop(0);
            throw e;
        }
        this.spans = config.otlpTraces() == null ? null : new OtlpJsonExporter(config.otlpTraces(), "vllm");
        this.torch = config.torchProfilerDir() == null ? null
                : new TorchProfilerTraces(config.torchProfilerDir(), workers.pids());
        // Platform threads, as uvicorn's: a handler is never queued behind a virtual-thread carrier that
        // something else in this JVM (a test's in-process capture, its loaders) keeps busy or pinned.
        this.httpThreads = Executors.newCachedThreadPool(Thread.ofPlatform().name("sim-vllm-http-", 0).daemon().factory());
        http.setExecutor(httpThreads);
        http.createContext("/v1/completions", this::completions);
        http.createContext("/metrics", ex -> {
            reply(ex, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.render());
            metricsAnswered.incrementAndGet();
        });
        http.createContext("/start_profile", ex -> profile(ex, true));
        http.createContext("/stop_profile", ex -> profile(ex, false));
        http.createContext("/health", ex -> reply(ex, 200, "text/plain", ""));
        http.createContext("/v1/models", ex -> reply(ex, 200, "application/json",
                "{\"object\":\"list\",\"data\":[{\"id\":\"" + config.model() + "\",\"object\":\"model\"}]}"));
        this.scheduler = Thread.ofPlatform().name("engine-core").daemon().unstarted(this::scheduleLoop);
    }

    /**
     * Starts the workers, the engine loop and the HTTP server on the config's address. An address
     * in use throws {@link BindException} before any worker starts.
     */
    public static SimulatedVllmServer start(Config config) throws IOException {
        SimulatedVllmServer s = new SimulatedVllmServer(config);
        s.scheduler.start();
        s.http.start();
        return s;
    }

    /** How many /metrics answers were sent in full: what a scraper's failures are told apart by. */
    public long metricsAnswered() {
        return metricsAnswered.get();
    }

    public URI baseUri() {
        InetAddress a = http.getAddress().getAddress();
        String host = a.isAnyLocalAddress() || a.isLoopbackAddress() ? "127.0.0.1"
                : a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
        return URI.create("http://" + host + ":" + http.getAddress().getPort());
    }

    /** The model name it serves (what requests must name). */
    public String model() {
        return config.model();
    }

    public List<Long> workerPids() {
        return workers.pids();
    }

    /** Whether the torch profiler is recording (between /start_profile and /stop_profile). */
    public boolean torchProfiling() {
        return torch != null && torch.profiling();
    }

    // ---- HTTP --------------------------------------------------------------

    private void completions(HttpExchange ex) throws IOException {
        try (ex) {
            if (!"POST".equals(ex.getRequestMethod())) {
                reply(ex, 405, "application/json", error("use POST"));
                return;
            }
            JsonNode body;
            try {
                byte[] bytes = ex.getRequestBody().readNBytes(1 << 20);
                body = JSON.readTree(bytes);
            } catch (IOException e) {
                reply(ex, 400, "application/json", error("malformed JSON body: " + e.getMessage()));
                return;
            }
            if (body == null || !body.has("prompt")) {
                reply(ex, 400, "application/json", error("'prompt' is required"));
                return;
            }
            if (workerFailure != null) {
                reply(ex, 503, "application/json", error(workerFailure.getMessage()));
                return;
            }
            int promptTokens = Math.max(1, body.get("prompt").asText().length() / 4);
            int maxTokens = Math.clamp(body.path("max_tokens").asInt(16), 1, 4096);
            boolean stream = body.path("stream").asBoolean(false);
            Request r = new Request(requestIds.incrementAndGet(), promptTokens, maxTokens,
                    TraceParent.parse(ex.getRequestHeaders().getFirst("traceparent")));
            synchronized (lock) {
                waiting.addLast(r);
                lock.notifyAll();
            }
            if (stream) {
                streamTokens(ex, r);
            } else {
                int n = 0;
                while (r.tokens.take() != Request.END) n++;
                reply(ex, 200, "application/json", "{\"id\":\"cmpl-" + r.id + "\",\"object\":\"text_completion\","
                        + "\"choices\":[{\"index\":0,\"text\":\"" + "tok ".repeat(n) + "\",\"finish_reason\":\"length\"}],"
                        + "\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":" + n + "}}");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void streamTokens(HttpExchange ex, Request r) throws IOException, InterruptedException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        try {
            for (int i = 0; ; i++) {
                int t = r.tokens.take();
                if (t == Request.END) break;
                String chunk = "data: {\"id\":\"cmpl-" + r.id + "\",\"object\":\"text_completion\",\"choices\":"
                        + "[{\"index\":0,\"text\":\"tok" + i + " \",\"finish_reason\":null}]}\n\n";
                out.write(chunk.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException clientGone) {
            r.aborted = true; // the engine finishes it as finished_reason="abort"
        }
    }

    private void profile(HttpExchange ex, boolean start) throws IOException {
        try (ex) {
            if (!"POST".equals(ex.getRequestMethod())) {
                reply(ex, 405, "application/json", error("use POST"));
                return;
            }
            try {
                if (start) {
                    workers.profilerStart();
                    if (torch != null) torch.start(Clock.epochNs(System.nanoTime()));
                } else {
                    workers.profilerStop();
                    // As vLLM's workers do: the traces are written before /stop_profile answers.
                    if (torch != null) torch.stop(Clock.epochNs(System.nanoTime()));
                }
                reply(ex, 200, "text/plain", "");
            } catch (IOException e) {
                reply(ex, 500, "application/json", error(e.getMessage()));
            }
        }
    }

    private static void reply(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) ex.getResponseBody().write(bytes);
        ex.close();
    }

    private static String error(String message) {
        return JSON.createObjectNode().set("error", JSON.createObjectNode().put("message", message)).toString();
    }

    // ---- engine ------------------------------------------------------------

    private void scheduleLoop() {
        while (!stopped) {
            int prefillTokens = 0;
            int decodeSeqs = 0;
            int contextRequests = 0;
            List<Request> batch;
            synchronized (lock) {
                admit();
                if (running.isEmpty()) {
                    try {
                        lock.wait(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                    continue;
                }
                int budget = config.maxBatchedTokens();
                for (Request r : running) {
                    if (r.prefillLeft > 0) {
                        int chunk = Math.min(r.prefillLeft, budget);
                        r.prefillThisStep = chunk;
                        budget -= chunk;
                        prefillTokens += chunk;
                        if (chunk > 0) contextRequests++;
                    } else {
                        r.prefillThisStep = 0;
                        decodeSeqs++;
                    }
                }
                batch = new ArrayList<>(running);
            }
            long t0 = System.nanoTime();
            try {
                workers.step(prefillTokens, decodeSeqs);
            } catch (IOException e) {
                workerFailure = e;
                failAll();
                return;
            }
            long cost = STEP_FIXED_NS + prefillTokens * PER_PREFILL_TOKEN_NS + decodeSeqs * PER_DECODE_SEQ_NS;
            long left = t0 + cost - System.nanoTime();
            if (left > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(left);
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (torch != null) {
                torch.step(new TorchProfilerTraces.Step(Clock.epochNs(t0), System.nanoTime() - t0, contextRequests,
                        prefillTokens, decodeSeqs));
            }
            synchronized (lock) {
                afterStep(batch);
            }
        }
    }

    /** Moves waiting requests into the batch while there is room in it and in the KV cache. */
    private void admit() {
        for (Iterator<Request> it = waiting.iterator(); it.hasNext(); ) {
            Request r = it.next();
            if (r.aborted) {
                it.remove();
                finish(r, "abort");
                continue;
            }
            int blocks = blocksFor(r.promptTokens + 1);
            if (running.size() >= config.maxNumSeqs() || blocks > kvFree) break;
            it.remove();
            kvFree -= blocks;
            r.blocks = blocks;
            r.prefillLeft = r.promptTokens;
            if (r.scheduledNs == 0) r.scheduledNs = System.nanoTime();
            running.add(r);
            int cached = ThreadLocalRandom.current().nextInt(r.promptTokens / 4 + 1);
            metrics.prompt(r.promptTokens, cached);
        }
        updateGauges();
    }

    private void afterStep(List<Request> batch) {
        long now = System.nanoTime();
        for (Request r : batch) {
            if (!running.contains(r)) continue;
            if (r.aborted) {
                release(r);
                finish(r, "abort");
                continue;
            }
            if (r.prefillThisStep > 0) {
                r.prefillLeft -= r.prefillThisStep;
                if (r.prefillLeft > 0) continue;
                r.firstTokenNs = now;
                metrics.firstToken((now - r.arrivalNs) / 1e9);
            } else {
                metrics.interToken((now - r.lastTokenNs) / 1e9);
            }
            r.lastTokenNs = now;
            r.generated++;
            r.tokens.add(r.generated);
            metrics.generated(1);
            int needed = blocksFor(r.promptTokens + r.generated);
            if (needed > r.blocks) {
                if (kvFree == 0) {
                    preemptNewest();
                    if (!running.contains(r)) continue;
                }
                if (kvFree > 0) {
                    kvFree--;
                    r.blocks++;
                }
            }
            if (r.generated >= r.maxTokens) {
                release(r);
                finish(r, "length");
            }
        }
        updateGauges();
    }

    /** As vLLM's recompute preemption: the newest running request gives back its blocks and waits again. */
    private void preemptNewest() {
        Request victim = running.getLast();
        release(victim);
        victim.prefillLeft = victim.promptTokens + victim.generated;
        waiting.addFirst(victim);
        metrics.preempted();
    }

    private void release(Request r) {
        running.remove(r);
        kvFree += r.blocks;
        r.blocks = 0;
    }

    private void finish(Request r, String reason) {
        long end = System.nanoTime();
        long scheduled = r.scheduledNs == 0 ? end : r.scheduledNs;
        long first = r.firstTokenNs == 0 ? end : r.firstTokenNs;
        double queueS = (scheduled - r.arrivalNs) / 1e9;
        double prefillS = (first - scheduled) / 1e9;
        double decodeS = (end - first) / 1e9;
        double e2eS = (end - r.arrivalNs) / 1e9;
        metrics.finished(reason, e2eS, queueS, prefillS, decodeS);
        r.tokens.add(Request.END);
        if (spans != null) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("gen_ai.request.id", "cmpl-" + r.id);
            a.put("gen_ai.response.model", config.model());
            a.put("gen_ai.request.max_tokens", (long) r.maxTokens);
            a.put("gen_ai.usage.prompt_tokens", (long) r.promptTokens);
            a.put("gen_ai.usage.completion_tokens", (long) r.generated);
            a.put("gen_ai.latency.time_in_queue", queueS);
            a.put("gen_ai.latency.time_to_first_token", (first - r.arrivalNs) / 1e9);
            a.put("gen_ai.latency.time_in_model_prefill", prefillS);
            a.put("gen_ai.latency.time_in_model_decode", decodeS);
            a.put("gen_ai.latency.time_in_model_inference", prefillS + decodeS);
            a.put("gen_ai.latency.e2e", e2eS);
            a.put("finish_reason", reason);
            long endEpoch = Clock.epochNs(end);
            spans.export(new OtlpJsonExporter.SpanData(r.trace.traceId(), randomHex(8), r.trace.parentSpanId(),
                    "llm_request", Clock.epochNs(r.arrivalNs), endEpoch, a));
        }
    }

    private void failAll() {
        synchronized (lock) {
            for (Request r : running) r.tokens.add(Request.END);
            for (Request r : waiting) r.tokens.add(Request.END);
            running.clear();
            waiting.clear();
        }
    }

    private void updateGauges() {
        metrics.gauges(running.size(), waiting.size(), 1.0 - (double) kvFree / config.kvBlocks());
    }

    private int blocksFor(int tokens) {
        return (tokens + config.blockSize() - 1) / config.blockSize();
    }

    private static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        return HEX.formatHex(b);
    }

    @Override
    public void close() {
        stopped = true;
        scheduler.interrupt();
        try {
            scheduler.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failAll();
        http.stop(0);
        httpThreads.shutdownNow();
        workers.close();
        if (spans != null) {
            spans.close();
        }
    }

    /** Monotonic-to-epoch mapping taken once, so span times are consistent with each other. */
    // The anchor is the moment the class loads, on purpose: one epoch and nanoTime pair for the process.
    @SuppressWarnings("TimeInStaticInitializer")
    private static final class Clock {
        private static final long EPOCH_AT_START;
        private static final long NANO_AT_START;

        static {
            Instant now = Instant.now();
            NANO_AT_START = System.nanoTime();
            EPOCH_AT_START = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }

        static long epochNs(long nanoTime) {
            return EPOCH_AT_START + (nanoTime - NANO_AT_START);
        }
    }

    /** W3C trace context of the incoming request, or a fresh trace. */
    record TraceParent(String traceId, String parentSpanId) {
        static TraceParent parse(String header) {
            if (header != null) {
                String[] p = header.trim().split("-");
                if (p.length == 4 && p[1].length() == 32 && p[2].length() == 16
                        && p[1].chars().allMatch(TraceParent::hex) && p[2].chars().allMatch(TraceParent::hex)) {
                    return new TraceParent(p[1], p[2]);
                }
            }
            return new TraceParent(randomHex(16), null);
        }

        private static boolean hex(int c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        }
    }

    private static final class Request {
        static final int END = -1;
        final long id;
        final int promptTokens;
        final int maxTokens;
        final TraceParent trace;
        final long arrivalNs = System.nanoTime();
        final BlockingQueue<Integer> tokens = new LinkedBlockingQueue<>();
        long scheduledNs;
        long firstTokenNs;
        long lastTokenNs;
        int prefillLeft;
        int prefillThisStep;
        int generated;
        int blocks;
        volatile boolean aborted;

        Request(long id, int promptTokens, int maxTokens, TraceParent trace) {
            this.id = id;
            this.promptTokens = promptTokens;
            this.maxTokens = maxTokens;
            this.trace = trace;
        }
    }
}
