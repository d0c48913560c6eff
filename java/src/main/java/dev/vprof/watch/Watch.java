package dev.vprof.watch;

import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureSummary;
import dev.vprof.engine.Started;
import dev.vprof.engine.StopSignals;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code vprof watch}: a flight recorder on the capture engine. The capture is an ordinary ATTACH
 * capture of the tree ({@code engine.Capture}, continuous: its agents stay armed, or duty-cycled)
 * whose output is the rolling window of {@link Segments}; the conditions read the scrapes as they
 * go into it ({@link ConditionWatch}); every trigger asks {@link Dumps}, which writes a dump from
 * the segments with its verdict and page; the endpoints ({@link ControlServer}), the OTLP push
 * ({@link OtlpPush}) and the file {@code vprof dump} finds ({@link WatchRegistry}) are started
 * once the capture runs.
 *
 * <pre>{@code
 * Watch w = new Watch(settings, log);
 * Capture c = Capture.start(plan, w.route(Started.feeds(feeds)), env);
 * w.run(c);                 // until the targets exit, Ctrl-C, or a condition that can never be computed
 * }</pre>
 */
public final class Watch implements Segments.Listener {
    /**
     * What the command decided.
     *
     * @param dir          the watch's folder: segments in {@code dir/segments}, dumps beside
     * @param control      the control endpoint's address, or null for none
     * @param metrics      {@code --metrics-listen}'s address, or null for none
     * @param otlpMetrics  the collector to push to, or null
     * @param alertMatch   labels a Prometheus alert must carry to make a dump
     * @param metricsUrl   the server's /metrics (for the conditions' sentences), or null
     */
    public record Settings(Path dir, Segments.Limits limits, Duration before, Duration after, Duration minInterval,
                           List<Condition> conditions, InetSocketAddress control, InetSocketAddress metrics,
                           URI otlpMetrics, Duration otlpInterval, Map<String, String> alertMatch, String metricsUrl,
                           List<String> commandLine, int rootPid) {
        public Settings {
            conditions = List.copyOf(conditions);
            alertMatch = Map.copyOf(alertMatch);
            commandLine = List.copyOf(commandLine);
        }
    }

    /** How the watch ended. */
    public record Ended(CaptureSummary summary, String fatal, int dumps, int refused) {}

    private final Settings settings;
    private final PrintWriter log;
    private final ConditionWatch conditions;
    private final Path registryFolder;
    private volatile Segments segments;
    private volatile Dumps dumps;
    private Capture capture;
    private WatchMetrics metrics;
    private OtlpPush push;
    private ControlServer control;
    private ControlServer metricsServer;
    private Path registryFile;
    private StopSignals usr1;
    private ScheduledExecutorService ticker;
    private volatile String fatal;

    public Watch(Settings settings, Path registryFolder, PrintWriter log) {
        this.settings = settings;
        this.log = log;
        this.registryFolder = registryFolder;
        this.conditions = settings.conditions().isEmpty() ? null
                : new ConditionWatch(settings.conditions(), settings.minInterval().toNanos(),
                        settings.metricsUrl() == null ? "the server's /metrics" : settings.metricsUrl(),
                        (c, why) -> trigger(Dumps.Trigger.CONDITION, why));
    }

    /** The folder segments go into. */
    public static Path segmentsDir(Path dir) {
        return dir.resolve("segments");
    }

    /** {@code started}, writing into this watch's rolling window instead of one file. */
    public Started route(Started started) throws IOException {
        Files.createDirectories(segmentsDir(settings.dir()));
        return started.writingTo(Segments.in(segmentsDir(settings.dir()), settings.limits(), log, this,
                s -> segments = s));
    }

