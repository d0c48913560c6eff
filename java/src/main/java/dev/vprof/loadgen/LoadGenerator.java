package dev.vprof.loadgen;

import dev.vprof.metrics.HttpFailures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A load client for OpenAI-compatible {@code /v1/completions} with streaming, after
 * {@code vllm bench serve}: Poisson arrivals at a request rate (or all at once),
 * TTFT and inter-token latency measured from the streamed chunks, a W3C
 * {@code traceparent} per request, and with {@code profile} the server's profiler
 * bracketed by POST /start_profile and /stop_profile.
 */
public final class LoadGenerator {

    /** What to send. {@code requestRate} of +Inf sends everything at once. */
    public record Plan(URI baseUrl, String model, int numPrompts, double requestRate,
                       int minPromptChars, int maxPromptChars, int maxTokens, boolean profile, long seed) {
        public Plan {
            if (numPrompts < 1) throw new IllegalArgumentException("--num-prompts must be at least 1");
            if (!(requestRate > 0)) throw new IllegalArgumentException("--request-rate must be positive (inf for all at once)");
            if (minPromptChars < 1 || maxPromptChars < minPromptChars) throw new IllegalArgumentException("bad prompt length range");
            if (maxTokens < 1) throw new IllegalArgumentException("--max-tokens must be at least 1");
        }
    }

    /**
     * One request's outcome; times in ns, -1 where unknown.
     *
     * @param unreachable the server did not answer at all (refused, unknown host): the run stops
     */
    public record RequestResult(int index, String traceId, boolean ok, String error, long ttftNs,
                                long e2eNs, int outputTokens, long[] interTokenNs, boolean unreachable) {}

    /**
     * The server could not be reached: at the start, or after {@code completed} requests. The
     * message is the reason in words, as triage gives it.
     */
    public static final class UnreachableException extends IOException {
        private static final long serialVersionUID = 1L;

        private final URI url;
        private final int completed;

        UnreachableException(URI url, String reason, int completed) {
            super(reason, null);
            this.url = url;
            this.completed = completed;
        }

        public URI url() {
            return url;
        }

        /** Requests answered before the server went away (0: it was never reached). */
        public int completed() {
            return completed;
        }
    }

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();

    /**
     * Runs the plan; {@code progress} sees each finished request (any thread). Stops at the first
     * request the server does not answer at all: a table of a dead server's latencies says nothing.
     *
     * @throws UnreachableException when the server cannot be reached, at the start or during the run
     */
    public BenchResult run(Plan plan, Consumer<RequestResult> progress) throws IOException, InterruptedException {
        if (plan.profile()) post(plan.baseUrl().resolve("/start_profile"));
        Random random = new Random(plan.seed());
        long start = System.nanoTime();
        List<Future<RequestResult>> futures = new ArrayList<>();
        AtomicReference<RequestResult> lost = new AtomicReference<>();
        AtomicInteger answered = new AtomicInteger();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            long next = start;
            for (int i = 0; i < plan.numPrompts() && lost.get() == null; i++) {
                long wait = next - System.nanoTime();
                if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                if (lost.get() != null) break;
                int chars = plan.minPromptChars() + random.nextInt(plan.maxPromptChars() - plan.minPromptChars() + 1);
                byte[] trace = new byte[16];
                random.nextBytes(trace);
                final int index = i;
                futures.add(pool.submit(() -> {
                    RequestResult r = one(plan, index, chars, HexFormat.of().formatHex(trace));
                    if (r.unreachable()) {
                        lost.compareAndSet(null, r);
                        return r;
                    }
                    answered.incrementAndGet();
                    if (progress != null) progress.accept(r);
                    return r;
                }));
                if (Double.isFinite(plan.requestRate())) {
                    // Poisson process: exponential gaps with mean 1/rate.
                    next += (long) (-Math.log(1 - random.nextDouble()) / plan.requestRate() * 1e9);
                }
            }
        }
        long wall = System.nanoTime() - start;
        if (lost.get() != null) {
            throw new UnreachableException(plan.baseUrl(), lost.get().error(), answered.get());
        }
        if (plan.profile()) post(plan.baseUrl().resolve("/stop_profile"));
        List<RequestResult> results = new ArrayList<>();
        for (Future<RequestResult> f : futures) {
            try {
                results.add(f.get());
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        return BenchResult.of(results, wall);
    }

    private RequestResult one(Plan plan, int index, int promptChars, String traceId) {
        String prompt = "lorem ".repeat(promptChars / 6 + 1).substring(0, promptChars);
        String body = "{\"model\":\"" + plan.model() + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":"
                + plan.maxTokens() + ",\"stream\":true,\"ignore_eos\":true}";
        String spanId = HexFormat.of().formatHex(longBytes(traceId.hashCode() * 31L + index));
        HttpRequest req = HttpRequest.newBuilder(plan.baseUrl().resolve("/v1/completions"))
                .timeout(Duration.ofMinutes(5))
                .header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-" + spanId + "-01")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long t0 = System.nanoTime();
        long first = -1;
        long last = -1;
        int tokens = 0;
        long[] gaps = new long[16];
        try {
            HttpResponse<InputStream> resp = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
                if (resp.statusCode() != 200) {
                    return new RequestResult(index, traceId, false, "HTTP " + resp.statusCode() + ": " + in.readLine(),
                            -1, System.nanoTime() - t0, 0, new long[0], false);
                }
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.startsWith("data: ")) continue;
                    if (line.equals("data: [DONE]")) break;
                    long now = System.nanoTime();
                    if (first < 0) {
                        first = now;
                    } else {
                        if (tokens - 1 >= gaps.length) gaps = Arrays.copyOf(gaps, gaps.length * 2);
                        gaps[tokens - 1] = now - last;
                    }
                    last = now;
                    tokens++;
                }
            }
            return new RequestResult(index, traceId, true, null, first < 0 ? -1 : first - t0,
                    System.nanoTime() - t0, tokens, Arrays.copyOf(gaps, Math.max(0, tokens - 1)), false);
        } catch (IOException e) {
            return new RequestResult(index, traceId, false, HttpFailures.describe(e, plan.baseUrl()), -1,
                    System.nanoTime() - t0, tokens, new long[0], HttpFailures.unreachable(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RequestResult(index, traceId, false, "interrupted", -1, System.nanoTime() - t0, tokens,
                    new long[0], false);
        }
    }

    /** POSTs an empty body; a non-2xx answer is an error that names the URL. */
    public void post(URI url) throws IOException, InterruptedException {
        HttpResponse<String> r;
        try {
            r = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            if (HttpFailures.unreachable(e)) {
                throw new UnreachableException(url, HttpFailures.describe(e, url), 0);
            }
            throw new IOException("POST " + url + ": " + HttpFailures.describe(e, url), e);
        }
        if (r.statusCode() / 100 != 2) {
            throw new IOException("POST " + url + " answered HTTP " + r.statusCode()
                    + (r.statusCode() == 404 ? " (is the server's profiler enabled? vLLM needs --profiler-config)" : ""));
        }
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) b[i] = (byte) (v >>> (56 - 8 * i));
        if (v == 0) b[7] = 1; // an all-zero span id is invalid
        return b;
    }
}
