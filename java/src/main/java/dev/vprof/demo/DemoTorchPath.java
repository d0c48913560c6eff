package dev.vprof.demo;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.loadgen.BenchResult;
import dev.vprof.loadgen.LoadGenerator;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The demo's torch-profiler path: the same simulated server, started as vLLM is with
 * {@code --profiler-config '{"profiler":"torch","torch_profiler_dir":DIR}'}, captured by
 * {@code vprof capture --trigger … --torch-traces DIR} (the real command, through
 * {@link DemoScenario.Captures#command}, no agent armed) while a short load runs: one file with the
 * kernels of the workers' torch traces, the requests' spans and the server's metrics.
 */
final class DemoTorchPath {
    private DemoTorchPath() {}

    static final String FILE = "torch-capture.vprof";

    /** Runs the path; returns the capture file. {@code otlpPort}: where the server sends its spans. */
    static Path run(SimulatedVllmServer server, Path torchDir, Path dir, int otlpPort, DemoPlan.TorchPath path,
                    DemoScenario.Captures captures, DemoScenario.Listener listener)
            throws IOException, InterruptedException, ExecutionException, TimeoutException {
        URI base = server.baseUri();
        Path file = dir.resolve(FILE);
        List<String> args = List.of("capture", "--trigger", base.toString(), "--torch-traces", torchDir.toString(),
                "--torch-traces-timeout", duration(path.tracesTimeout()), "--metrics", base + "/metrics",
                "--otlp-http", "127.0.0.1:" + otlpPort, "--otlp-grpc", "off", "--duration", duration(path.duration()),
                "--force", "-o", file.toString());
        listener.step("torch-profiler path: vprof " + String.join(" ", args));
        StringWriter captureLog = new StringWriter();
        // On a thread of its own, as the command runs on main: in the common pool it would hold that
        // pool's worker (one on 2 cores) for the whole capture, where the JDK's HTTP client
        // completes its futures.
        CompletableFuture<Integer> capture = new CompletableFuture<>();
        Thread.ofPlatform().name("vprof-demo-torch-capture").daemon().start(() -> {
            try {
                capture.complete(captures.command(args, new PrintWriter(captureLog, true)));
            } catch (RuntimeException | Error e) {
                capture.completeExceptionally(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.torchProfiling() && !capture.isDone() && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        if (server.torchProfiling()) {
            listener.step("torch-profiler path: the server's torch profiler records; " + path.requests() + " requests");
            BenchResult load = new LoadGenerator().run(new LoadGenerator.Plan(base, server.model(), path.requests(),
                    path.rate(), 200, 800, path.maxTokens(), false, 5), r -> { });
            if (load.failed() > 0) {
                listener.warning(load.failed() + " of " + path.requests() + " requests failed");
            }
        }
        int code = capture.get(120, TimeUnit.SECONDS);
        for (String line : captureLog.toString().split("\n")) {
            if (line.contains("--torch-traces") || line.startsWith("vprof: wrote")) {
                listener.step("  " + line);
            }
        }
        if (code != 0) {
            throw new DemoException("the demo's torch-profiler path failed (the capture's own lines are above)",
                    captureLog.toString(), null);
        }
        long[] kernels = {0};
        Report report;
        try (CaptureReader reader = CaptureReader.open(file)) {
            reader.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    kernels[0]++;
                }
            });
            report = CaptureReport.build(reader, 10);
        }
        List<Report.RequestSummary> requests = report.requests();
        listener.step(String.format("torch-profiler path: %s holds %d kernels from %d workers' torch traces, %d requests"
                        + " and the server's metrics; no agent", file.getFileName(), kernels[0],
                report.processes().size(), requests.size()));
        return file;
    }

    /** A duration as the command's options take it: 4s, 1500ms. */
    static String duration(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
