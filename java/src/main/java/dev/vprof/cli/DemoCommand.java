package dev.vprof.cli;

import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.capture.CaptureReader;
import dev.vprof.demo.SimulatedVllmServer;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.RegionFile;
import dev.vprof.engine.AgentEnvironment;
import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureEnvironment;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.Started;
import dev.vprof.export.ExportFormat;
import dev.vprof.export.Exporter;
import dev.vprof.html.HtmlReport;
import dev.vprof.loadgen.BenchResult;
import dev.vprof.loadgen.LoadGenerator;
import dev.vprof.metrics.MetricsScraper;
import dev.vprof.names.KernelNames;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.nativelib.Posix;
import dev.vprof.otlp.OtlpReceiverConfig;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import dev.vprof.report.TextReport;
import dev.vprof.source.CaptureSources;
import dev.vprof.timeline.TimelineSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code vprof demo}: the whole story without a GPU. A simulated vLLM server whose GPU workers run
 * the CUPTI test double under a dormant agent; an OTLP receiver its spans go to; a capture taken
 * exactly as {@code vprof attach --pid <this vprof> --capture-range=cudaProfilerApi
 * --capture-range-end=stop --metrics <server>/metrics --metrics-interval 200ms} takes it; a load
 * with a steady phase and a burst that overloads the server, bracketed by /start_profile and
 * /stop_profile; then the file, the traces, the report and the triage verdict.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Show vprof end to end in under a minute, no GPU needed: a simulated vLLM server with two "
                + "GPU workers (the CUPTI test double), a load with a burst that overloads it, and one capture "
                + "holding the kernels, the server's /metrics and its request spans.",
                "Writes capture.vprof, trace.pftrace (Perfetto), trace.json (Chrome), report.txt and report.html into --dir."},
        footer = {"", "Examples:", "  vprof demo", "  vprof demo --dir /tmp/demo --burst 100",
                "  vprof demo --serve &           # the server alone, on 127.0.0.1:8000, until Ctrl-C or SIGTERM",
                "  vprof demo --serve --port 0 --load 10 --otlp http://127.0.0.1:14318/v1/traces"})
