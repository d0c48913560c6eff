package dev.vprof.cli;

import dev.vprof.bindings.VprofRing;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.engine.AgentEnvironment;
import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureEnvironment;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.Started;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.region.AgentState;
import dev.vprof.region.ArmSpec;
import dev.vprof.watch.Condition;
import dev.vprof.watch.Segments;
import dev.vprof.watch.Watch;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vprof watch}: the flight recorder (docs/watch.md). */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = {"Record a process tree continuously, keeping only the last --keep of kernels, copies, NVTX, "
                + "the server's /metrics and its request spans on disk, and write a capture of the minutes around "
                + "each trigger: a --when condition over the metrics, `vprof dump PID`, SIGUSR1, a POST to the "
                + "control endpoint, or a Prometheus alert.",
                "Each dump is an ordinary .vprof with its report, verdict and HTML page beside it. Ends when the "
                        + "targets exit (exit 0, a pending dump written), at --duration or Ctrl-C; the agents go "
                        + "back to dormant."},
        footer = {"", "Examples:",
                "  vprof watch --pid 4242 --metrics localhost:8000 --when 'ttft_p99 > 500ms for 30s'",
                "  vprof watch --pid 4242 --keep 2m --max-disk 2g --armed 10% --metrics-listen 9464",
                "  vprof watch --pid 4242 --otlp --metrics localhost:8000 --when 'num_requests_waiting > 20' \\",
                "      --otlp-metrics http://127.0.0.1:4318",
                "  vprof watch --launch --metrics localhost:8000 -- vllm serve Qwen/Qwen2.5-7B-Instruct",
                "  vprof dump 4242                       # from another shell: the minutes around now",
                "  curl -X POST http://127.0.0.1:PORT/dump   # the control endpoint the watch prints"})
final class WatchCommand extends VprofCommand {
    /** Agents give up on a silent watch after this long, so a killed watch leaves nothing armed for a second. */
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofMillis(600);

    WatchCommand() {
        super(ExitCode.OK, ExitCode.CANNOT);
    }

    @Option(names = {"-p", "--pid"}, paramLabel = "PID", description = "The process tree to record (its agents: "
            + "started with `vprof launch` or CUDA_INJECTION64_PATH=$(vprof agent-path)).")
    Integer pid;

    @Option(names = "--launch", description = "Start CMD (after --) with a dormant agent, as `vprof launch` does, "
            + "and record it once its CUDA processes have loaded the agent; its output goes to DIR/launch.log.")
    boolean launch;

