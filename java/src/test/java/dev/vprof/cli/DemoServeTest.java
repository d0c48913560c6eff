package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof demo --serve} in a JVM of its own, and the README's "Profiling a real server"
 * sequence run against it as written there (shorter windows, and free ports instead of 8000 and
 * 4317/4318, which other runs on this machine may hold): triage, attach to a worker with
 * --trigger --metrics --otlp, report, export. Then SIGTERM: the server exits 0 and its workers are gone.
 */
class DemoServeTest {
    private static final Pattern URL = Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+)");
    private static final Pattern WORKERS = Pattern.compile("worker pids: ([\\d ]+?) \\(");
    private static final Pattern SERVER = Pattern.compile("server pid: (\\d+) ");

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void readmeSequenceAgainstTheServedDemo(@TempDir Path dir) throws Exception {
        E2e e2e = E2e.nativeParts();
        int otlpPort = freePort();
        ProcessBuilder pb = new ProcessBuilder(e2e.vprofCommand("demo", "--serve", "--port", "0", "--load", "8",
                "--otlp", "127.0.0.1:" + otlpPort, "--dir", dir.resolve("logs").toString()))
                .redirectError(dir.resolve("serve.err").toFile());
        Process serve = pb.start();
        LinkedBlockingQueue<String> lines = E2e.stdoutLines(serve);
        List<Long> workers = new ArrayList<>();
        try {
            String base = null;
            String serverPid = null;
            StringBuilder seen = new StringBuilder();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (workers.isEmpty() && System.nanoTime() < deadline) {
                String l = lines.poll(1, TimeUnit.SECONDS);
                if (l == null) {
                    assertTrue(serve.isAlive(), "demo --serve exited: " + seen + Files.readString(dir.resolve("serve.err")));
                    continue;
                }
                seen.append(l).append('\n');
                Matcher u = URL.matcher(l);
                if (u.find()) {
                    base = u.group(1);
                }
                Matcher p = SERVER.matcher(l);
                if (p.find()) {
                    serverPid = p.group(1);
                }
                Matcher w = WORKERS.matcher(l);
                if (w.find()) {
                    Arrays.stream(w.group(1).trim().split(" ")).map(Long::parseLong).forEach(workers::add);
                }
            }
            assertNotNull(base, "no URL printed: " + seen);
            assertEquals(2, workers.size(), "worker pids printed: " + seen);

            // The running server's folder is its own: another demo there is refused, --force or not.
            Path logs = dir.resolve("logs");
            Cli.Result beside = Cli.run("demo", "--dir", logs.toString(), "--force", "--no-torch-path");
            assertEquals(ExitCode.CANNOT.code(), beside.code(), beside.err());
            assertTrue(beside.err().contains(logs + " is in use by a running vprof demo (pid " + serverPid + ")"),
                    beside.err());
            assertTrue(Files.exists(logs.resolve("worker-0.log")), "the server's worker logs are there");

            // Tier 1: the verdict from /metrics alone.
            Cli.Result triage = E2e.ok(Cli.run("triage", "--url", base, "--window", "2s", "--json"));
            JsonNode verdict = new ObjectMapper().readTree(triage.out());
            assertTrue(verdict.toString().contains("healthy") || verdict.toString().contains("bound"),
                    "a verdict: " + triage.out());

            // The README's attach, on one worker, with spans received where the server sends them.
            Path file = dir.resolve("slow.vprof");
            Cli.Result attach = E2e.ok(Cli.run("attach", "--pid", Long.toString(workers.getFirst()),
                    "--capture-range=cudaProfilerApi", "--trigger", base, "--metrics", base + "/metrics",
                    "--otlp-http", Integer.toString(otlpPort), "--otlp-grpc", "off", "--duration", "6s",
                    "-o", file.toString()));
            assertTrue(attach.err().contains("POST " + base + "/start_profile ok"), attach.err());

            JsonNode report = E2e.report(file);
            assertTrue(E2e.kernels(report) > 0, "kernels in the capture: " + report.get("totals"));
            assertEquals(1, report.at("/totals/processes").asInt(), "one worker captured");
            assertEquals(workers.getFirst().longValue(), report.at("/processes/0/pid").asLong());
            assertTrue(report.at("/spans/requests").asInt() > 0, "requests from spans: " + report.get("spans"));
            assertTrue(report.at("/metrics/scrapes").asInt() >= 2, "metric scrapes: " + report.get("metrics"));
            assertEquals(0, E2e.lost(report), "nothing lost");

            Path trace = dir.resolve("slow.pftrace");
            E2e.ok(Cli.run("export", file.toString(), "-o", trace.toString()));
            assertTrue(Files.size(trace) > 0);
        } finally {
            serve.destroy(); // SIGTERM
            assertTrue(serve.waitFor(30, TimeUnit.SECONDS), "demo --serve did not exit within 30 s of SIGTERM");
        }
        String err = Files.readString(dir.resolve("serve.err"));
        assertEquals(0, serve.exitValue(), "exit code after SIGTERM; stderr: " + err);
        assertTrue(err.contains("SIGTERM"), err);
        for (long w : workers) {
            assertFalse(ProcessHandle.of(w).map(ProcessHandle::isAlive).orElse(false), "worker " + w + " left running");
            assertFalse(Files.exists(Path.of("/dev/shm/vprof." + w)), "worker " + w + "'s region left behind");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTakenPortIsOneSentenceAndStartsNoWorker() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            E2e.nativeParts();
            Cli.Result r = Cli.run("demo", "--serve", "--port", Integer.toString(taken.getLocalPort()), "--load", "0");
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()), r.err());
            assertTrue(r.err().contains("--port"), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one sentence: " + r.err());
            assertTrue(ProcessHandle.current().children().noneMatch(
                    h -> h.info().command().orElse("").endsWith("vprof-simgpu")), "a worker was started");
        }
    }

    @Test
    void serveOptionsWithoutServeAreRefused() {
        Cli.Result r = Cli.run("demo", "--port", "9000");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--port is an option of vprof demo --serve"), r.err());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
