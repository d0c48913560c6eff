package dev.vprof.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.vprof.testing.TextServer;
import dev.vprof.cli.TriageCommand;
import dev.vprof.metrics.VllmFixture;
import dev.vprof.nativelib.Posix;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TriageCommandTest {
    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        return run(new TriageCommand(), args);
    }

    private static Run run(TriageCommand command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void anUnreachableUrlExitsWithTwoAndSaysWhy() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        } // closed: nothing listens there now
        Run r = run("--url", "127.0.0.1:" + port, "--window", "1s");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("cannot read metrics") && r.err().contains("connection refused"), r.err());
    }

    /** A vLLM /metrics whose every read after the first adds ten slow-prefill requests. */
    private static HttpServer slowPrefillServer(int[] calls) throws Exception {
        VllmFixture f = new VllmFixture();
        f.finish(100, "stop", 0.01, 0.05, 2.0, 500, 100);
        return metricsServer(f, calls, later -> later.finish(10, "stop", 0.05, 2.0, 2.0, 8000, 100));
    }

    /** A /metrics that renders {@code f}, changed by {@code everyLaterRead} before every read after the first. */
    private static HttpServer metricsServer(VllmFixture f, int[] calls, Consumer<VllmFixture> everyLaterRead)
            throws Exception {
        return TextServer.metrics(() -> {
            synchronized (f) {
                if (calls[0]++ > 0) {
                    everyLaterRead.accept(f);
                }
                return f.text();
            }
        });
    }

    @Test
    void watchesTheWindowAndPrintsAVerdictAsJson() throws Exception {
        int[] calls = {0};
        HttpServer s = slowPrefillServer(calls);
        try {
            Run r = run("--url", "http://127.0.0.1:" + s.getAddress().getPort(), "--window", "300ms",
                    "--interval", "100ms", "--json");
            assertEquals(0, r.exit(), r.err());
            JsonNode json = new ObjectMapper().readTree(r.out());
            assertEquals("prefill_bound", json.get("verdict").asText(), r.out());
            assertTrue(json.get("stats").get("requests").asDouble() >= 10);
            // counts are JSON integers, not 100.0
            assertTrue(json.get("stats").get("requests").isIntegralNumber(), json.get("stats").toString());
            assertTrue(calls[0] >= 2);
            // Quantiles as numbers, with their source: a histogram gives a bucket, never a point.
            JsonNode p99 = json.at("/stats/ttft/p99");
            assertEquals("histogram", json.at("/stats/ttft/source").asText());
            assertFalse(p99.get("exact").asBoolean());
            assertTrue(p99.get("low_s").asDouble() < p99.get("high_s").asDouble(), p99.toString());
        } finally {
            s.stop(0);
        }
    }

    /** `vprof triage ... 2> log`: the log gets plain lines, no carriage returns or escape sequences. */
    @Test
    void stderrThatIsNotATerminalGetsNoCarriageReturnsOrEscapes() throws Exception {
        int[] calls = {0};
        HttpServer s = slowPrefillServer(calls);
        try {
            assertFalse(Posix.isatty(Posix.STDERR_FILENO), "the tests' stderr is a pipe, not a terminal");
            Run r = run(new TriageCommand(), "--url", "http://127.0.0.1:" + s.getAddress().getPort(), "--window", "300ms",
                    "--interval", "100ms");
            assertEquals(0, r.exit(), r.err());
            assertFalse(r.err().contains("\r") || r.err().contains("\033"), "no \\r or escapes: " + r.err());
            assertTrue(r.err().startsWith("vprof triage: reading http://127.0.0.1:"), r.err());
            // On a terminal the same command redraws its live line in place.
            Run t = run(new TriageCommand().liveProgress(true), "--url", "http://127.0.0.1:" + s.getAddress().getPort(), "--window", "300ms",
                    "--interval", "100ms");
            assertTrue(t.err().contains("\r"), t.err());
            // The text names each quantile's source; histogram quantiles show their bucket.
            assertTrue(r.out().contains("histogram buckets"), r.out());
            assertTrue(r.out().contains(TriageReport.HISTOGRAM_LEGEND), r.out());
        } finally {
            s.stop(0);
        }
    }

    /**
     * A live server whose KV usage reads +Inf in every scrape after the first and whose waiting
     * count reads -5: the verdict is not KV-cache pressure, no figure shows either value, and each
     * series is named in a line that says it was left out.
     */
    @Test
    void impossibleGaugesFromALiveServerAreNamedAndLeftOutOfTheVerdict() throws Exception {
        VllmFixture f = new VllmFixture();
        f.finish(100, "stop", 0.01, 0.05, 2.0, 500, 100);
        f.kvCacheUsage = 0.3;
        HttpServer s = metricsServer(f, new int[1], later -> {
            later.kvCacheUsage = Double.POSITIVE_INFINITY;
            later.waiting = -5;
        });
        try {
            Run r = run("--url", "http://127.0.0.1:" + s.getAddress().getPort(), "--window", "300ms",
                    "--interval", "100ms");
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("Verdict: HEALTHY"), r.out());
            assertTrue(r.out().contains("Left out (values no such metric can have): vllm:kv_cache_usage_perc{")
                    && r.out().contains("a value of +Inf"), r.out());
            assertTrue(r.out().contains("Left out (values no such metric can have): vllm:num_requests_waiting{")
                    && r.out().contains("a value of -5 (a number of requests is never negative)"), r.out());
            assertTrue(r.out().contains("KV-cache usage max = 30%") && r.out().contains("requests waiting max = 0"),
                    "the figures are the first scrape's: " + r.out());
        } finally {
            s.stop(0);
        }
    }

    @Test
    void durationsReadAsPeopleWriteThem() {
        TriageCommand.DurationConverter c = new TriageCommand.DurationConverter();
        assertEquals(Duration.ofSeconds(30), c.convert("30s"));
        assertEquals(Duration.ofMillis(500), c.convert("500ms"));
        assertEquals(Duration.ofMinutes(2), c.convert("2m"));
        assertEquals(Duration.ofSeconds(5), c.convert("5"));
        Run r = run("--url", "localhost:1", "--window", "soon");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("not a duration"), r.err());
    }
}