final class DemoCommand implements Callable<Integer> {
    private static final long AGENTS_READY_NS = TimeUnit.SECONDS.toNanos(20);
    private static final long SPANS_WAIT_NS = TimeUnit.SECONDS.toNanos(10);

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "vprof-demo",
            description = "Where the files go. Default: ./${DEFAULT-VALUE}.")
    Path dir;

    @Option(names = "--steady", paramLabel = "N", defaultValue = "40",
            description = "Requests of the steady phase. Default: ${DEFAULT-VALUE}.")
    int steady;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "6",
            description = "Requests per second of the steady phase. Default: ${DEFAULT-VALUE}.")
    double rate;

    @Option(names = "--burst", paramLabel = "N", defaultValue = "60",
            description = "Requests sent at once after the steady phase. Default: ${DEFAULT-VALUE}.")
    int burst;

    @Option(names = "--max-tokens", paramLabel = "N", defaultValue = "48",
            description = "Tokens generated per request. Default: ${DEFAULT-VALUE}.")
    int maxTokens;

    @Option(names = "--no-torch-path", description = "Skip the last step: the same server's torch profiler traces "
            + "captured with vprof capture --torch-traces, no agent.")
    boolean noTorchPath;

    @Option(names = "--serve", description = "Start the simulated vLLM server and keep it up until Ctrl-C or "
            + "SIGTERM, for trying the commands of a real server on it (README: \"Profiling a real server\"): prints "
            + "its URL and its GPU workers' pids; nothing is captured or written but the workers' logs in --dir.")
    boolean serve;

    @Option(names = "--port", paramLabel = "P", defaultValue = "8000",
            description = "With --serve: the HTTP port, 0 for a free one. Default: ${DEFAULT-VALUE}, as vLLM's.")
    int port;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "With --serve: the address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
    String host;

    @Option(names = "--otlp", paramLabel = "URL", defaultValue = "http://127.0.0.1:4318/v1/traces",
            description = "With --serve: where the server sends its llm_request spans (OTLP/HTTP JSON; HOST:PORT means "
                    + "http://HOST:PORT/v1/traces). Default: ${DEFAULT-VALUE}, where `vprof attach --otlp` listens.")
    String otlp;

    @Option(names = "--no-otlp", description = "With --serve: export no spans.")
    boolean noOtlp;

    @Option(names = "--load", paramLabel = "R", defaultValue = "4",
            description = "With --serve: requests per second the server sends itself, so captures have requests "
                    + "and kernels; 0 for none (bring your own, e.g. vprof bench). Default: ${DEFAULT-VALUE}.")
    double load;

    @Option(names = "--torch-profiler-dir", paramLabel = "DIR",
            description = "With --serve: also write a PyTorch profiler trace per worker into DIR on /stop_profile, as "
                    + "vLLM's torch profiler does (for vprof capture --torch-traces DIR).")
    Path torchProfilerDir;

    private PrintWriter err;
    private long t0;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        if (serve) {
            return serve(out);
        }
        for (String o : new String[] {"--port", "--host", "--otlp", "--no-otlp", "--load", "--torch-profiler-dir"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new CliException(o + " is an option of vprof demo --serve; add --serve, or leave it out");
            }
        }
        if (steady < 0 || burst < 0 || steady + burst == 0) {
            throw new CliException("--steady and --burst must be 0 or more, and not both 0");
        }
        if (!(rate > 0)) {
            throw new CliException("--rate must be positive");
        }
        if (maxTokens < 1) {
            throw new CliException("--max-tokens must be at least 1");
        }
        t0 = System.nanoTime();
        Path simgpu;
        Path agent;
        try {
            simgpu = NativeFiles.require(NativeFiles.SIMGPU);
            agent = NativeFiles.require(NativeFiles.AGENT);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CliException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        Path capture = dir.resolve("capture.vprof");

        step("starting an OTLP receiver on an ephemeral loopback port");
        // Opened first, as attach opens its feeds: the server's exporter needs the address at its start.
        CaptureFeeds feeds = CaptureFeeds.open(new OtlpReceiverConfig(null,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null, OtlpReceiverConfig.DEFAULT_MAX_BODY_BYTES),
                null, err);
        URI traces = URI.create("http://127.0.0.1:" + feeds.otlpHttpAddress().getPort() + "/v1/traces");

        step("starting the simulated vLLM server; its 2 GPU workers carry a dormant vprof agent");
        Map<String, String> env = new HashMap<>();
        // The agent rides in each worker, dormant: no VPROF_ARM, so it waits for an attach.
        AgentEnvironment.apply(env, agent, 32L << 20, null);
        SimulatedVllmServer server;
        try {
            server = SimulatedVllmServer.start(SimulatedVllmServer.Config.demo(simgpu, env, traces, dir)
                    .withTorchProfilerDir(dir.resolve("torch_traces")));
        } catch (IOException e) {
            feeds.close();
            throw new CliException("cannot start the simulated server: " + e.getMessage(), e);
        }
        try {
            return run(out, server, feeds, capture);
        } finally {
            server.close();
            feeds.close();
        }
    }

    private int run(PrintWriter out, SimulatedVllmServer server, CaptureFeeds feeds, Path capture) throws Exception {
        URI base = server.baseUri();
        int otlpPort = feeds.otlpHttpAddress().getPort(); // the torch path's capture listens there again
        awaitDormantAgents(server.workerPids());
        warmUp(URI.create(base + "/metrics"));
        int self = (int) ProcessHandle.current().pid();

        // The capture `vprof attach` would take with these options, through the same engine.
        String[] attachArgs = {"--capture-range=cudaProfilerApi", "--capture-range-end=stop",
                "--metrics", base + "/metrics", "--metrics-interval", "200ms"};
        step("attaching: vprof attach --pid " + self + " " + String.join(" ", attachArgs));
        CaptureOptions options = CaptureOptions.parse(attachArgs);
        options.validate();
        CapturePlan plan = options.plan(CapturePlan.Mode.ATTACH)
                .rootPid(self).arm(options.toSpec(Capture.newCaptureId())).output(capture)
                .commandLine(List.of("demo", "attach", "--pid", Integer.toString(self)))
                .build();
        Capture running = Capture.start(plan, Started.feeds(feeds),
                new CaptureEnvironment(AgentDirectory.system(), err, false));

        LoadGenerator load = new LoadGenerator();
        String model = server.model();
        step("POST " + base + "/start_profile: the workers call cudaProfilerStart, the capture range opens");
        load.post(base.resolve("/start_profile"));
        int sent = 0;
        int failed = 0;
        if (steady > 0) {
            step(String.format("steady load: %d requests at %s req/s", steady, num(rate)));
            BenchResult r = load.run(new LoadGenerator.Plan(base, model, steady, rate, 200, 1200, maxTokens, false, 1),
                    counter(steady));
            sent += r.requests();
            failed += r.failed();
            step(String.format("steady: client TTFT p50 %.0f ms, p99 %.0f ms (the load generator's clock)", r.ttftP50Ms(),
                    r.ttftP99Ms()));
        }
        if (burst > 0) {
            step(String.format("burst: %d requests at once, more than the server's 16 batch slots: the queue builds",
                    burst));
            BenchResult r = load.run(new LoadGenerator.Plan(base, model, burst, Double.POSITIVE_INFINITY, 200, 1200,
                    maxTokens, false, 2), counter(burst));
            sent += r.requests();
            failed += r.failed();
            step(String.format("burst: client TTFT p50 %.0f ms, p99 %.0f ms (the load generator's clock)", r.ttftP50Ms(),
                    r.ttftP99Ms()));
        }
        awaitSpans(feeds, sent);
        step("POST " + base + "/stop_profile: cudaProfilerStop, the range ends and the capture finishes");
        load.post(base.resolve("/stop_profile"));
        if (running.awaitSummary(30, TimeUnit.SECONDS) == null) {
            // The agents should have gone dormant by themselves; do not hang the demo if one did not.
            running.stop("demo");
            if (running.awaitSummary(30, TimeUnit.SECONDS) == null) {
                throw new CliException("the capture did not finish within a minute of /stop_profile");
            }
        }

        Path torchCapture = noTorchPath ? null : DemoTorchPath.run(server, dir.resolve("torch_traces"), dir,
                otlpPort, err, this::step);
        step("writing the traces and the report into " + dir);
        List<Path> traceFiles = exportTraces(capture);
        String reportText;
        String reportPage;
        try (CaptureReader reader = CaptureSources.open(capture)) {
            // The report leads with the triage verdict over the capture window (its metrics, and
            // the requests' latencies from their spans).
            Report built = CaptureReport.build(reader, 10);
            reportText = TextReport.render(built);
            reportPage = HtmlReport.render(reader, built, KernelNames.demangled());
        }
        Path report = dir.resolve("report.txt");
        Files.writeString(report, reportText);
        Path page = dir.resolve("report.html");
        HtmlReport.write(reportPage, page);
        out.println(reportText);
        out.println("Files in " + dir + ":");
        out.printf("  %-14s the capture (vprof report %s)%n", capture.getFileName(), capture);
        for (Path t : traceFiles) {
            out.printf("  %-14s %s%n", t.getFileName(), t.toString().endsWith(".json")
                    ? "Chrome trace JSON (chrome://tracing, or Perfetto)" : "Perfetto trace");
        }
        out.printf("  %-14s this report%n", report.getFileName());
        if (torchCapture != null) {
            out.printf("  %-14s the same server through its torch profiler, no agent (vprof report %s)%n",
                    torchCapture.getFileName(), torchCapture);
        }

        out.printf("  %-14s this report as one page: open it in a browser (file://%s)%n", page.getFileName(),
                page.toAbsolutePath());
        out.println("Open the trace: https://ui.perfetto.dev -> \"Open trace file\" -> "
                + traceFiles.getFirst().toAbsolutePath());
        out.printf("vprof demo: done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        out.flush();
        if (failed > 0) {
            err.println("vprof demo: warning: " + failed + " of " + sent + " requests failed");
        }
        return 0;
    }

    private int serve(PrintWriter out) throws InterruptedException {
        for (String o : new String[] {"--steady", "--rate", "--burst", "--no-torch-path"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new CliException(o + " shapes the demo's own run, not --serve; for load on the server use "
                        + "--load R or vprof bench");
            }
        }
        if (port < 0 || port > 65535) {
            throw new CliException("--port must be between 0 and 65535, not " + port);
        }
        if (!(load >= 0) || Double.isInfinite(load)) {
            throw new CliException("--load must be 0 or a positive number of requests per second");
        }
        if (maxTokens < 1) {
            throw new CliException("--max-tokens must be at least 1");
        }
        return DemoServe.run(new DemoServe.Options(host, port, noOtlp ? null : DemoServe.otlpUrl(otlp), load, maxTokens,
                dir, torchProfilerDir), out, err);
    }

    /** Until the agents in both workers have made their regions and are DORMANT (CUDA initialized). */
    private void awaitDormantAgents(List<Long> pids) throws InterruptedException {
        AgentDirectory agents = AgentDirectory.system();
        long deadline = System.nanoTime() + AGENTS_READY_NS;
        while (true) {
            int ready = 0;
            for (RegionFile f : agents.within(new HashSet<>(pids.stream().map(Long::intValue).toList()))) {
                try (Region r = Region.open(f.path(), Posix.getuid(), false)) {
                    if (r.state() == AgentState.DORMANT) {
                        ready++;
                    }
                } catch (RegionException e) {
                    // not ready yet
                }
            }
            if (ready == pids.size()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new CliException("the simulated GPU workers' agents did not come up within 20 s (" + ready + " of "
                        + pids.size() + " ready); see the worker logs in " + dir);
            }
            Thread.sleep(50);
        }
    }

    /**
     * A few reads of /metrics before the capture: a cold JVM answers the first ones slower than the
     * 160 ms a 200 ms scrape interval allows, and the capture would open with gaps.
     */
    private static void warmUp(URI metrics) {
        try (MetricsScraper s = MetricsScraper.onDemand(metrics,
                Duration.ofSeconds(2))) {
            for (int i = 0; i < 5; i++) {
                s.scrapeOnce();
            }
        }
    }

    /** Every request's span reaches the capture before /stop_profile ends it (the exporter batches). */
    private void awaitSpans(CaptureFeeds feeds, int requests) throws InterruptedException {
        long deadline = System.nanoTime() + SPANS_WAIT_NS;
        while (feeds.spansAccepted() < requests && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        long got = feeds.spansAccepted();
        if (got < requests) {
            err.println("vprof demo: warning: " + got + " of " + requests + " request spans arrived in time");
        }
    }

    /** trace.pftrace (Perfetto) and trace.json (Chrome) from the capture, as {@code vprof export} writes them. */
    private List<Path> exportTraces(Path capture) throws IOException {
        List<Path> files = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(capture)) {
            TimelineSource source = CaptureTimeline.stream(reader, KernelNames.demangled(), null).source();
            files.addAll(Exporter.export(source, dir.resolve("trace.pftrace"), ExportFormat.PERFETTO));
            files.addAll(Exporter.export(source, dir.resolve("trace.json"), ExportFormat.CHROME));
        }
        return files;
    }

    private Consumer<LoadGenerator.RequestResult> counter(int total) {
        AtomicInteger done = new AtomicInteger();
        int every = Math.max(1, total / 4);
        return r -> {
            int n = done.incrementAndGet();
            if (n % every == 0 || n == total) {
                step("  " + n + "/" + total + " requests done");
            }
        };
    }

    private void step(String s) {
        synchronized (err) {
            err.printf("vprof demo [%5.1fs] %s%n", (System.nanoTime() - t0) / 1e9, s);
            err.flush();
        }
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
