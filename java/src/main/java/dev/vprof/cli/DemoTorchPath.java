package dev.vprof.cli;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.demo.SimulatedVllmServer;
import dev.vprof.loadgen.BenchResult;
import dev.vprof.loadgen.LoadGenerator;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * The demo's torch-profiler path: the same simulated server, started as vLLM is with
 * {@code --profiler-config '{"profiler":"torch","torch_profiler_dir":DIR}'}, captured by
 * {@code vprof capture --trigger … --torch-traces DIR} (the real command, no agent armed) while a
 * short load runs: one file with the kernels of the workers' torch traces, the requests' spans
 * and the server's metrics.
 */
final class DemoTorchPath {
    private DemoTorchPath() {}

    static final String FILE = "torch-capture.vprof";

    /** Runs the path; returns the capture file. {@code otlpPort}: where the server sends its spans. */
    static Path run(SimulatedVllmServer server, Path torchDir, Path dir, int otlpPort, PrintWriter err,
                    Consumer<String> step) throws Exception {
        URI base = server.baseUri();
        Path file = dir.resolve(FILE);
        String[] args = {"capture", "--trigger", base.toString(), "--torch-traces", torchDir.toString(),
                "--torch-traces-timeout", "60s", "--metrics", base + "/metrics", "--otlp-http", "127.0.0.1:" + otlpPort,
                "--otlp-grpc", "off", "--duration", "4s", "--force", "-o", file.toString()};
        step.accept("torch-profiler path: vprof " + String.join(" ", args));
        StringWriter captureLog = new StringWriter();
        // On a thread of its own, as the command runs on main: in the common pool it would hold that
        // pool's worker (one on 2 cores) for the whole capture, where the JDK's HTTP client
        // completes its futures.
        CompletableFuture<Integer> capture = new CompletableFuture<>();
        Thread.ofPlatform().name("vprof-demo-torch-capture").daemon().start(() -> {
            try {
                CommandLine cl = Main.commandLine();
                cl.setOut(new PrintWriter(captureLog, true));
                cl.setErr(new PrintWriter(captureLog, true));
                capture.complete(cl.execute(args));
            } catch (RuntimeException | Error e) {
                capture.completeExceptionally(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.torchProfiling() && !capture.isDone() && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        if (server.torchProfiling()) {
            step.accept("torch-profiler path: the server's torch profiler records; 12 requests");
            BenchResult load = new LoadGenerator().run(new LoadGenerator.Plan(base, server.model(), 12, 8, 200, 800, 16,
                    false, 5), r -> { });
            if (load.failed() > 0) {
                err.println("vprof demo: warning: " + load.failed() + " of 12 requests failed");
            }
        }
        int code = capture.get(120, TimeUnit.SECONDS);
        for (String line : captureLog.toString().split("\n")) {
            if (line.contains("--torch-traces") || line.startsWith("vprof: wrote")) {
                step.accept("  " + line);
            }
        }
        if (code != 0) {
            err.print(captureLog);
            throw new CliException("the demo's torch-profiler path failed (the capture's own lines are above)");
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
        step.accept(String.format("torch-profiler path: %s holds %d kernels from %d workers' torch traces, %d requests"
                        + " and the server's metrics; no agent", file.getFileName(), kernels[0],
                report.processes().size(), requests.size()));
        return file;
    }
}