    @Parameters(arity = "0..*", paramLabel = "CMD", description = "With --launch: the command to start, after --.")
    List<String> cmd = new ArrayList<>();

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "vprof-watch-%p",
            description = "Where the rolling window (DIR/segments) and the dumps go; %%p is the pid. A folder that "
                    + "holds a window already is not reused without --force. Default: ${DEFAULT-VALUE}.")
    String dir;

    @Option(names = "--force", description = "Reuse a --dir that holds an earlier watch's window (its segments are deleted).")
    boolean force;

    @Option(names = "--keep", paramLabel = "D", defaultValue = "60s",
            description = "How much of the past the window keeps. Default: ${DEFAULT-VALUE}.")
    String keep;

    @Option(names = "--segment", paramLabel = "D", defaultValue = "10s",
            description = "Length of one file of the window; the window is --keep to --keep plus one segment. "
                    + "Default: ${DEFAULT-VALUE}.")
    String segment;

    @Option(names = "--max-disk", paramLabel = "SIZE", defaultValue = "1g",
            description = "The most the window takes on disk; past it the oldest segments go early (said and "
                    + "counted). Default: ${DEFAULT-VALUE}.")
    String maxDisk;

    @Option(names = "--before", paramLabel = "D",
            description = "What a dump covers before its trigger (at most --keep). Default: 30s, or --keep when shorter.")
    String before;

    @Option(names = "--after", paramLabel = "D", defaultValue = "10s",
            description = "What a dump covers after its trigger. Default: ${DEFAULT-VALUE}.")
    String after;

    @Option(names = "--min-interval", paramLabel = "D", defaultValue = "5m",
            description = "At most one dump per this long; later triggers are refused and counted. "
                    + "Default: ${DEFAULT-VALUE}.")
    String minInterval;

    @Option(names = "--when", paramLabel = "CONDITION",
            description = "Dump when this holds over the scraped metrics (needs --metrics), e.g. "
                    + "'ttft_p99 > 500ms for 30s', 'num_requests_waiting > 20', 'kv_cache_usage >= 95%%'; "
                    + "repeatable. Grammar: docs/watch.md.")
    List<String> when = new ArrayList<>();

    /** --metrics, --metrics-interval: as for attach; an unreachable endpoint is said and retried. */
    @Mixin
    MetricsOptions scrape = new MetricsOptions();

    @Option(names = "--armed", paramLabel = "PERCENT", defaultValue = "100%",
            description = "Share of time the agents record: 100%% (always), or e.g. 10%% for one tenth of every "
                    + "--armed-cycle (a duty cycle that bounds the target's cost; a pending dump keeps them armed). "
                    + "Default: ${DEFAULT-VALUE}.")
    String armed;

    @Option(names = "--armed-cycle", paramLabel = "D", defaultValue = "10s",
            description = "With --armed below 100%%: the cycle, armed at its start. Default: ${DEFAULT-VALUE}.")
    String armedCycle;

    @Option(names = "--control", paramLabel = "[HOST:]PORT", defaultValue = "0",
            description = "The control endpoint (POST /dump, POST /api/v2/alerts, GET /status), on loopback unless a "
                    + "host is given; 0 takes a free port; off for none. Default: ${DEFAULT-VALUE}.")
    String control;

    @Option(names = "--metrics-listen", paramLabel = "[HOST:]PORT",
            description = "Serve the recorder's own metrics for Prometheus at GET /metrics (GPU busy, GPU time per "
                    + "kernel category, records and drops, the window, dumps), on loopback unless a host is given.")
    String metricsListen;

    @Option(names = "--otlp-metrics", paramLabel = "URL",
            description = "Push the same metrics as OTLP/HTTP to a Collector (http://HOST:4318) and each dump's "
                    + "summary as an OTLP log record.")
    String otlpMetrics;

    @Option(names = "--otlp-metrics-interval", paramLabel = "D", defaultValue = "10s",
            description = "Time between OTLP metric pushes. Default: ${DEFAULT-VALUE}.")
    String otlpMetricsInterval;

    @Option(names = "--alert-match", paramLabel = "LABEL=VALUE",
            description = "A Prometheus alert makes a dump only when it carries this label (repeatable), so one "
                    + "Prometheus can notify every replica's recorder and each takes its own alerts.")
    List<String> alertMatch = new ArrayList<>();

    @Option(names = "--duration", paramLabel = "D", description = "Stop after this long. Default: until the targets "
            + "exit or Ctrl-C.")
    String duration;

    /** --kinds, --buffer-size, --ring-size: as for attach. */
    @Mixin
    AgentOptions agent = new AgentOptions();

    /** --otlp, --otlp-grpc, --otlp-http, --otlp-forward, --otlp-max-body: the server's request spans. */
    @Mixin
    OtlpOptions otlp = new OtlpOptions();

    AgentDirectory directory = AgentDirectory.system();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        if ((pid == null) == !launch) {
            throw new CliException(launch ? "--launch starts a command, --pid records a running one: give one of them"
                    : "give the process tree to record: --pid PID, or --launch -- CMD");
        }
        if (launch && cmd.isEmpty()) {
            throw new CliException("--launch needs the command to start after --, e.g. vprof watch --launch -- "
                    + "vllm serve MODEL");
        }
        if (!launch && !cmd.isEmpty()) {
            throw new CliException("unexpected words '" + String.join(" ", cmd) + "'; a command to start goes after "
                    + "--launch --");
        }
        CaptureOptions o = captureOptions();
        o.validate();
        Duration keepD = positive("--keep", keep);
        Duration segmentD = positive("--segment", segment);
        if (segmentD.compareTo(Duration.ofMillis(500)) < 0 || segmentD.compareTo(keepD) > 0) {
            throw new CliException("--segment " + segment + " must be at least 500ms and at most --keep (" + keep + ")");
        }
        Duration beforeD = before == null ? (keepD.compareTo(Duration.ofSeconds(30)) < 0 ? keepD : Duration.ofSeconds(30))
                : nonNegative("--before", before);
        if (beforeD.compareTo(keepD) > 0) {
            throw new CliException("--before " + before + " is longer than --keep " + keep
                    + ": the window does not hold that much; raise --keep");
        }
        Duration afterD = nonNegative("--after", after);
        Duration minIntervalD = positive("--min-interval", minInterval);
        long maxDiskBytes = Units.size("--max-disk", maxDisk);
        if (maxDiskBytes < 16L << 20) {
            throw new CliException("--max-disk " + maxDisk + " is below 16m, too little for one segment of a busy GPU");
        }
        List<Condition> conditions = new ArrayList<>();
        for (String w : when) {
            try {
                conditions.add(Condition.parse(w));
            } catch (Condition.BadCondition e) {
                throw new CliException(e.getMessage());
            }
        }
        if (!conditions.isEmpty() && scrape.metrics == null) {
            throw new CliException("--when reads the server's metrics: add --metrics URL (its /metrics endpoint)");
        }
        double armedFraction = armedFraction();
        Duration cycle = positive("--armed-cycle", armedCycle);
        if (armedFraction < 1 && cycle.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new CliException("--armed-cycle " + armedCycle + " is below 1s; each armed part opens and drains a "
                    + "capture range");
        }
        InetSocketAddress controlAt = control.trim().equalsIgnoreCase("off") ? null
                : OtlpOptions.parseAddress("--control", control);
        InetSocketAddress metricsAt = metricsListen == null ? null
                : OtlpOptions.parseAddress("--metrics-listen", metricsListen);
        URI push = null;
        if (otlpMetrics != null) {
            try {
                push = URI.create(otlpMetrics.contains("://") ? otlpMetrics : "http://" + otlpMetrics);
                if (!("http".equals(push.getScheme()) || "https".equals(push.getScheme())) || push.getHost() == null) {
                    throw new IllegalArgumentException();
                }
            } catch (IllegalArgumentException e) {
                throw new CliException("--otlp-metrics " + otlpMetrics + " is not an OTLP/HTTP URL; give the "
                        + "collector's base, e.g. http://127.0.0.1:4318");
            }
        }
        Duration pushEvery = positive("--otlp-metrics-interval", otlpMetricsInterval);
        Map<String, String> match = new LinkedHashMap<>();
        for (String m : alertMatch) {
            int eq = m.indexOf('=');
            if (eq <= 0) {
                throw new CliException("--alert-match '" + m + "' is not LABEL=VALUE, e.g. instance=10.0.0.5:8000");
            }
            match.put(m.substring(0, eq).strip(), m.substring(eq + 1).strip());
        }

        Process launched = null;
        int root;
        Path folder;
        if (launch) {
            folder = watchDir(0);
            launched = startCommand(folder, o.agent.ringBytes(), err);
            root = (int) launched.pid();
            awaitAgent(launched, err);
        } else {
            root = pid;
            if (!ProcessTree.isAlive(root)) {
                throw new CliException("no process " + root + " is running; give the pid of the server to record");
            }
            folder = watchDir(root);
        }

        ArmSpec spec = armedFraction < 1
                ? new ArmSpec(VprofRing.RANGE_PROFILER, 0, o.agent.kindMask(), o.agent.bufferBytes(), Capture.newCaptureId(), "", "")
                : o.toSpec(Capture.newCaptureId());
        Map<String, String> opts = new LinkedHashMap<>(o.asMap());
        opts.remove("capture-range-end");
        opts.put("capture-range", armedFraction < 1 ? "cudaProfilerApi (duty cycle)" : "none");
        opts.put("watch-keep", keep);
        opts.put("watch-armed", armed);
        for (int i = 0; i < conditions.size(); i++) {
            opts.put("watch-when-" + (i + 1), conditions.get(i).text());
        }
        List<String> words = List.of("watch", "--pid", Integer.toString(root));
        CapturePlan plan = o.plan(CapturePlan.Mode.ATTACH).rootPid(root).arm(spec).output(Watch.segmentsDir(folder))
                .commandLine(words).options(opts).rangeScopeTree(false)
                .continuous(new CapturePlan.Continuous(HEARTBEAT_TIMEOUT, armedFraction, cycle))
                .build();
        Watch.Settings settings = new Watch.Settings(folder, new Segments.Limits(segmentD, keepD, maxDiskBytes), beforeD,
                afterD, minIntervalD, conditions, controlAt, metricsAt, push, pushEvery, match,
                scrape.metrics == null ? null : scrape.uriOrNull().toString(), words, root);
        Watch w = new Watch(settings, directory.dir(), err);
        CaptureFeeds feeds = o.openFeeds(err);
        Capture running = Capture.start(plan, w.route(Started.feeds(feeds)),
                new CaptureEnvironment(directory, err, false));
        Watch.Ended ended;
        try {
            ended = w.run(running);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        err.println("vprof watch: ended; " + ended.dumps() + " dump" + (ended.dumps() == 1 ? "" : "s") + " written, "
                + ended.refused() + " trigger" + (ended.refused() == 1 ? "" : "s") + " refused; the last window stays in "
                + Watch.segmentsDir(folder) + " (each segment reads with vprof report)");
        err.flush();
        if (ended.fatal() != null) {
            throw new CliException(ended.fatal());
        }
        return ExitCode.OK.code();
    }

    private CaptureOptions captureOptions() {
        CaptureOptions o = new CaptureOptions();
        o.captureRange = "none";
        o.captureRangeEnd = "stop";
        o.rangeScope = "process";
        o.agent = agent;
        o.scrape = scrape;
        o.duration = duration;
        o.output = "unused";
        o.otlp = otlp;
        return o;
    }

    private double armedFraction() {
        String a = armed.trim();
        try {
            double v = a.endsWith("%") ? Double.parseDouble(a.substring(0, a.length() - 1)) / 100 : Double.parseDouble(a);
            if (v > 0 && v <= 1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // the sentence below
        }
        throw new CliException("--armed " + armed + " is not a share of time above 0% and at most 100%, e.g. 10%");
    }

    /** The watch's folder: made, or refused when it holds an earlier window and --force was not given. */
    private Path watchDir(int forPid) throws IOException {
        Path d = Path.of(dir.replace("%p", Integer.toString(forPid == 0 ? (int) ProcessHandle.current().pid() : forPid)));
        Path segs = Watch.segmentsDir(d);
        if (Files.isDirectory(segs)) {
            boolean any;
            try (Stream<Path> s = Files.list(segs)) {
                any = s.findAny().isPresent();
            }
            if (any && !force) {
                throw new CliException(segs + " holds an earlier watch's window; choose another --dir, or --force to "
                        + "delete it");
            }
            if (any) {
                try (Stream<Path> s = Files.list(segs)) {
                    for (Path p : s.toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
        try {
            Files.createDirectories(segs);
        } catch (IOException e) {
            throw new CliException("cannot create " + segs + ": " + e.getMessage() + "; choose another --dir", e);
        }
        if (!Files.isWritable(d)) {
            throw new CliException("cannot write into " + d + "; choose another --dir");
        }
        return d;
    }

    private Process startCommand(Path folder, long ringBytes, PrintWriter err) throws IOException {
        Path agent;
        try {
            agent = NativeFiles.require(NativeFiles.AGENT);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        Path logFile = folder.resolve("launch.log");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectErrorStream(true);
        AgentEnvironment.apply(pb.environment(), agent, ringBytes, null);
        try {
            Process p = pb.start();
            err.println("vprof watch: launched pid " + p.pid() + " (" + cmd.getFirst() + "); its output goes to " + logFile);
            err.flush();
            return p;
        } catch (IOException e) {
            throw new CliException(CommandStart.why(cmd.getFirst(), e));
        }
    }

    /** Until a process of the launched tree has its agent DORMANT (CUDA initialized), or the command exits. */
    private void awaitAgent(Process p, PrintWriter err) throws InterruptedException {
        boolean said = false;
        long started = System.nanoTime();
        while (true) {
            Set<Integer> tree = new HashSet<>(ProcessTree.read().descendantsOf((int) p.pid()));
            tree.add((int) p.pid());
            if (directory.states(tree).containsValue(AgentState.DORMANT)) {
                return;
            }
            if (!p.isAlive()) {
                throw new CliException(cmd.getFirst() + " (pid " + p.pid() + ") exited with status " + p.exitValue()
                        + " before any of its processes loaded the agent (it initializes CUDA); nothing to record");
            }
            if (!said && System.nanoTime() - started > 2_000_000_000L) {
                said = true;
                err.println("vprof watch: waiting for pid " + p.pid() + "'s CUDA processes to load the agent");
                err.flush();
            }
            Thread.sleep(200);
        }
    }

    private static Duration positive(String option, String text) {
        return Units.duration(option, text);
    }

    private static Duration nonNegative(String option, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0") || t.equals("0s") || t.equals("0ms")) {
            return Duration.ZERO;
        }
        return Units.duration(option, text);
    }
}
