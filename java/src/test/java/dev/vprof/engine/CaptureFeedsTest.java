package dev.vprof.engine;

import dev.vprof.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.WindowChunk;
import dev.vprof.cli.Main;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.metrics.MetricsScraper;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.otlp.OtlpReceiverConfig;
import dev.vprof.otlp.Span;
import dev.vprof.region.ArmSpec;
import dev.vprof.testing.FakeAgent;
import dev.vprof.testing.TestRegions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metrics, spans and the profiler trigger during a real {@code vprof attach} (the agent is the
 * Java stand-in, armed and capturing until the capture stops).
 */
@Timeout(60)
class CaptureFeedsTest {
    private static final String EXPOSITION = """
            # HELP vllm:num_requests_waiting Requests waiting.
            # TYPE vllm:num_requests_waiting gauge
            vllm:num_requests_waiting{model_name="m"} 3
            # TYPE vllm:request_success_total counter
            vllm:request_success_total{model_name="m",finished_reason="length"} 42
            """;

    @TempDir
    Path dir;

    private Process target;
    private FakeAgent agent;
    private HttpServer server;
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void startTarget() throws Exception {
        target = new ProcessBuilder("sleep", "60").start();
        Path region = TestRegions.create(dir, (int) target.pid(), 65536, c -> { });
        agent = new FakeAgent(region, 100, true);
    }

    @AfterEach
    void stop() throws Exception {
        agent.close();
        target.destroyForcibly();
        if (server != null) {
            server.stop(0);
        }
    }

    /** The result of one attach: 0 or 2 (what the command line would exit with), the log, the file. */
    record Attach(int code, String err, Path file) {}

    /** What the test does while the capture runs; it decides when to stop. */
    interface During {
        void accept(Capture capture, CaptureFeeds feeds) throws Exception;
    }

    /** What a capture is asked for besides the fake agent's kernels. */
    record Asks(CapturePlan.Scrape metrics, URI trigger, OtlpReceiverConfig otlp, Path spans) {
        static Asks metrics(String url, String interval) {
            return new Asks(new CapturePlan.Scrape(MetricsScraper.metricsUri(url), Duration.parse("PT" + interval)),
                    null, null, null);
        }

        static Asks trigger(String url) {
            return new Asks(null, ProfilerTrigger.baseUri(url), null, null);
        }

        static Asks otlpHttp() {
            return new Asks(null, null, new OtlpReceiverConfig(null,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null, OtlpReceiverConfig.DEFAULT_MAX_BODY_BYTES),
                    null);
        }

        static Asks spans(Path file) {
            return new Asks(null, null, null, file);
        }
    }

    /** Attaches to the target's tree as {@code vprof attach} would, with {@code asks}; {@code during} runs meanwhile. */
    private Attach attach(During during, Asks asks) throws Exception {
        Path file = dir.resolve("c.vprof");
        PrintWriter log = new PrintWriter(err, true);
        Capture capture;
        CaptureFeeds feeds;
        try {
            feeds = CaptureFeeds.open(asks.otlp(), asks.spans(), log);
            ArmSpec arm = new ArmSpec(VprofRing.RANGE_NONE, 1, VprofRing.KINDS_DEFAULT, 0,
                    Capture.newCaptureId(), "", "");
            CapturePlan plan = CapturePlan.builder(CapturePlan.Mode.ATTACH)
                    .rootPid((int) target.pid()).arm(arm).output(file).commandLine(List.of("attach"))
                    .metrics(asks.metrics()).trigger(asks.trigger())
                    .build();
            capture = Capture.start(plan, Started.feeds(feeds),
                    new CaptureEnvironment(new AgentDirectory(dir, Path.of("/proc")), log, false));
        } catch (CaptureException e) {
            log.println("vprof: " + e.getMessage());
            return new Attach(ExitCode.CANNOT.code(), err.toString(), file);
        }
        during.accept(capture, feeds);
        assertNotNull(capture.awaitSummary(30, TimeUnit.SECONDS), "the capture finished: " + err);
        return new Attach(0, err.toString(), file);
    }

