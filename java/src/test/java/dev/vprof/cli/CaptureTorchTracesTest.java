package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.demo.SimulatedVllmServer;
import dev.vprof.loadgen.BenchResult;
import dev.vprof.loadgen.LoadGenerator;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.ReportJson;
import dev.vprof.capture.RecordVisitor;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof capture --trigger --torch-traces} against the simulated vLLM server started with a
 * torch_profiler_dir: one file whose kernels are the traces' (counted per name here, straight from
 * the JSON the server wrote), whose requests are the spans the server sent and whose metrics are
 * its scrapes; no agent anywhere. A trace left in the folder by another run is not folded in.
 */
@Timeout(120)
class CaptureTorchTracesTest {
    @TempDir
    Path dir;

    /** A loopback port free now (the server's exporter must know the receiver's address before it starts). */
    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Kernel count per name in Kineto JSON traces, read with Jackson's tree model. */
    static Map<String, Long> kernelsInJson(List<Path> traces) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        ObjectMapper m = new ObjectMapper();
        for (Path t : traces) {
            JsonNode root;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(t))) {
                root = m.readTree(in);
            }
            for (JsonNode e : root.get("traceEvents")) {
                if ("kernel".equals(e.path("cat").asText())) {
                    out.merge(e.get("name").asText(), 1L, Long::sum);
                }
            }
        }
        return out;
    }

    @Test
    void theCaptureHoldsTheTracesKernelsAndTheRequestsAndMetrics() throws Exception {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"));
        Path simgpu = nat.resolve("vprof-simgpu");
        assertTrue(Files.isExecutable(simgpu), "vprof-simgpu not built: mvn -B install builds it");
        Path torchDir = dir.resolve("vllm_profile");
        Files.createDirectories(torchDir);
        String captureErr;
        // Another run's trace, left behind with its own (old) time: never this capture's.
        Path old = torchDir.resolve("old-run_rank0.1700000000000.pt.trace.json");
        Files.writeString(old, "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"old_kernel\",\"pid\":0,"
                + "\"tid\":7,\"ts\":1.0,\"dur\":2.0,\"args\":{\"device\":0,\"stream\":7,\"correlation\":1}}]}");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minusSeconds(3600)));

        int port = freePort();
        URI otlp = URI.create("http://127.0.0.1:" + port + "/v1/traces");
        Path file = dir.resolve("torch.vprof");
        int requests = 10;
        long answeredBefore;
        long answeredDuring;
        try (ExecutorService runner = Executors.newSingleThreadExecutor();
             SimulatedVllmServer server = SimulatedVllmServer.start(SimulatedVllmServer.Config.demo(simgpu, Map.of(),
                otlp, dir).withTorchProfilerDir(torchDir))) {
            URI base = server.baseUri();
            // A cold server answers its first scrapes slowly; the demo warms it the same way.
            try (dev.vprof.metrics.MetricsScraper warm = dev.vprof.metrics.MetricsScraper.onDemand(
                    URI.create(base + "/metrics"), java.time.Duration.ofSeconds(2))) {
                for (int i = 0; i < 5; i++) {
                    warm.scrapeOnce();
                }
            }
            answeredBefore = server.metricsAnswered();
            // On a thread of its own, as `vprof capture` runs on its main thread, not in the common pool.
            CompletableFuture<Cli.Result> capture = CompletableFuture.supplyAsync(() -> Cli.run("capture",
                    "--trigger", base.toString(), "--torch-traces", torchDir.toString(),
                    "--torch-traces-timeout", "30s", "--metrics", base + "/metrics", "--metrics-interval", "2s", // 1.6 s per scrape: the loaded server answers late
                    "--otlp-http", "127.0.0.1:" + port, "--otlp-grpc", "off", "--duration", "5s",
                    "-o", file.toString()), runner);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!server.torchProfiling() && !capture.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(server.torchProfiling(), "the capture POSTed /start_profile: " + (capture.isDone()
                    ? capture.get().err() : "still starting"));
            BenchResult load = new LoadGenerator().run(new LoadGenerator.Plan(base, server.model(), requests, 20,
                    100, 400, 6, false, 3), r -> { });
            assertEquals(0, load.failed());
            Cli.Result r = capture.get(90, TimeUnit.SECONDS);
            answeredDuring = server.metricsAnswered() - answeredBefore;
            assertEquals(0, r.code(), r.err() + r.out());
            captureErr = r.err();
        }

        List<Path> traces = new ArrayList<>();
        try (var ds = Files.newDirectoryStream(torchDir, "*.pt.trace.json.gz")) {
            ds.forEach(traces::add);
        }
        assertEquals(2, traces.size(), "one trace per worker: " + traces);
        Map<String, Long> expected = kernelsInJson(traces);
        // The one summary line counts what the traces added (it said "0 processes, 0 kernels" before).
        long inJson = expected.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(captureErr.contains("vprof: wrote " + file + ": 2 processes, 0 ranges, " + inJson + " kernels, ")
                && captureErr.contains(" records (--torch-traces: folded 2 traces ("), captureErr);
        assertFalse(expected.isEmpty());

        Map<String, Long> got = new TreeMap<>();
        List<ProcessInfo> processes;
        JsonNode report;
        try (CaptureReader reader = CaptureReader.open(file)) {
            processes = reader.processes();
            reader.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    got.merge(name, 1L, Long::sum);
                }
            });
            report = new ObjectMapper().readTree(ReportJson.render(CaptureReport.build(reader, 1000)));
        }
        assertEquals(expected, got, "every kernel of the traces, by name, and nothing of the old run");
        assertEquals(2, processes.size());
        assertEquals(List.of(0, 1), processes.stream().map(ProcessInfo::rank).sorted().toList());
        assertEquals(requests, report.at("/spans/requests").asLong(), report.at("/spans").toString());
        assertEquals(requests, report.get("requests").size());
        // Every scrape of the 5 s is in the file, as a sample or as a gap (a loaded machine answers some late),
        // and the closing scrape always lands.
        JsonNode metrics = report.get("metrics");
        String why = metrics + "; the server sent " + answeredDuring + " /metrics answers meanwhile";
        assertTrue(metrics.get("scrapes").asLong() >= 1, why);
        assertTrue(metrics.get("scrapes").asLong() <= answeredDuring, why);
        assertTrue(metrics.get("scrapes").asLong() + metrics.get("gaps").size() >= 2, why);
        // The requests ran on the GPU work of the same clock: some phase of each overlapped a kernel.
        for (JsonNode q : report.get("requests")) {
            long gpu = q.get("gpu_ns_in_prefill").asLong() + q.get("gpu_ns_in_decode").asLong();
            assertTrue(gpu > 0, "kernels line up with request " + q);
        }
    }

    @Test
    void aFolderThatStaysEmptyIsNamed() throws Exception {
        Path torchDir = dir.resolve("never");
        Cli.Result r = Cli.run("capture", "--torch-traces", torchDir.toString(), "--torch-traces-timeout", "500ms",
                "--duration", "200ms", "-o", dir.resolve("x.vprof").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(torchDir + " stayed empty for 500ms"), r.err());
        assertTrue(r.err().contains("holds the rest of the capture"), r.err());
        assertTrue(Files.exists(dir.resolve("x.vprof")), "the rest of the capture is kept");
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void attachWithTorchTracesNeedsNoAgent() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            Path torchDir = dir.resolve("empty");
            Files.createDirectories(torchDir);
            Cli.Result r = Cli.run("attach", "--pid", Long.toString(sleeper.pid()), "--torch-traces", torchDir.toString(),
                    "--torch-traces-timeout", "300ms", "--duration", "200ms", "-o", dir.resolve("a.vprof").toString());
            assertTrue(r.err().contains("no agent in the tree of pid " + sleeper.pid()), r.err());
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("stayed empty for 300ms"), r.err());
        } finally {
            sleeper.destroy();
        }
    }

    @Test
    void anExistingOutputIsRefusedWithoutForce() throws Exception {
        Path out = dir.resolve("exists.vprof");
        Files.writeString(out, "keep me");
        Cli.Result r = Cli.run("capture", "--metrics", "127.0.0.1:1", "--duration", "100ms", "-o", out.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("already exists; pass --force"), r.err());
        assertEquals("keep me", Files.readString(out));
    }
}