    /**
     * Runs the watch on {@code c} (started with {@link #route}) until it ends: starts the dumps, the
     * endpoints, the push, SIGUSR1 and the registry file; writes a pending dump when the targets
     * exit; stops everything. Throws IOException when an endpoint cannot listen (the capture is
     * stopped first).
     */
    public Ended run(Capture c) throws IOException, InterruptedException {
        this.capture = c;
        Segments seg = segments;
        dumps = new Dumps(settings.dir(), seg, settings.before(), settings.after(), settings.minInterval(),
                settings.commandLine(), log, c::holdArmed, this::taken);
        metrics = new WatchMetrics(seg, dumps, c::status, c::armedNow);
        try {
            startEndpoints();
        } catch (IOException e) {
            c.stop("error");
            c.awaitSummary();
            dumps.close();
            throw e;
        }
        usr1 = StopSignals.installDump(() -> trigger(Dumps.Trigger.SIGNAL, "SIGUSR1"));
        ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("vprof-watch-tick")
                .factory());
        long pushEvery = settings.otlpInterval().toMillis();
        long[] lastPush = {System.nanoTime()};
        ticker.scheduleAtFixedRate(() -> tick(pushEvery, lastPush), 1, 1, TimeUnit.SECONDS);
        announce();
        CaptureSummary summary = null;
        try {
            summary = c.awaitSummary();
        } finally {
            ticker.shutdownNow();
            if (usr1 != null) {
                usr1.restore();
            }
            dumps.finish();
            if (push != null) {
                push.pushMetrics(metrics.points());
            }
            closeEndpoints();
        }
        int taken = dumps.made().size();
        long refused = dumps.refusedByTrigger().values().stream().mapToLong(Long::longValue).sum();
        return new Ended(summary, fatal, taken, (int) refused);
    }

    /** Asks for a dump; from any thread. Before the watch runs, or after it ended, nothing happens. */
    Dumps.Outcome trigger(Dumps.Trigger t, String what) {
        Dumps d = dumps;
        if (d == null) {
            return new Dumps.Refused("the watch has not started yet", 1);
        }
        Dumps.Outcome o = d.request(t, what);
        if (o instanceof Dumps.Refused r && t != Dumps.Trigger.CONDITION) {
            log.println("vprof watch: " + t.label() + " (" + what + ") refused: " + r.why());
            log.flush();
        }
        return o;
    }

    // ---- Segments.Listener (the drain thread) -------------------------------------------------------

    @Override
    public void scrapes(List<ScrapeResult> scrapes) {
        if (conditions != null) {
            conditions.scrapes(scrapes);
            if (conditions.fatal() != null && fatal == null) {
                fatal = conditions.fatal();
            }
        }
    }

    @Override
    public void closed(Segment segment) {
        Dumps d = dumps;
        if (d != null) {
            d.segmentClosed();
        }
    }

    // ---- the rest ---------------------------------------------------------------------------------

    private void tick(long pushEveryMs, long[] lastPush) {
        try {
            metrics.sample();
            if (fatal != null) {
                capture.stop("condition");
            }
            if (push != null && System.nanoTime() - lastPush[0] >= pushEveryMs * 1_000_000L) {
                lastPush[0] = System.nanoTime();
                push.pushMetrics(metrics.points());
            }
        } catch (RuntimeException e) {
            log.println("vprof: warning: watch: " + e);
            log.flush();
        }
    }

    private void taken(Dumps.Request r, DumpFile.Made m) {
        if (push != null) {
            push.pushDump(m, r.trigger().label(), r.what());
        }
    }

    private void startEndpoints() throws IOException {
        ControlServer.Watch api = new ControlServer.Watch() {
            @Override
            public Dumps.Outcome dump(Dumps.Trigger trigger, String what) {
                return trigger(trigger, what);
            }

            @Override
            public String metricsText() {
                return WatchMetrics.exposition(metrics.points());
            }

            @Override
            public Map<String, Object> status() {
                return Watch.this.status();
            }
        };
        Duration waitLimit = settings.after().plus(Duration.ofMinutes(2));
        if (settings.control() != null) {
            control = ControlServer.control(settings.control(), api, settings.alertMatch(), waitLimit);
        }
        if (settings.metrics() != null) {
            try {
                metricsServer = ControlServer.metrics(settings.metrics(), api);
            } catch (IOException e) {
                closeEndpoints();
                throw e;
            }
        }
        if (settings.otlpMetrics() != null) {
            Map<String, String> resource = new LinkedHashMap<>();
            resource.put("service.name", "vprof-watch");
            resource.put("host.name", hostName());
            resource.put("vprof.watch.root_pid", Integer.toString(settings.rootPid()));
            push = new OtlpPush(settings.otlpMetrics(), resource, metrics.startEpochNs(), log);
        }
        try {
            registryFile = new WatchRegistry((int) ProcessHandle.current().pid(), settings.rootPid(),
                    settings.dir().toAbsolutePath().toString(), control == null ? null : control.uri().toString())
                    .write(registryFolder);
        } catch (IOException e) {
            log.println("vprof: warning: watch: cannot write " + registryFolder.resolve(WatchRegistry.PREFIX
                    + ProcessHandle.current().pid()) + " (" + e.getMessage() + "): `vprof dump " + settings.rootPid()
                    + "` will not find this watch; kill -USR1 " + ProcessHandle.current().pid() + " still works");
        }
    }

    private void closeEndpoints() {
        if (control != null) {
            control.close();
        }
        if (metricsServer != null) {
            metricsServer.close();
        }
        if (registryFile != null) {
            try {
                Files.deleteIfExists(registryFile);
            } catch (IOException ignored) {
                // vprof dump skips a file whose watch is gone
            }
        }
    }

    private void announce() {
        log.println("vprof watch: recording the last "
                + Sizes.seconds(settings.limits().keep().toNanos() / 1e9) + " (at most "
                + Sizes.text(settings.limits().maxDiskBytes()) + ") in " + segmentsDir(settings.dir())
                + "; dumps go to " + settings.dir());
        for (Condition cond : settings.conditions()) {
            log.println("vprof watch: dumps when " + cond.text());
        }
        long pid = ProcessHandle.current().pid();
        log.println("vprof watch: ask for a dump with `vprof dump " + settings.rootPid() + "`, kill -USR1 " + pid
                + (control == null ? "" : ", or POST " + control.uri() + "/dump"));
        if (metricsServer != null) {
            log.println("vprof watch: Prometheus metrics at " + metricsServer.uri() + "/metrics");
        }
        if (push != null) {
            log.println("vprof watch: pushing OTLP metrics to " + push.metricsUri() + " every "
                    + Sizes.seconds(settings.otlpInterval().toNanos() / 1e9));
        }
        log.flush();
    }

    private Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        Segments.Stats s = segments.stats();
        m.put("pid", ProcessHandle.current().pid());
        m.put("root_pid", settings.rootPid());
        m.put("armed", capture.armedNow());
        m.put("window_seconds", s.spanSeconds(Posix.realtimeNanos()));
        m.put("window_bytes", s.bytes());
        m.put("segments", s.segments());
        m.put("conditions", conditions == null ? List.of() : conditions.describe());
        List<Map<String, Object>> made = new ArrayList<>();
        for (DumpFile.Made d : dumps.made()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("file", d.file().toString());
            one.put("page", d.page().toString());
            one.put("verdict", d.verdict());
            one.put("kernels", d.kernels());
            one.put("requests", d.requests());
            made.add(one);
        }
        m.put("dumps", made);
        return m;
    }

    /** The control endpoint's address once running, or null. */
    public URI controlUri() {
        return control == null ? null : control.uri();
    }

    /** The metrics endpoint's address once running, or null. */
    public URI metricsUri() {
        return metricsServer == null ? null : metricsServer.uri();
    }

    private static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
