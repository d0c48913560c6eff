package dev.vprof.engine;

import dev.vprof.VprofVersion;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.WindowChunk;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A running capture: one drain thread that discovers agents, heartbeats them, drains every ring
 * into the file and decides when the capture is over (docs/design.md §5).
 *
 * <pre>{@code
 * CaptureFeeds feeds = CaptureFeeds.open(otlp, spansFile, log);   // ports and files first
 * CapturePlan plan = CapturePlan.builder(CapturePlan.Mode.ATTACH).rootPid(pid).arm(spec).output(file).build();
 * Capture capture = Capture.start(plan, Started.feeds(feeds), CaptureEnvironment.system(log));
 * ... capture.stop("signal") from any thread, or let it end by itself ...
 * CaptureSummary summary = capture.awaitSummary();
 * }</pre>
 *
 * <p>{@link #start} returns once the capture is under way: in ATTACH mode every agent of the
 * tree is armed (or the start failed and none is) and the file exists. Ctrl-C and SIGTERM stop
 * the capture cleanly: the agents disarm, the rings are drained and the file is finished before
 * the JVM exits.
 */
public final class Capture {
    private final CapturePlan plan;
    private final CaptureSession session;
    private final List<Target> targets;
    private final Thread drain;
    private final Thread shutdownHook;
    private volatile CaptureSummary summary;
    private volatile Throwable failure;
    private volatile StopSignals signals;

    /** A process the capture armed as it started. */
    public record Target(int pid, long agentFlags, String reason) {}

    private Capture(CapturePlan plan, CaptureSession session, List<Target> targets) {
        this.plan = plan;
        this.session = session;
        this.targets = targets;
        this.drain = Thread.ofPlatform().name("vprof-drain").unstarted(this::drainUntilOver);
        this.shutdownHook = new Thread(this::stopAndWait, "vprof-shutdown");
    }

    /** A capture id the agents echo in RANGE records; never 0 (0 means "none"). */
    public static int newCaptureId() {
        return ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
    }

    /**
     * Starts the capture {@code plan} describes. ATTACH: finds and arms the agents of the tree
     * (all or nothing: a FAILED or busy agent, or one that refuses, ends the start and the others
     * are disarmed again) before the file is created. {@code started} is what the caller started
     * for it (RUN's command, the opened feeds); the capture owns its feeds from here on. Throws
     * {@link CaptureException} with the reason, or {@link IllegalArgumentException} when
     * {@code started} does not go with the plan; the feeds are closed then.
     */
    public static Capture start(CapturePlan plan, Started started, CaptureEnvironment env) {
        try {
            started.check(plan);
            Arming arming = new Arming(plan, started, env);
            List<Attached> armed = List.of();
            if (plan.mode() == CapturePlan.Mode.ATTACH) {
                armed = arming.armAll(AgentFinder.inTree(plan.rootPid(), env.agents()), plan.ringBytes());
            }
            CaptureOutput out;
            try {
                out = createOutput(plan, started.output());
            } catch (RuntimeException e) {
                arming.releaseAll(armed);
                throw e;
            }
            CaptureSession session = new CaptureSession(plan, started, env, out, arming, armed);
            session.begin();
            List<Target> targets = armed.stream()
                    .map(a -> new Target(a.pid(), a.region.agentFlags(), a.region.reason())).toList();
            if (plan.mode() == CapturePlan.Mode.ATTACH) {
                String d = plan.options().get("duration");
                env.log().println("vprof: capturing " + armed.size() + " process" + (armed.size() == 1 ? "" : "es")
                        + " in the tree of pid " + plan.rootPid() + (d != null ? " for " + d : "") + "; Ctrl-C to stop");
                env.log().flush();
            } else if (plan.mode() == CapturePlan.Mode.FEEDS) {
                String d = plan.options().get("duration");
                env.log().println("vprof: capturing without agents (metrics, spans"
                        + (plan.torchTraces() != null ? ", then vLLM's torch traces" : "") + ")"
                        + (d != null ? " for " + d : "") + "; Ctrl-C to stop");
                env.log().flush();
            }
            Capture c = new Capture(plan, session, targets);
            Runtime.getRuntime().addShutdownHook(c.shutdownHook);
            StopSignals early = started.feeds().takeSignals();
            c.signals = early != null ? early : StopSignals.install(session::requestStop);
            if (early != null) {
                early.forwardTo(session::requestStop); // a Ctrl-C since the feeds opened stops it now
            }
            c.drain.start();
            return c;
        } catch (RuntimeException e) {
            started.feeds().close();
            throw e;
        }
    }

    /** The processes armed at the start (ATTACH), with what their agents said; empty for RUN. */
    public List<Target> targets() {
        return targets;
    }

    public Path file() {
        return plan.output();
    }

    /** Asks the capture to stop cleanly (Ctrl-C, a caller's deadline); safe from any thread, returns at once. */
    public void stop(String why) {
        session.requestStop(why);
    }

    /**
     * {@code vprof watch --armed}: keeps the duty cycle's range open until {@code untilNanoTime}
     * ({@link System#nanoTime()}), so that the seconds after a trigger are recorded whole; safe from
     * any thread, does nothing for a capture armed all the time.
     */
    public void holdArmed(long untilNanoTime) {
        session.holdArmed(untilNanoTime);
    }

    /** Each process of the capture as the drain thread last saw it (about a second ago); safe from any thread. */
    public List<AgentStatus> status() {
        return session.status();
    }

    /** Whether the agents record now: false only in the unarmed part of a duty cycle. */
    public boolean armedNow() {
        return session.armedNow();
    }

    /** Waits until the capture is over and its file finished; rethrows what ended it abnormally. */
    public CaptureSummary awaitSummary() throws IOException, InterruptedException {
        drain.join();
        return summaryOrThrow();
    }

    /** As {@link #awaitSummary()}, for at most {@code timeout}; null when the capture still runs. */
    public CaptureSummary awaitSummary(long timeout, TimeUnit unit) throws IOException, InterruptedException {
        if (!drain.join(Duration.ofNanos(unit.toNanos(timeout)))) {
            return null;
        }
        return summaryOrThrow();
    }

    private CaptureSummary summaryOrThrow() throws IOException {
        Throwable t = failure;
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return summary;
    }

    private void drainUntilOver() {
        try {
            summary = session.run();
            summary.print(session.log(), plan.output().toString());
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (signals != null) {
                signals.restore();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running: it is waiting for exactly what just finished.
            }
        }
    }

    /** The shutdown hook: stop, and give the drain thread time to finish the file. */
    private void stopAndWait() {
        session.requestStop("signal");
        try {
            drain.join(TimeUnit.SECONDS.toMillis(15));
            if (drain.isAlive()) {
                PrintWriter log = session.log();
                log.println("vprof: gave up waiting for the capture to finish; the file may lack its last chunk");
                log.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static CaptureOutput createOutput(CapturePlan plan, CaptureOutput.Factory factory) {
        long start = Posix.realtimeNanos();
        Map<String, String> opts = new LinkedHashMap<>(plan.options());
        // The window's start is known now; its end is written at the end, in a WINDOW chunk.
        opts.put(WindowChunk.START_KEY, Long.toString(start));
        // Which node this is and how good its clock is, for a merge of the run's nodes (dev.vprof.merge).
        NodeEvidence.atStart().forEach(opts::putIfAbsent);
        CaptureMetadata md = new CaptureMetadata(hostName(), start, VprofVersion.get(), plan.commandLine(), opts);
        try {
            return factory != null ? factory.open(md, start) : CaptureOutput.of(CaptureWriter.create(plan.output(), md), start);
        } catch (IOException e) {
            throw new CaptureException("cannot write the capture file " + plan.output() + ": " + e.getMessage()
                    + "; choose another path with -o", e);
        }
    }

    private static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException ignored) {
            // fall back below
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
