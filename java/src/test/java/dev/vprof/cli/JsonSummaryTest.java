package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.vprof.testing.TextServer;
import dev.vprof.demo.SimulatedVllmServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --json} of bench, doctor and the closing summary of run and capture: one JSON object on
 * stdout, counts as integers, each checked against what really happened.
 */
class JsonSummaryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode parse(String out) throws IOException {
        List<String> lines = out.strip().lines().toList();
        assertFalse(lines.isEmpty(), "nothing on stdout");
        return JSON.readTree(lines.getLast());
    }

    private static void assertInt(JsonNode n, String field, long expected) {
        JsonNode v = n.get(field);
        assertTrue(v != null && v.isIntegralNumber(), field + " is an integer: " + n);
        assertEquals(expected, v.asLong(), field + " in " + n);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void benchAndCaptureAgainstTheSimulatedServer(@TempDir Path dir) throws Exception {
        E2e e2e = E2e.nativeParts();
        try (SimulatedVllmServer server = SimulatedVllmServer.start(SimulatedVllmServer.Config.demo(e2e.simgpu,
                Map.of(), null, dir))) {
            String url = server.baseUri().toString();
            Cli.Result b = Cli.run("bench", "--url", url, "--num-prompts", "12", "--request-rate", "inf",
                    "--max-tokens", "8", "--prompt-chars", "100:200", "--json");
            assertEquals(0, b.code(), b.err());
            assertEquals(1, b.out().strip().lines().count(), "one JSON object, no table: " + b.out());
            JsonNode j = parse(b.out());
            assertInt(j, "requests", 12);
            assertInt(j, "successful", 12);
            assertInt(j, "failed", 0);
            assertInt(j, "num_prompts", 12);
            assertInt(j, "output_tokens", 12 * 8); // the simulated server always generates max_tokens
            assertEquals("inf", j.get("request_rate").asText());
            assertEquals(url, j.get("url").asText());
            assertTrue(j.at("/ttft_ms/p50").isNumber() && j.at("/ttft_ms/p50").asDouble() > 0, j.toString());
            assertTrue(j.at("/ttft_ms/p99").asDouble() >= j.at("/ttft_ms/p50").asDouble(), j.toString());
            assertTrue(j.at("/e2e_ms/p50").asDouble() > 0, j.toString());
            assertTrue(j.get("duration_s").asDouble() > 0);
            assertEquals(0, j.get("errors").size());

            // capture's closing summary: the scrapes it took, as the file records them.
            Path file = dir.resolve("c.vprof");
            Cli.Result c = Cli.run("capture", "--metrics", url + "/metrics", "--metrics-interval", "200ms",
                    "--duration", "1500ms", "-o", file.toString(), "--json");
            assertEquals(0, c.code(), c.err());
            JsonNode s = parse(c.out());
            assertEquals(file.toString(), s.get("file").asText());
            assertInt(s, "processes", 0);
            assertInt(s, "kernels", 0);
            assertEquals("duration", s.get("stop_reason").asText());
            long scrapes = s.at("/feeds/scrapes").asLong();
            assertTrue(s.at("/feeds/scrapes").isIntegralNumber() && scrapes >= 2, s.toString());
            assertEquals(scrapes, E2e.report(file).at("/metrics/scrapes").asLong() + s.at("/feeds/scrapes_dropped")
                    .asLong(), "the summary's scrapes are the file's");
            assertTrue(c.err().contains("vprof: wrote " + file), "the human lines stay on stderr: " + c.err());
        }
    }

    @Test
    void benchJsonOfAServerThatFailsEveryRequestHasNullsNotNaN() throws Exception {
        HttpServer s = TextServer.start("/", 500, "application/json", () -> "{\"error\":\"model not loaded\"}\n");
        try {
            Cli.Result r = Cli.run("bench", "--url", "http://127.0.0.1:" + s.getAddress().getPort(),
                    "--num-prompts", "3", "--json");
            assertEquals(ExitCode.NOT_EXPECTED.code(), r.code(), r.err());
            JsonNode j = parse(r.out());
            assertInt(j, "failed", 3);
            assertInt(j, "successful", 0);
            assertTrue(j.at("/ttft_ms/p50").isNull(), j.toString());
            assertTrue(j.get("errors").get(0).asText().contains("HTTP 500"), j.toString());
        } finally {
            s.stop(0);
        }
    }

    @Test
    void doctorJsonHasTheChecksTheTableHas() throws Exception {
        Cli.Result table = Cli.run("doctor", "--python", "/nonexistent/python");
        Cli.Result r = Cli.run("doctor", "--python", "/nonexistent/python", "--json");
        assertEquals(table.code(), r.code(), "the same exit code");
        JsonNode j = parse(r.out());
        JsonNode checks = j.get("checks");
        assertEquals(table.out().strip().lines().count(), checks.size(), "one object per line of the table");
        long fails = 0;
        long warns = 0;
        for (JsonNode c : checks) {
            String level = c.get("level").asText();
            assertTrue(List.of("OK", "WARN", "FAIL").contains(level), c.toString());
            fails += level.equals("FAIL") ? 1 : 0;
            warns += level.equals("WARN") ? 1 : 0;
            assertTrue(table.out().contains(c.get("detail").asText()), "the table's detail: " + c);
        }
        assertInt(j, "fail", fails);
        assertInt(j, "warn", warns);
        assertEquals(fails == 0, j.get("ok").asBoolean());
        assertEquals(fails == 0 ? 0 : 1, r.code());
        assertTrue(checks.findValuesAsText("check").containsAll(List.of("jdk", "agent")), checks.toString());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void runJsonSummaryIsTheCapturesCounts(@TempDir Path dir) throws Exception {
        E2e e2e = E2e.nativeParts();
        Path file = dir.resolve("r.vprof");
        Cli.Result r = E2e.run(List.of("-o", file.toString(), "--json"),
                e2e.sim("--steps", "200", "--kernels-per-step", "10"));
        JsonNode s = parse(r.out());
        JsonNode report = E2e.report(file);
        assertInt(s, "processes", 1);
        assertInt(s, "kernels", E2e.kernels(report));
        assertTrue(s.get("kernels").asLong() >= 2000, s.toString());
        assertInt(s, "ranges", report.at("/totals/ranges").asLong());
        assertInt(s, "ring_drops", 0);
        assertInt(s, "cupti_drops", 0);
        assertInt(s, "command_exit", 0);
        assertTrue(s.get("records").asLong() >= s.get("kernels").asLong(), s.toString());
        assertTrue(s.get("end").asText().contains("the command exited"), s.toString());
    }
}
