package dev.vprof.metrics;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Scrapes a {@code /metrics} endpoint every interval on its own thread and hands each result,
 * stamped with the epoch time the request was sent, to a consumer (on the scraper thread).
 *
 * <p>A scrape that fails (server down, timeout, HTTP error, oversized body) becomes a
 * {@link ScrapeResult.Gap} with the reason, and scraping goes on: a server restarting
 * mid-capture leaves a marked hole, not an aborted capture. Each request is bounded: it must
 * complete within the timeout (shorter than the interval, so scrapes never pile up) and its
 * body, compressed and decompressed, within the size limit.
 */
public final class MetricsScraper implements AutoCloseable {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    public static final int DEFAULT_MAX_BODY_BYTES = ExpositionParser.DEFAULT_MAX_CHARS;

    private final URI url;
    private final long intervalNs;
    private final Duration timeout;
    private final int maxBodyBytes;
    private final Consumer<ScrapeResult> consumer;
    private final HttpClient client;
    private final ExpositionParser parser;
    private final AtomicLong scrapes = new AtomicLong();
    private final AtomicLong gaps = new AtomicLong();
    private volatile boolean running;
    private volatile Throwable consumerFailure;
    private Thread thread;

    /** Every {@code interval}, with a timeout of 80% of it and the default body limit. */
    public MetricsScraper(URI url, Duration interval, Consumer<ScrapeResult> consumer) {
        this(url, interval, defaultTimeout(interval), DEFAULT_MAX_BODY_BYTES, consumer);
    }

