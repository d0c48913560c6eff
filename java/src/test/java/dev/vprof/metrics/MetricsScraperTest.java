package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MetricsScraperTest {
    private static final String OM_BODY = "# TYPE vllm:num_requests_waiting gauge\n"
            + "vllm:num_requests_waiting{engine=\"0\"} 7\n# EOF\n";
    private HttpServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    private URI serve(int port, HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> Thread.ofPlatform().daemon().unstarted(r)));
        server.createContext("/metrics", handler);
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
    }

    private static HttpHandler fixed(int status, String contentType, byte[] body, boolean gzip) {
        return exchange -> {
            exchange.getResponseHeaders().add("Content-Type", contentType);
            byte[] out = body;
            if (gzip) {
                exchange.getResponseHeaders().add("Content-Encoding", "gzip");
                out = gzip(body);
            }
            exchange.sendResponseHeaders(status, out.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        };
    }

    static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(raw);
        }
        return bos.toByteArray();
    }

    @Test
    void scrapesAGzipOpenMetricsBodyAndStampsTheEpochTimeOfTheScrape() throws Exception {
        AtomicReference<String> accept = new AtomicReference<>();
        AtomicReference<String> acceptEncoding = new AtomicReference<>();
        HttpHandler body = fixed(200, ExpositionFormat.OPENMETRICS.contentType(),
                OM_BODY.getBytes(StandardCharsets.UTF_8), true);
        URI url = serve(0, exchange -> {
            accept.set(exchange.getRequestHeaders().getFirst("Accept"));
            acceptEncoding.set(exchange.getRequestHeaders().getFirst("Accept-Encoding"));
            body.handle(exchange);
        });
        try (MetricsScraper scraper = new MetricsScraper(url, Duration.ofSeconds(1), r -> { })) {
            Instant before = Instant.now();
            ScrapeResult r = scraper.scrapeOnce();
            Instant after = Instant.now();
            ScrapeResult.Scrape s = assertInstanceOf(ScrapeResult.Scrape.class, r, r.toString());
            assertEquals(0, s.errors().size(), s.errors().toString());
            assertEquals(7.0, s.snapshot().samples("vllm:num_requests_waiting").getFirst().value());
            long beforeNs = before.getEpochSecond() * 1_000_000_000L + before.getNano();
            long afterNs = after.getEpochSecond() * 1_000_000_000L + after.getNano();
            assertTrue(s.epochNs() >= beforeNs && s.epochNs() <= afterNs);
        }
        assertTrue(accept.get().contains("application/openmetrics-text") && accept.get().contains("text/plain"),
                accept.get());
        assertTrue(acceptEncoding.get().contains("gzip"));
    }

    /**
     * The JDK client completes sendAsync's future in the common ForkJoin pool; a caller whose own
     * long tasks hold every worker of that pool (a capture run with supplyAsync, one worker on
     * 2 cores) must still get its answers, and errors must still be named.
     */
    @Test
    void scrapesWhileEveryWorkerOfTheCommonPoolIsBusy() throws Exception {
        URI url = serve(0, fixed(200, ExpositionFormat.OPENMETRICS.contentType(),
                OM_BODY.getBytes(StandardCharsets.UTF_8), false));
        ForkJoinPool pool = ForkJoinPool.commonPool();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(pool.getParallelism());
        List<Future<?>> holders = new ArrayList<>();
        for (int i = 0; i < pool.getParallelism(); i++) {
            holders.add(pool.submit(() -> {
                held.countDown();
                while (release.getCount() > 0) {
                    try {
                        Thread.sleep(5); // a plain sleep: the pool does not compensate for it
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }));
        }
        try {
            assertTrue(held.await(10, TimeUnit.SECONDS), "the common pool's workers are held");
            try (MetricsScraper scraper = MetricsScraper.onDemand(url, Duration.ofSeconds(2))) {
                for (int i = 0; i < 3; i++) {
                    ScrapeResult r = scraper.scrapeOnce();
                    ScrapeResult.Scrape s = assertInstanceOf(ScrapeResult.Scrape.class, r, r.toString());
                    assertEquals(7.0, s.snapshot().samples("vllm:num_requests_waiting").getFirst().value());
                }
            }
        } finally {
            release.countDown();
            for (Future<?> f : holders) {
                f.get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aServerGoingDownLeavesAGapAndScrapingResumesWhenItReturns() throws Exception {
        byte[] body = ExpositionParserTest.resource("vllm-0.11-prometheus-text.txt").getBytes(StandardCharsets.UTF_8);
        HttpHandler handler = fixed(200, ExpositionFormat.PROMETHEUS_TEXT.contentType(), body, false);
        URI url = serve(0, handler);
        int port = url.getPort();
        BlockingQueue<ScrapeResult> results = new LinkedBlockingQueue<>();
        try (MetricsScraper scraper = new MetricsScraper(url, MetricsScraper.MIN_INTERVAL, results::add)) {
            scraper.start();
            assertInstanceOf(ScrapeResult.Scrape.class, next(results));

            server.stop(0);
            ScrapeResult r;
            do {
                r = next(results);
            } while (r instanceof ScrapeResult.Scrape);
            ScrapeResult.Gap gap = assertInstanceOf(ScrapeResult.Gap.class, r);
            assertTrue(gap.error().contains(url.toString()), gap.error());

            serve(port, handler);
            do {
                r = next(results);
            } while (r instanceof ScrapeResult.Gap);
            ScrapeResult.Scrape resumed = assertInstanceOf(ScrapeResult.Scrape.class, r);
            assertTrue(resumed.epochNs() > gap.epochNs());
            assertTrue(resumed.snapshot().has("vllm:num_requests_running"));
            assertTrue(scraper.gaps() >= 1);
        }
    }

    private static ScrapeResult next(BlockingQueue<ScrapeResult> q) throws InterruptedException {
        ScrapeResult r = q.poll(10, TimeUnit.SECONDS);
        assertNotNull(r, "no scrape result within 10 s");
        return r;
    }

    /** One scrape by {@code scraper}, closed after, must be a gap whose error holds every one of {@code parts}. */
    private static void assertGap(MetricsScraper scraper, String... parts) throws Exception {
        try (scraper) {
            ScrapeResult.Gap gap = assertInstanceOf(ScrapeResult.Gap.class, scraper.scrapeOnce());
            for (String part : parts) {
                assertTrue(gap.error().contains(part), gap.error());
            }
        }
    }

    @Test
    void connectionRefusedIsAGapThatSaysSo() throws Exception {
        URI url = serve(0, fixed(200, "text/plain", new byte[0], false));
        server.stop(0);
        server = null;
        assertGap(new MetricsScraper(url, Duration.ofSeconds(1), r -> { }), "connection refused");
    }

    @Test
    void anOversizedBodyIsRefusedAsAGap() throws Exception {
        URI url = serve(0, fixed(200, "text/plain", "a 1\n".repeat(2000).getBytes(StandardCharsets.UTF_8), false));
        assertGap(new MetricsScraper(url, Duration.ofSeconds(1), Duration.ofSeconds(1), 1000, r -> { }), "larger than 1000");
    }

    @Test
    void aGzipBodyThatInflatesPastTheLimitIsRefused() throws Exception {
        URI url = serve(0, fixed(200, "text/plain", new byte[200_000], true));
        assertGap(new MetricsScraper(url, Duration.ofSeconds(1), Duration.ofSeconds(1), 10_000, r -> { }), "more than 10000");
    }

    @Test
    void anHttpErrorIsAGapWithTheStatus() throws Exception {
        URI url = serve(0, fixed(503, "text/plain", "engine is restarting\n".getBytes(StandardCharsets.UTF_8), false));
        assertGap(new MetricsScraper(url, Duration.ofSeconds(1), r -> { }), "HTTP 503", "engine is restarting");
    }

    @Test
    void aServerThatDoesNotAnswerWithinTheTimeoutIsAGap() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        URI url = serve(0, exchange -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        try {
            assertGap(new MetricsScraper(url, Duration.ofMillis(500), Duration.ofMillis(200),
                    MetricsScraper.DEFAULT_MAX_BODY_BYTES, r -> { }), "within 200 ms");
        } finally {
            release.countDown();
        }
    }

    @Test
    void intervalsBelowTheMinimumAndTimeoutsPastTheIntervalAreRefused() {
        URI url = URI.create("http://127.0.0.1:1/metrics");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MetricsScraper(url, Duration.ofMillis(50), r -> { }));
        assertTrue(e.getMessage().contains("100 ms"));
        assertThrows(IllegalArgumentException.class, () -> new MetricsScraper(url, Duration.ofSeconds(1),
                Duration.ofSeconds(2), 1000, r -> { }));
    }

    @Test
    void aBareHostAndPortMeansTheMetricsPath() {
        assertEquals(URI.create("http://localhost:8000/metrics"), MetricsScraper.metricsUri("localhost:8000"));
        assertEquals(URI.create("http://h:8000/metrics"), MetricsScraper.metricsUri("http://h:8000/"));
        assertEquals(URI.create("https://h/custom"), MetricsScraper.metricsUri("https://h/custom"));
        assertThrows(IllegalArgumentException.class, () -> MetricsScraper.metricsUri("ftp://h/metrics"));
    }
}