    private URI serve(String path, int status, String body, List<String> log) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext(path, ex -> answer(ex, status, body, log));
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static void answer(HttpExchange ex, int status, String body, List<String> log) throws IOException {
        log.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            ex.getResponseBody().write(b);
        }
        ex.close();
    }

    private static List<ScrapeResult> scrapes(CaptureReader r) {
        List<ScrapeResult> out = new ArrayList<>();
        assertEquals(List.of(), r.scrapes(out::add), "every METRICS chunk reads");
        return out;
    }

    private static List<Span> spans(CaptureReader r) {
        CaptureReader.Spans read = r.spans();
        assertEquals(List.of(), read.notes(), "every SPANS chunk reads");
        return read.spans();
    }

    private static void awaitRequests(List<String> log, int n) throws InterruptedException {
        while (log.size() < n) {
            Thread.sleep(20);
        }
    }

    @Test
    void metricsScrapedDuringTheCaptureLandInMetricsChunksStampedInsideTheWindow() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        URI url = serve("/metrics", 200, EXPOSITION, log);
        // Each scrape may take 80% of the interval: at 0.1 s a scrape on a loaded machine (a cold
        // HTTP client, a descheduled server thread) overran its 80 ms and read as a gap. At 1 s the
        // test asks the same (every scrape answered, none a gap) and waits for one interval.
        Attach a = attach((c, f) -> {
            awaitRequests(log, 2);
            c.stop("test");
        }, Asks.metrics(url + "/metrics", "1s"));
        assertEquals(0, a.code(), a.err());
        try (CaptureReader r = CaptureReader.open(a.file())) {
            assertTrue(r.complete());
            WindowChunk w = r.window().orElseThrow();
            assertTrue(w.hasEnd());
            assertEquals(Long.toString(w.startEpochNs()),
                    r.metadata().orElseThrow().options().get(WindowChunk.START_KEY), "metadata and WINDOW agree");
            assertEquals(Long.toString(w.endEpochNs()), r.metadata().orElseThrow().options().get(WindowChunk.END_KEY),
                    "the reader hands the window's end out with the metadata");
            List<ScrapeResult> scrapes = scrapes(r);
            assertTrue(scrapes.size() >= 2, "the scrapes seen by the server, plus the last one: " + scrapes.size());
            for (ScrapeResult s : scrapes) {
                ScrapeResult.Scrape ok = assertInstanceOf(ScrapeResult.Scrape.class, s);
                assertTrue(w.contains(s.epochNs()), "scrape at " + s.epochNs() + " inside " + w);
                assertEquals(3.0, ok.snapshot().samples("vllm:num_requests_waiting").getFirst().value());
            }
            assertEquals((long) scrapes.size(), w.counts().get("scrapes"));
            assertEquals(0L, w.counts().get("gaps"));
        }
        assertTrue(a.err().contains("vprof: metrics: "), a.err());
    }

    @Test
    void aMetricsServerThatGoesDownLeavesAGapAndTheCaptureFinishes() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        URI url = serve("/metrics", 200, EXPOSITION, log);
        Attach a = attach((c, f) -> {
            awaitRequests(log, 2); // the second request means the first answer reached the scraper
            server.stop(0);
            // The capture's own last scrape, at its end, finds the server gone.
            c.stop("test");
        }, Asks.metrics(url.toString(), "0.1s"));
        assertEquals(0, a.code(), a.err());
        try (CaptureReader r = CaptureReader.open(a.file())) {
            assertTrue(r.complete(), "the capture finished its file");
            List<ScrapeResult> scrapes = scrapes(r);
            assertInstanceOf(ScrapeResult.Scrape.class, scrapes.getFirst());
            ScrapeResult.Gap gap = assertInstanceOf(ScrapeResult.Gap.class, scrapes.getLast());
            assertFalse(gap.error().isBlank());
            assertTrue(r.window().orElseThrow().counts().get("gaps") >= 1);
            assertEquals(1, r.processes().size(), "the GPU capture went on");
        }
        assertTrue(a.err().contains("the capture goes on and marks the gap"), a.err());
    }

    private static String otlpJson(String traceHex, String spanHex, long start, long end) {
        return """
                {"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}}]},
                 "scopeSpans":[{"scope":{"name":"t"},"spans":[
                  {"traceId":"%s","spanId":"%s","name":"handle","kind":2,
                   "startTimeUnixNano":"%d","endTimeUnixNano":"%d"}]}]}]}
                """.formatted(traceHex, spanHex, start, end).replace("\n", "");
    }

    private static long nowNs() {
        java.time.Instant i = java.time.Instant.now();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    @Test
    void otlpSpansReceivedDuringTheCaptureLandInSpansChunks() throws Exception {
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        Attach a = attach((capture, feeds) -> {
            var http = feeds.otlpHttpAddress();
            try (HttpClient c = HttpClient.newHttpClient()) {
                URI u = URI.create("http://127.0.0.1:" + http.getPort() + "/v1/traces");
                long now = nowNs();
                for (String body : List.of(otlpJson(trace, "00f067aa0ba902b7", now - 1_000_000, now),
                        // ended an hour before the capture: kept, but counted outside the window
                        otlpJson(trace, "00f067aa0ba902b8", now - 3_600_000_000_000L, now - 3_599_000_000_000L))) {
                    HttpResponse<String> r = c.send(HttpRequest.newBuilder(u).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), r.body());
                }
            }
            capture.stop("test");
        }, Asks.otlpHttp());
        assertEquals(0, a.code(), a.err());
        try (CaptureReader r = CaptureReader.open(a.file())) {
            List<Span> spans = spans(r);
            assertEquals(2, spans.size());
            assertEquals(trace, spans.getFirst().traceIdHex());
            assertEquals("api", spans.getFirst().serviceName());
            WindowChunk w = r.window().orElseThrow();
            assertEquals(2L, w.counts().get("spans_received"));
            assertEquals(1L, w.counts().get("spans_outside_window"));
        }
        assertTrue(a.err().contains("2 received into the capture"), a.err());
    }

    @Test
    void spansImportedFromAFileAreKeptAndTheirErrorsNameTheLine() throws Exception {
        long now = nowNs();
        Path file = dir.resolve("spans.jsonl");
        Files.writeString(file, otlpJson("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", now, now + 1000) + "\n"
                + "{\"resourceSpans\": [ this is not json\n"
                + otlpJson("4bf92f3577b34da6a3ce929d0e0e4737", "00f067aa0ba902b9", now, now + 1000) + "\n");
        Attach a = attach((c, f) -> c.stop("test"), Asks.spans(file));
        assertEquals(0, a.code(), a.err());
        assertTrue(a.err().contains("line 2"), "the bad line is named: " + a.err());
        try (CaptureReader r = CaptureReader.open(a.file())) {
            assertEquals(2, spans(r).size(), "both good spans kept");
        }
    }

    @Test
    void triggerPostsStartProfileAtTheStartAndStopProfileAtTheEnd() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/start_profile", ex -> answer(ex, 200, "", log));
        server.createContext("/stop_profile", ex -> answer(ex, 200, "", log));
        server.start();
        String url = "127.0.0.1:" + server.getAddress().getPort();
        Attach a = attach((c, f) -> {
            awaitRequests(log, 1);
            c.stop("test");
        }, Asks.trigger(url));
        assertEquals(0, a.code(), a.err());
        assertEquals(List.of("POST /start_profile", "POST /stop_profile"), log);
    }

    @Test
    void triggerAgainstAServerWithoutAProfilerSaysHowToEnableIt() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        URI url = serve("/health", 200, "", log); // every other path answers 404
        Attach a = attach((c, f) -> { }, Asks.trigger(url.toString()));
        assertEquals(ExitCode.CANNOT.code(), a.code(), a.err());
        assertTrue(a.err().contains("404") && a.err().contains("profiler is not enabled")
                && a.err().contains("--profiler-config"), a.err());
        // A capture of nothing under -o would make the retry, with the profiler enabled, refuse its
        // own output: the refusal leaves no file (CaptureHintsTest asserts the same from the CLI).
        assertFalse(Files.exists(a.file()), "no file left at " + a.file());
        assertNotNull(agent);
    }
}