    /**
     * @param timeout      for the whole request, body included; at most the interval
     * @param maxBodyBytes largest body accepted, before and after gzip decoding
     */
    public MetricsScraper(URI url, Duration interval, Duration timeout, int maxBodyBytes,
                          Consumer<ScrapeResult> consumer) {
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException("metrics interval " + interval.toMillis()
                    + " ms is below the minimum of " + MIN_INTERVAL.toMillis() + " ms");
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(interval) > 0) {
            throw new IllegalArgumentException("scrape timeout must be positive and no longer than the interval");
        }
        this.url = url;
        this.intervalNs = interval.toNanos();
        this.timeout = timeout;
        this.maxBodyBytes = maxBodyBytes;
        this.consumer = consumer;
        this.parser = new ExpositionParser(maxBodyBytes, ExpositionParser.DEFAULT_MAX_LINE_LENGTH);
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1) // vLLM's uvicorn speaks HTTP/1.1; skip the h2c upgrade
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    /**
     * A scraper for reads on demand ({@link #scrapeOnce()}) rather than on a schedule, each
     * allowed {@code timeout}; for example for triage, whose first read may be a cold start.
     */
    public static MetricsScraper onDemand(URI url, Duration timeout) {
        Duration t = timeout.compareTo(MIN_INTERVAL) < 0 ? MIN_INTERVAL : timeout;
        return new MetricsScraper(url, t, t, DEFAULT_MAX_BODY_BYTES, r -> { });
    }

    static Duration defaultTimeout(Duration interval) {
        return Duration.ofNanos(interval.toNanos() * 4 / 5);
    }

    /**
     * The scrape URL for what a person typed: a scheme is added when missing and an empty
     * path becomes {@code /metrics} ({@code localhost:8000} means
     * {@code http://localhost:8000/metrics}).
     */
    public static URI metricsUri(String url) {
        String u = url.strip();
        if (!u.contains("://")) {
            u = "http://" + u;
        }
        URI uri = URI.create(u);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("metrics URL must be http or https: " + url);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("metrics URL has no host: " + url);
        }
        if (uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/")) {
            uri = uri.resolve("/metrics");
        }
        return uri;
    }

    public URI url() {
        return url;
    }

    /** Starts the scraper thread; the first scrape happens at once. */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("scraper already started");
        }
        running = true;
        thread = Thread.ofPlatform().daemon().name("vprof-metrics " + url).start(this::loop);
    }

    private void loop() {
        long next = System.nanoTime();
        while (running) {
            ScrapeResult r = scrapeOnce();
            if (!running) {
                break; // closed while the request was in flight: deliver nothing after close()
            }
            try {
                consumer.accept(r);
            } catch (RuntimeException e) {
                // A consumer bug must not silently stop the scraping; it is kept for the caller.
                consumerFailure = e;
            }
            next += intervalNs;
            long now = System.nanoTime();
            if (next <= now) {
                // Fell behind (a slow consumer or a long pause): skip the missed ticks.
                next = now + intervalNs - ((now - next) % intervalNs);
            }
            try {
                TimeUnit.NANOSECONDS.sleep(next - now);
            } catch (InterruptedException e) {
                break;
            }
        }
    }

    /** Scrapes once, now, on the calling thread. Usable without {@link #start()}. */
    public ScrapeResult scrapeOnce() {
        Instant sent = Instant.now();
        long epochNs = sent.getEpochSecond() * 1_000_000_000L + sent.getNano();
        long t0 = System.nanoTime();
        ScrapeResult r = fetch(epochNs, t0);
        if (r instanceof ScrapeResult.Gap) {
            gaps.incrementAndGet();
        } else {
            scrapes.incrementAndGet();
        }
        return r;
    }

    private ScrapeResult.Gap timedOut(long epochNs) {
        return new ScrapeResult.Gap(epochNs, "GET " + url + ": no complete answer within " + timeout.toMillis() + " ms");
    }

    private ScrapeResult fetch(long epochNs, long t0) {
        HttpRequest request = HttpRequest.newBuilder(url)
                .GET()
                .timeout(timeout)
                .header("Accept", ExpositionFormat.ACCEPT_HEADER)
                .header("Accept-Encoding", "gzip")
                .header("User-Agent", "vprof")
                .build();
        // The answer is taken from the body subscriber, which completes on the client's own threads:
        // the future sendAsync returns completes one hop later in the common ForkJoin pool (JDK's
        // HttpClientImpl), so a caller whose long task holds that pool (one worker on 2 cores) saw
        // every scrape time out although the server had answered in milliseconds. Failures before
        // an answer still arrive through that future.
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        CompletableFuture<HttpResponse<byte[]>> future = client.sendAsync(request, info -> {
            BoundedBody b = new BoundedBody(maxBodyBytes);
            b.result.whenComplete((bytes, t) -> {
                if (t == null) {
                    answer.complete(new Answer(info.statusCode(), info.headers(), bytes));
                } else {
                    answer.completeExceptionally(t);
                }
            });
            return b;
        });
        future.whenComplete((r, t) -> {
            if (t != null) {
                answer.completeExceptionally(t instanceof CompletionException && t.getCause() != null
                        ? t.getCause() : t);
            }
        });
        Answer response;
        try {
            response = answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return timedOut(epochNs);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            return new ScrapeResult.Gap(epochNs, "GET " + url + ": interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof HttpTimeoutException
                    && !(e.getCause() instanceof HttpConnectTimeoutException)) {
                return timedOut(epochNs); // the client's own timer fired first: the same gap
            }
            return new ScrapeResult.Gap(epochNs, "GET " + url + ": " + describe(e.getCause()));
        }
        if (response.statusCode() != 200) {
            return new ScrapeResult.Gap(epochNs, "GET " + url + ": HTTP " + response.statusCode()
                    + firstLine(response.body()));
        }
        byte[] body = response.body();
        String encoding = response.headers().firstValue("Content-Encoding").orElse("").strip();
        try {
            if (encoding.equalsIgnoreCase("gzip")) {
                body = gunzip(body, maxBodyBytes);
            } else if (!encoding.isEmpty() && !encoding.equalsIgnoreCase("identity")) {
                return new ScrapeResult.Gap(epochNs, "GET " + url + ": unsupported Content-Encoding " + encoding);
            }
        } catch (IOException e) {
            return new ScrapeResult.Gap(epochNs, "GET " + url + ": " + e.getMessage());
        }
        ExpositionFormat format = ExpositionFormat.fromContentType(
                response.headers().firstValue("Content-Type").orElse(null));
        try {
            Exposition e = parser.parse(body, format);
            return new ScrapeResult.Scrape(new MetricsSnapshot(epochNs, e.families()),
                    System.nanoTime() - t0, e.errors());
        } catch (ExpositionRejectedException e) {
            return new ScrapeResult.Gap(epochNs, "GET " + url + ": " + e.getMessage());
        }
    }

    private String describe(Throwable t) {
        if (t instanceof BodyTooLargeException) {
            return t.getMessage();
        }
        return HttpFailures.describe(t, url);
    }

    private static String firstLine(byte[] body) {
        if (body == null || body.length == 0) {
            return "";
        }
        String s = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
        int nl = s.indexOf('\n');
        return " (" + (nl >= 0 ? s.substring(0, nl) : s).strip() + ")";
    }

    static byte[] gunzip(byte[] gz, int limit) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            byte[] buf = new byte[Math.max(8192, Math.min(limit, gz.length * 8))];
            int n = 0;
            while (true) {
                if (n == buf.length) {
                    if (buf.length >= limit) {
                        if (in.read() < 0) {
                            break;
                        }
                        throw new IOException("gzip body decodes to more than " + limit
                                + " bytes; refusing it");
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min((long) limit, buf.length * 2L));
                }
                int r = in.read(buf, n, buf.length - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
            return Arrays.copyOf(buf, n);
        } catch (ZipException e) {
            throw new IOException("body says gzip but is not: " + e.getMessage());
        }
    }

    /** Successful scrapes so far. */
    public long scrapes() {
        return scrapes.get();
    }

    /** Failed scrapes (gaps) so far. */
    public long gaps() {
        return gaps.get();
    }

    /** The exception the consumer last threw, or null. */
    public Throwable consumerFailure() {
        return consumerFailure;
    }

    /** Stops the thread and waits for it; the consumer is not called after this returns. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.NANOSECONDS.toMillis(intervalNs) + 5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        client.close();
    }

    static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        BodyTooLargeException(int limit) {
            super("response body is larger than " + limit + " bytes; refusing it (is this a /metrics endpoint?)");
        }
    }

    /** An answer as the body subscriber saw it complete. */
    private record Answer(int statusCode, HttpHeaders headers, byte[] body) {}

    /** Collects a body up to a limit and cancels the transfer past it. */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int limit;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;
        private byte[] buf = new byte[8192];
        private int size;

        BoundedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                int n = b.remaining();
                if ((long) size + n > limit) {
                    subscription.cancel();
                    result.completeExceptionally(new BodyTooLargeException(limit));
                    return;
                }
                if (size + n > buf.length) {
                    buf = Arrays.copyOf(buf, (int) Math.min((long) limit, Math.max(buf.length * 2L, size + n)));
                }
                b.get(buf, size, n);
                size += n;
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(Arrays.copyOf(buf, size));
        }
    }
}
