package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.vprof.testing.TextServer;
import dev.vprof.region.AgentState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder as Prometheus sees it, through Debian's {@code prometheus}: it scrapes the watch's
 * {@code --metrics-listen} endpoint (its own parser reads the exposition), evaluates the alert
 * rules of docs/watch.md as written there (only {@code for:} shortened) over that endpoint and a
 * vLLM-shaped {@code /metrics} whose TTFT is slow, and sends the firing alert to the watch's
 * control endpoint as to an Alertmanager, where it makes a dump. Without prometheus the test fails
 * under CI=true and is skipped, with the reason, elsewhere.
 */
class PrometheusWatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void prometheusScrapesTheRecorderEvaluatesTheDocumentedRulesAndItsAlertMakesADump(@TempDir Path dir)
            throws Exception {
        Path prometheus = Path.of("/usr/bin/prometheus");
        if (!Files.isExecutable(prometheus)) {
            String why = "prometheus is not installed (apt-get install -y prometheus): the recorder's endpoint is not "
                    + "checked against Prometheus";
            if ("true".equals(System.getenv("CI"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        E2e e2e = E2e.nativeParts();
        List<Process> started = new ArrayList<>();
        HttpServer vllm = slowVllm();
        try {
            Process sim = e2e.startTarget(dir.resolve("sim.log"), "--duration", "150s", "--step-us", "2000");
            started.add(sim);
            awaitDormant(sim.pid());
            int metricsPort = freePort();
            int controlPort = freePort();
            Path err = dir.resolve("watch.err");
            Process watch = new ProcessBuilder(e2e.vprofCommand("watch", "--pid", Long.toString(sim.pid()),
                    "--dir", dir.resolve("w").toString(), "--keep", "20s", "--segment", "2s", "--before", "4s",
                    "--after", "2s", "--min-interval", "10m", "--metrics-listen", Integer.toString(metricsPort),
                    "--control", Integer.toString(controlPort), "--alert-match", "vprof_dump=true"))
                    .redirectErrorStream(true).redirectOutput(err.toFile()).start();
            started.add(watch);
            await(() -> read(err).contains("Prometheus metrics at"), 60, "the watch's start: " + read(err));

            Path rules = dir.resolve("rules.yml");
            Files.writeString(rules, documentedRules().replaceAll("for: \\d+s", "for: 1s"));
            int promPort = freePort();
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, String.join("\n",
                    "global: {scrape_interval: 1s, evaluation_interval: 1s}",
                    "rule_files: [" + rules + "]",
                    "scrape_configs:",
                    "  - job_name: vprof",
                    "    static_configs: [{targets: ['127.0.0.1:" + metricsPort + "']}]",
                    "  - job_name: vllm",
                    "    static_configs: [{targets: ['127.0.0.1:" + vllm.getAddress().getPort() + "']}]",
                    "alerting:",
                    "  alertmanagers:",
                    "    - api_version: v2",
                    "      static_configs: [{targets: ['127.0.0.1:" + controlPort + "']}]", ""));
            Process prom = new ProcessBuilder(prometheus.toString(), "--config.file=" + config,
                    "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + promPort)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
            started.add(prom);
            String api = "http://127.0.0.1:" + promPort + "/api/v1/";

            // Prometheus read the exposition with its own parser: the target is up, with no error.
            await(() -> query(api, "up{job=\"vprof\"}").equals("1"), 60, "vprof target up: " + get(api + "targets"));
            JsonNode targets = JSON.readTree(get(api + "targets")).at("/data/activeTargets");
            for (JsonNode t : targets) {
                assertEquals("", t.path("lastError").asText(), "scrape error of " + t.path("scrapeUrl").asText());
            }
            await(() -> Double.parseDouble(orZero(query(api, "vprof_kernels_total"))) > 0, 30, "kernels counted");
            assertTrue(Double.parseDouble(query(api, "vprof_gpu_busy_seconds_total{device=\"0\"}")) > 0);
            Set<String> categories = new HashSet<>();
            for (JsonNode r : JSON.readTree(get(api + "query?query=vprof_gpu_kernel_seconds_total")).at("/data/result")) {
                categories.add(r.at("/metric/category").asText());
            }
            assertTrue(categories.contains("GEMM") && categories.contains("attention"), "categories: " + categories);
            assertTrue(Double.parseDouble(query(api, "vprof_window_seconds")) > 0);

            // The SLO rule fires on the slow vLLM; its alert goes to the watch, which takes a dump.
            await(() -> firing(api).contains("VllmTtftP99High"), 60, "alerts: " + get(api + "alerts"));
            for (JsonNode g : JSON.readTree(get(api + "rules")).at("/data/groups")) {
                for (JsonNode r : g.path("rules")) {
                    assertEquals("ok", r.path("health").asText(), r.path("name").asText() + ": " + r.path("lastError"));
                }
            }
            await(() -> read(err).contains("asked by alert (alert VllmTtftP99High)"), 60, "the watch: " + read(err));
            Pattern made = Pattern.compile("dump 1 \\(alert: alert VllmTtftP99High\\): (\\S+\\.vprof),");
            await(() -> made.matcher(read(err)).find(), 60, "the dump written: " + read(err));
            Matcher m = made.matcher(read(err));
            assertTrue(m.find());
            JsonNode report = E2e.report(Path.of(m.group(1)));
            assertTrue(E2e.kernels(report) > 0, "the dump holds kernels: " + report.get("totals"));
            await(() -> query(api, "vprof_dumps_total{trigger=\"alert\"}").equals("1"), 30, "the dump counted");

            watch.destroy();
            assertTrue(watch.waitFor(30, TimeUnit.SECONDS), "the watch ends on SIGTERM");
            assertEquals(0, watch.exitValue(), read(err));
        } finally {
            vllm.stop(0);
            for (Process p : started.reversed()) {
                p.destroy();
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    /** The rules block of docs/watch.md, the one marked {@code # vprof-watch-rules}. */
    static String documentedRules() throws IOException {
        String doc = Files.readString(Path.of("../docs/watch.md"));
        Matcher m = Pattern.compile("```yaml\\n(# vprof-watch-rules\\n.*?)```", Pattern.DOTALL).matcher(doc);
        assertTrue(m.find(), "docs/watch.md has its rules block");
        return m.group(1);
    }

    /** A vLLM-shaped /metrics: every request so far took between 1 s and 2.5 s to its first token. */
    private static HttpServer slowVllm() throws IOException {
        long start = System.nanoTime();
        return TextServer.start("/metrics", 200, "text/plain; version=0.0.4", () -> {
            long n = 10 * (1 + (System.nanoTime() - start) / 1_000_000_000L);
            String l = "engine=\"0\",model_name=\"m\"";
            return "# TYPE vllm:time_to_first_token_seconds histogram\n"
                    + "vllm:time_to_first_token_seconds_bucket{" + l + ",le=\"0.5\"} 0\n"
                    + "vllm:time_to_first_token_seconds_bucket{" + l + ",le=\"1.0\"} 0\n"
                    + "vllm:time_to_first_token_seconds_bucket{" + l + ",le=\"2.5\"} " + n + "\n"
                    + "vllm:time_to_first_token_seconds_bucket{" + l + ",le=\"+Inf\"} " + n + "\n"
                    + "vllm:time_to_first_token_seconds_count{" + l + "} " + n + "\n"
                    + "vllm:time_to_first_token_seconds_sum{" + l + "} " + (1.5 * n) + "\n";
        });
    }

    private static Set<String> firing(String api) {
        Set<String> names = new HashSet<>();
        try {
            for (JsonNode a : JSON.readTree(get(api + "alerts")).at("/data/alerts")) {
                if (a.path("state").asText().equals("firing")) {
                    names.add(a.at("/labels/alertname").asText());
                }
            }
        } catch (IOException e) {
            // not up yet
        }
        return names;
    }

    /** The first sample's value of an instant query, or "" when there is none (or Prometheus is not up yet). */
    private static String query(String api, String q) {
        try {
            JsonNode r = JSON.readTree(get(api + "query?query=" + URLEncoder.encode(q, StandardCharsets.UTF_8)))
                    .at("/data/result");
            return r.isArray() && !r.isEmpty() ? r.get(0).at("/value/1").asText() : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static String orZero(String v) {
        return v.isEmpty() ? "0" : v;
    }

    private static String get(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }

    static void await(BooleanSupplier cond, int seconds, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + seconds + " s: " + what);
            }
            Thread.sleep(200);
        }
    }

    /** Until the target's agent has made its region and waits, dormant. */
    static void awaitDormant(long pid) throws InterruptedException {
        Path region = E2e.awaitRegion(pid);
        E2e.await("pid " + pid + "'s agent DORMANT", 20_000, () -> E2e.stateOf(region) == AgentState.DORMANT);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
