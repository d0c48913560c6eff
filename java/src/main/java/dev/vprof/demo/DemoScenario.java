package dev.vprof.demo;

import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.capture.CaptureReader;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.engine.AgentEnvironment;
import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.export.ExportFormat;
import dev.vprof.export.Exporter;
import dev.vprof.html.HtmlReport;
import dev.vprof.loadgen.BenchResult;
import dev.vprof.loadgen.LoadGenerator;
import dev.vprof.metrics.MetricsScraper;
import dev.vprof.names.KernelNames;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.otlp.OtlpReceiverConfig;
import dev.vprof.region.AgentState;
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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * {@code vprof demo}'s scenario, run from a {@link DemoPlan}: an OTLP receiver; the simulated vLLM
 * server, whose GPU workers run the CUPTI test double under a dormant agent; a capture taken
 * exactly as {@code vprof attach --pid <this vprof>} with {@link #attachArgs} takes it; the plan's load
 * phases bracketed by /start_profile and /stop_profile; the torch-profiler path; then the traces
 * and the reports in the plan's folder. It prints nothing: progress goes to a {@link Listener}, the
 * engine's own lines to the log it is given, and what the person reads at the end comes back as a
 * {@link Result}. The two captures are made by the commands' own option parsing ({@link Captures}),
 * so that the demo takes them exactly as {@code attach} and {@code capture} would.
 */
public final class DemoScenario {
    /**
     * The options of the demo's capture of the server at {@code base}, as
     * {@code vprof attach --pid <this vprof>} takes them: the profiler range the server's
     * /start_profile and /stop_profile open and close, and its /metrics every 200 ms.
     */
    public static List<String> attachArgs(URI base) {
        return List.of("--capture-range=cudaProfilerApi", "--capture-range-end=stop", "--metrics", base + "/metrics",
                "--metrics-interval", "200ms");
    }

    /** Where the server's torch profiler writes its traces, inside the plan's folder. */
    public static final String TORCH_TRACES = "torch_traces";

    private static final long AGENTS_READY_NS = TimeUnit.SECONDS.toNanos(20);
    private static final long SPANS_WAIT_NS = TimeUnit.SECONDS.toNanos(10);

    /** What the demo says while it runs. Called from the demo's thread and the load generator's. */
    public interface Listener {
        /** One progress line. */
        void step(String line);

        /** Something went less well than planned (requests failed, spans late); the demo goes on. */
        void warning(String line);
    }

    /** The demo's two captures, made as the commands make them. */
    public interface Captures {
        /**
         * Starts the capture {@code vprof attach --pid pid ARGS} takes, into {@code file}, with the
         * spans of {@code feeds} (which the capture closes).
         */
        Capture attach(int pid, List<String> args, Path file, CaptureFeeds feeds);

        /** Runs {@code vprof ARGS} to its end, its output and errors into {@code log}; its exit code. */
        int command(List<String> args, PrintWriter log);
    }

    /**
     * What the demo made.
     *
     * @param reportText   the report, as report.txt holds it
     * @param torchCapture the torch-profiler path's capture, or null when the plan has none
     * @param requests     the requests the phases sent
     * @param failed       how many of them failed
     */
    public record Result(Path capture, List<Path> traces, Path report, Path page, String reportText, Path torchCapture,
                         int requests, int failed) {
        public Result {
            traces = List.copyOf(traces);
        }
    }

    private final DemoPlan plan;
    private final Captures captures;
    private final Listener listener;
    private final PrintWriter log;

    private DemoScenario(DemoPlan plan, Captures captures, Listener listener, PrintWriter log) {
        this.plan = plan;
        this.captures = captures;
        this.listener = listener;
        this.log = log;
    }

    /** Runs {@code plan}; {@code log} takes the engine's own lines (the OTLP receiver's). */
    public static Result run(DemoPlan plan, Captures captures, Listener listener, PrintWriter log) throws Exception {
        return new DemoScenario(plan, captures, listener, log).run();
    }

    /**
     * The demo's server, as {@code vprof demo} starts it: two GPU workers on the CUPTI test double,
     * each with a dormant agent that waits for an attach; its spans to {@code otlpTraces} (null for
     * none), the workers' logs in {@code logDir}.
     */
    public static SimulatedVllmServer.Config serverConfig(URI otlpTraces, Path logDir) throws IOException {
        return serverConfig(NativeFiles.require(NativeFiles.SIMGPU), NativeFiles.require(NativeFiles.AGENT),
                otlpTraces, logDir);
    }

    private static SimulatedVllmServer.Config serverConfig(Path simgpu, Path agent, URI otlpTraces, Path logDir) {
        Map<String, String> env = new HashMap<>();
        // The agent rides in each worker, dormant: no VPROF_ARM, so it waits for an attach.
        AgentEnvironment.apply(env, agent, 32L << 20, null);
        return SimulatedVllmServer.Config.demo(simgpu, env, otlpTraces, logDir);
    }

    private Result run() throws Exception {
        Path dir = plan.dir();
        Path simgpu;
        Path agent;
        try {
            simgpu = NativeFiles.require(NativeFiles.SIMGPU);
            agent = NativeFiles.require(NativeFiles.AGENT);
        } catch (IOException e) {
            throw new DemoException(e.getMessage(), e);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new DemoException("cannot create " + dir + ": " + e.getMessage(), e);
        }

        listener.step(plan.otlpPort() == 0 ? "starting an OTLP receiver on an ephemeral loopback port"
                : "starting an OTLP receiver on loopback port " + plan.otlpPort());
        // Opened first, as attach opens its feeds: the server's exporter needs the address at its start.
        CaptureFeeds feeds = CaptureFeeds.open(new OtlpReceiverConfig(null,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), plan.otlpPort()), null,
                OtlpReceiverConfig.DEFAULT_MAX_BODY_BYTES), null, log);
        URI traces = URI.create("http://127.0.0.1:" + feeds.otlpHttpAddress().getPort() + "/v1/traces");

        listener.step("starting the simulated vLLM server; its 2 GPU workers carry a dormant vprof agent");
        SimulatedVllmServer server;
        try {
            server = SimulatedVllmServer.start(serverConfig(simgpu, agent, traces, dir)
                    .withTorchProfilerDir(dir.resolve(TORCH_TRACES)));
        } catch (IOException e) {
            feeds.close();
            throw new DemoException("cannot start the simulated server: " + e.getMessage(), e);
        }
        try {
            return run(server, feeds);
        } finally {
            server.close();
            feeds.close();
        }
    }

    private Result run(SimulatedVllmServer server, CaptureFeeds feeds) throws Exception {
        Path dir = plan.dir();
        Path capture = dir.resolve("capture.vprof");
        URI base = server.baseUri();
        int otlpPort = feeds.otlpHttpAddress().getPort(); // the torch path's capture listens there again
        awaitDormantAgents(server.workerPids());
        warmUp(URI.create(base + "/metrics"));
        int self = (int) ProcessHandle.current().pid();

        // The capture `vprof attach` would take with these options, through the same engine.
        List<String> attachArgs = attachArgs(base);
        listener.step("attaching: vprof attach --pid " + self + " " + String.join(" ", attachArgs));
        Capture running = captures.attach(self, attachArgs, capture, feeds);

        LoadGenerator load = new LoadGenerator();
        String model = server.model();
        listener.step("POST " + base + "/start_profile: the workers call cudaProfilerStart, the capture range opens");
        load.post(base.resolve("/start_profile"));
        int sent = 0;
        int failed = 0;
        for (DemoPlan.Phase phase : plan.phases()) {
            String name = phase.kind() == DemoPlan.Phase.Kind.STEADY ? "steady" : "burst";
            listener.step(phase.kind() == DemoPlan.Phase.Kind.STEADY
                    ? String.format("steady load: %d requests at %s req/s", phase.requests(), num(phase.rate()))
                    : String.format("burst: %d requests at once, more than the server's 16 batch slots: the queue "
                            + "builds", phase.requests()));
            BenchResult r = load.run(new LoadGenerator.Plan(base, model, phase.requests(), phase.rate(), 200, 1200,
                    plan.maxTokens(), false, phase.seed()), counter(phase.requests()));
            sent += r.requests();
            failed += r.failed();
            listener.step(String.format("%s: client TTFT p50 %.0f ms, p99 %.0f ms (the load generator's clock)", name,
                    r.ttftP50Ms(), r.ttftP99Ms()));
        }
        awaitSpans(feeds, sent);
        listener.step("POST " + base + "/stop_profile: cudaProfilerStop, the range ends and the capture finishes");
        load.post(base.resolve("/stop_profile"));
        if (running.awaitSummary(30, TimeUnit.SECONDS) == null) {
            // The agents should have gone dormant by themselves; do not hang the demo if one did not.
            running.stop("demo");
            if (running.awaitSummary(30, TimeUnit.SECONDS) == null) {
                throw new DemoException("the capture did not finish within a minute of /stop_profile");
            }
        }

        Path torchCapture = plan.torchPath() == null ? null : DemoTorchPath.run(server, dir.resolve(TORCH_TRACES), dir,
                otlpPort, plan.torchPath(), captures, listener);
        listener.step("writing the traces and the report into " + dir);
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
        return new Result(capture, traceFiles, report, page, reportText, torchCapture, sent, failed);
    }

    /** Until the agents in every worker have made their regions and are DORMANT (CUDA initialized). */
    private void awaitDormantAgents(List<Long> pids) throws InterruptedException {
        AgentDirectory agents = AgentDirectory.system();
        Set<Integer> workers = new HashSet<>(pids.stream().map(Long::intValue).toList());
        long deadline = System.nanoTime() + AGENTS_READY_NS;
        while (true) {
            long ready = agents.states(workers).values().stream().filter(s -> s == AgentState.DORMANT).count();
            if (ready == pids.size()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new DemoException("the simulated GPU workers' agents did not come up within 20 s (" + ready
                        + " of " + pids.size() + " ready); see the worker logs in " + plan.dir());
            }
            Thread.sleep(50);
        }
    }

    /**
     * A few reads of /metrics before the capture: a cold JVM answers the first ones slower than the
     * 160 ms a 200 ms scrape interval allows, and the capture would open with gaps.
     */
    private static void warmUp(URI metrics) {
        try (MetricsScraper s = MetricsScraper.onDemand(metrics, Duration.ofSeconds(2))) {
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
            listener.warning(got + " of " + requests + " request spans arrived in time");
        }
    }

    /** trace.pftrace (Perfetto) and trace.json (Chrome) from the capture, as {@code vprof export} writes them. */
    private List<Path> exportTraces(Path capture) throws IOException {
        List<Path> files = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(capture)) {
            TimelineSource source = CaptureTimeline.stream(reader, KernelNames.demangled(), null).source();
            files.addAll(Exporter.export(source, plan.dir().resolve("trace.pftrace"), ExportFormat.PERFETTO));
            files.addAll(Exporter.export(source, plan.dir().resolve("trace.json"), ExportFormat.CHROME));
        }
        return files;
    }

    private Consumer<LoadGenerator.RequestResult> counter(int total) {
        AtomicInteger done = new AtomicInteger();
        int every = Math.max(1, total / 4);
        return r -> {
            int n = done.incrementAndGet();
            if (n % every == 0 || n == total) {
                listener.step("  " + n + "/" + total + " requests done");
            }
        };
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
