package dev.vprof.engine;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.ProcessExit;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcFs;
import dev.vprof.discovery.ProcessLiveness;
import dev.vprof.discovery.RegionWatch;
import dev.vprof.drain.RingCorruptException;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.ArmSpec;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The loop behind a {@link Capture}: the single reader thread that discovers regions, heartbeats,
 * drains every attached ring into the output and decides when the capture is over (docs/design.md §5).
 *
 * <p>{@link CapturePlan.Mode#RUN}: the agents armed themselves from {@code VPROF_ARM}; the session
 * picks up every region in the command's process tree, or whose frontend_pid and capture id are
 * ours (a process that exited before it was found), and ends when the command has exited and
 * every region is read to its end. {@link CapturePlan.Mode#ATTACH}: the session arms what it
 * attaches and ends when told to, when every agent went back to DORMANT by itself, or when every
 * target exited.
 *
 * <p>{@code /proc} is read only when a region file appears ({@link RegionWatch}): to place the
 * new process in the tree (its parent links) and to name it. Whether an attached process still
 * runs is asked of a pidfd ({@link ProcessLiveness}), not of {@code /proc}, so a host with many
 * processes costs the loop nothing while nothing new appears.
 */
final class CaptureSession {
    static final long COMMAND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);
    /**
     * DISARM drains the open range first (its work may still be running: the agent waits up to
     * VPROF_DRAIN_MAX_MS for it), so its answer may take that long on top of a command's.
     */
    static final long DISARM_TIMEOUT_NS = COMMAND_TIMEOUT_NS + TimeUnit.MILLISECONDS.toNanos(2 * VprofRing.DRAIN_MAX_MS);
    /** How often the loop looks at the agent directory's news, the command and the targets' ends. */
    private static final long CHECK_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long HEARTBEAT_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private static final long PROGRESS_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** Without a terminal, a line this often, so that a long capture is never silent in a log. */
    static final long LOG_EVERY_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long DRAIN_SLICE_BYTES = 1 << 20;
    private static final long FINAL_DRAIN_NS = TimeUnit.SECONDS.toNanos(3);

    private final CapturePlan.Mode mode;
    private final int rootPid;
    private final ArmSpec spec;
    private final CapturePlan plan;
    private final CaptureOutput out;
    private final Arming arming;
    private final AgentDirectory dir;
    private final ProcFs proc;
    private final PrintWriter err;
    private final int ourPid;
    private final List<Attached> attached = new ArrayList<>();
    private final RegionIntake intake;
    private final Progress progress;
    private final CaptureFeeds feeds;
    private final Process command;    // RUN: the command we started
    private RegionWatch watch;

    private volatile String stopRequest;
    private final TreeRangeRelay relay; // --range-scope tree; null otherwise
    private final TorchTraceFolder torch; // --torch-traces; null otherwise
    /** vprof watch: heartbeats of their own, the duty cycle, a status for other threads; null otherwise. */
    private final KeptArmed kept;
    private final long heartbeatEveryNs;
    private long deadlineNs;          // 0: none
    private DiskWatch disk;
    private long beganNs;

    /**
     * The session of {@code plan}, writing to {@code out}; {@code armed} are the agents
     * {@code arming} armed before the file was created (ATTACH), in order, empty otherwise. They
     * are announced in the file by {@link #begin}.
     */
    CaptureSession(CapturePlan plan, Started started, CaptureEnvironment env, CaptureOutput out, Arming arming,
                   List<Attached> armed) {
        this.plan = plan;
        this.out = out;
        this.arming = arming;
        this.ourPid = arming.ourPid();
        this.mode = plan.mode();
        this.rootPid = plan.rootPid();
        this.spec = plan.arm();
        this.command = started.command();
        this.feeds = started.feeds();
        this.dir = env.agents();
        this.proc = env.agents().proc();
        this.err = env.log();
        this.progress = env.progress() ? new Progress(err) : null;
        this.relay = plan.rangeScopeTree() ? new TreeRangeRelay(mode == CapturePlan.Mode.RUN) : null;
        this.torch = plan.torchTraces() == null ? null : new TorchTraceFolder(plan.torchTraces());
        this.kept = plan.continuous() == null ? null : new KeptArmed(plan.continuous());
        this.heartbeatEveryNs = kept != null ? KeptArmed.HEARTBEAT_EVERY_NS : HEARTBEAT_EVERY_NS;
        this.intake = new RegionIntake(mode, rootPid, proc, err, arming, this::join, CHECK_EVERY_NS);
        for (Attached a : armed) {
            attached.add(a);
            intake.seen(a.pid());
            if (kept != null) {
                kept.joined(a);
            }
        }
    }

    /** Whether the agent in {@code r} serves this capture ({@link Arming#belongsToThisCapture}). */
    boolean belongsToThisCapture(Region r) {
        return arming.belongsToThisCapture(r);
    }

    PrintWriter log() {
        return err;
    }

    /** Asks the reader thread to stop cleanly (Ctrl-C, SIGTERM); safe from any thread. */
    void requestStop(String why) {
        if (stopRequest == null) {
            stopRequest = why;
        }
    }

    List<Attached> attached() { return attached; }

    /** Keeps a duty-cycled capture's range open until {@code untilNanoTime} (System.nanoTime()); safe from any thread. */
    void holdArmed(long untilNanoTime) {
        if (kept != null) {
            kept.holdArmed(untilNanoTime);
        }
    }

    /** Every process as the drain thread last saw it (a continuous capture's); safe from any thread. */
    List<AgentStatus> status() {
        return kept == null ? List.of() : kept.status();
    }

    /** Whether the agents record now (always, unless a duty cycle is in its unarmed part); safe from any thread. */
    boolean armedNow() {
        return kept == null || kept.armedNow();
    }

    /** Each process still in the capture with its agent's counters since it joined, read now. */
    private Map<Integer, AgentCounters> countersSinceJoined() {
        Map<Integer, AgentCounters> m = new HashMap<>();
        for (Attached a : attached) {
            if (!a.finished) {
                a.last = RegionCounters.read(a.region);
                m.put(a.pid(), a.delta());
            }
        }
        return m;
    }

    // ---- joining and letting go ----------------------------------------------------------------

    /**
     * DISARM at the end of a capture, draining while the agent answers: its forced flush puts the
     * last buffers into the ring before the ack, and they must find room there instead of being
     * dropped (or, with a producer that waits for room, the ack never coming).
     */
    private void disarmWhileDraining(Attached a) throws IOException {
        RingCorruptException[] corrupt = {null};
        try {
            a.region.disarm(DISARM_TIMEOUT_NS, () -> {
                if (corrupt[0] != null) {
                    return false;
                }
                try {
                    return a.reader.drain(out, DRAIN_SLICE_BYTES) > 0;
                } catch (RingCorruptException e) {
                    corrupt[0] = e;
                    return false;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (RegionException e) {
            err.println("vprof: warning: " + e.getMessage());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (corrupt[0] != null) {
            err.println("vprof: error: " + corrupt[0].getMessage());
            finish(a, false);
        }
    }

    private void join(Attached a) {
        attached.add(a);
        if (kept != null) {
            kept.joined(a);
        }
        intake.seen(a.pid());
        announce(a);
    }

    /** The PROCESS chunk, before any of the process's records. */
    private void announce(Attached a) {
        try {
            out.process(a.info);
            a.announced = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // run() turns it into the write failure's sentence
        }
    }

    // ---- the loop -------------------------------------------------------------------------------

    /**
     * The capture starts: every attached process is announced in the file, the feeds start (the
     * scraper, --trigger's /start_profile), the watch on the agent directory opens and the
     * deadline is set. A refused --trigger ends it here: the file is removed, and the exception
     * says why.
     */
    void begin() throws CaptureException {
        try {
            for (Attached a : attached) {
                if (!a.announced) {
                    announce(a);
                }
            }
            if (torch != null) {
                // Before the trigger's /start_profile: what the folder holds now is another run's.
                torch.snapshot(out.startEpochNs() != 0 ? out.startEpochNs() : Posix.realtimeNanos());
            }
            try {
                feeds.begin(out, plan, err);
            } catch (CaptureException e) {
                // --trigger refused (404, no server): nothing will be captured. The file is finished
                // and then removed, so that the retry with the server's profiler enabled is not
                // refused for an -o that a capture of nothing took.
                finishAll(true);
                feeds.finish(out, err);
                closeAll();
                Path file = plan.output();
                if (file != null && Files.isRegularFile(file)) {
                    Files.delete(file);
                }
                throw new CaptureException(e.getMessage() + "; nothing was captured, and no file was left at " + file, e);
            }
        } catch (IOException | UncheckedIOException e) {
            arming.releaseAll(attached);
            IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            long written = out.bytesWritten();
            closeQuietly();
            throw WriteFailure.of(plan.output(), written, io);
        }
        if (mode != CapturePlan.Mode.FEEDS) {
            watch = RegionWatch.open(dir);
        }
        if (plan.duration() != null) {
            deadlineNs = System.nanoTime() + plan.duration().toNanos();
        }
        beganNs = System.nanoTime();
        if (kept != null) {
            kept.start();
        }
        disk = DiskWatch.of(plan.output(), beganNs, deadlineNs);
        disk.atStart(err);
    }

    /**
     * Runs the capture on the calling thread until it is over; finishes the output. A file that
     * cannot be written any more (a full disk) ends the capture at once: the agents are disarmed
     * and released, the file is closed with what it holds, and a {@link CaptureException} says
     * where, how much and how much space is free.
     */
    CaptureSummary run() throws IOException {
        String stopReason;
        CaptureException torchFailure = null;
        try {
            try {
                stopReason = loop();
                feeds.beforeFinish(err, command != null && !command.isAlive());
                finishAll(stopReason != null);
                feeds.finish(out, err);
                if (torch != null) {
                    // After /stop_profile (vLLM writes its traces then) and after the window closed.
                    try {
                        folded = TorchTraceFold.fold(torch.await(err), out, err, intake.seenPids());
                    } catch (CaptureException e) {
                        torchFailure = e;
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                throw writeFailed(e instanceof UncheckedIOException u ? u.getCause() : (IOException) e);
            } catch (RuntimeException | Error e) {
                closeQuietly();
                throw e;
            }
            try {
                closeAll();
            } catch (IOException e) {
                throw writeFailed(e);
            }
        } finally {
            if (kept != null) {
                kept.stop();
            }
            if (progress != null) {
                progress.clear();
            }
        }
        if (torchFailure != null) {
            throw new CaptureException(torchFailure.getMessage() + "; " + plan.output()
                    + " holds the rest of the capture (metrics, spans, agents' records)", torchFailure);
        }
        return summary(stopReason).ended(endLine(stopReason));
    }

    /** Why it ended, in the words of the capture's last line. */
    private String endLine(String stopReason) {
        CaptureEnd.Cause cause = CaptureTally.cause(mode, attached.stream().map(a -> a.endedByItself).toList());
        Integer status = command != null && !command.isAlive() ? command.exitValue() : null;
        return CaptureEnd.line(stopReason, cause, System.nanoTime() - beganNs,
                plan.duration() == null ? 0 : plan.duration().toNanos(), status);
    }

    /**
     * The file cannot be written: every agent still armed is disarmed (what it flushes is read
     * and dropped, so it never waits for room), the regions are released, the file is closed as
     * it stands. Returns the exception that says so.
     */
    private CaptureException writeFailed(IOException cause) {
        long written = out.bytesWritten();
        for (Attached a : attached) {
            if (a.finished) {
                continue;
            }
            a.finished = true;
            try {
                if (a.liveness.alive() && a.region.state().isActive()) {
                    a.region.disarm(DISARM_TIMEOUT_NS, () -> {
                        try {
                            return a.reader.drain((pid, src, offset, length) -> { }, DRAIN_SLICE_BYTES) > 0;
                        } catch (RingCorruptException | IOException e) {
                            return false;
                        }
                    });
                }
            } catch (RegionException | RuntimeException e) {
                err.println("vprof: warning: " + e.getMessage());
            }
            if (kept != null) {
                kept.left(a);
            }
            Arming.restoreHeartbeatTimeout(a);
            if (a.region.frontendPid() == ourPid) {
                a.region.setFrontendPid(0);
            }
            if (a.region.state() == AgentState.EXITED || !a.liveness.alive()) {
                a.region.unlink();
            }
            a.region.close();
            a.liveness.close();
        }
        closeQuietly();
        return WriteFailure.of(plan.output(), written, cause);
    }

    /** What the torch traces added, for the closing summary; null without --torch-traces. */
    private TorchTraceFold.Folded folded;

    private void closeAll() throws IOException {
        try {
            feeds.close();
            if (watch != null) {
                watch.close();
            }
        } finally {
            try {
                out.close();
            } finally {
                if (progress != null) {
                    progress.clear();
                }
            }
        }
    }

    /** Closes everything after a failure; a second failure of the same file says nothing new. */
    private void closeQuietly() {
        try {
            closeAll();
        } catch (IOException | RuntimeException e) {
            // the failure that led here is the one reported
        }
    }

    /** Returns why it stopped early (duration, signal), or null when the capture ended by itself. */
    private String loop() throws IOException {
        long nextCheck = 0;
        long nextBeat = 0;
        long nextProgress = System.nanoTime() + PROGRESS_EVERY_NS;
        long nextLog = System.nanoTime() + LOG_EVERY_NS;
        boolean commandExited = false;
        while (true) {
            long now = System.nanoTime();
            if (now - nextBeat >= 0) {
                heartbeatAll();
                nextBeat = now + heartbeatEveryNs;
            }
            boolean checkNow = now - nextCheck >= 0;
            if (checkNow) {
                // Read before discovering, so the last look happens after the command exited; and
                // then list the folder, as a region made just before the exit may not have been
                // reported by the watch yet. A FEEDS capture has no agents to discover.
                boolean exitedNow = command != null && !command.isAlive();
                if (watch != null) {
                    intake.look(watch.appeared(exitedNow && !commandExited));
                }
                commandExited = exitedNow;
                nextCheck = now + CHECK_EVERY_NS;
            }
            long drained = 0;
            for (int i = 0; i < attached.size(); i++) {
                Attached a = attached.get(i);
                if (!a.finished) {
                    drained += drainSlice(a);
                }
            }
            if (checkNow) {
                checkEnds();
            }
            if (relay != null) {
                relay.poll(attached, err);
            }
            if (kept != null) {
                kept.turn(attached, now, err);
            }
            feeds.pump(out, now, err);
            if (out.cutDue(now)) {
                out.cut(countersSinceJoined());
            }
            out.flushIfDue(now);
            if (disk != null) {
                disk.check(now, out.bytesWritten(), err);
            }
            if (progress != null && now - nextProgress >= 0) {
                progress.show(attached, out.bytesWritten(), feeds.counts());
                nextProgress = now + PROGRESS_EVERY_NS;
            }
            if (progress == null && now - nextLog >= 0) {
                err.println(Progress.logLine(now - beganNs, attached, out.bytesWritten(), feeds.counts()));
                err.flush();
                nextLog = now + LOG_EVERY_NS;
            }
            if (stopRequest != null) {
                return stopRequest;
            }
            if (deadlineNs != 0 && now - deadlineNs >= 0) {
                return "duration";
            }
            if (checkNow && isOver(commandExited)) {
                return null;
            }
            if (drained == 0) {
                LockSupport.parkNanos(200_000);
            }
        }
    }

    private boolean isOver(boolean commandExited) {
        boolean allFinished = true;
        for (Attached a : attached) {
            allFinished &= a.finished;
        }
        if (mode == CapturePlan.Mode.RUN) {
            return commandExited && allFinished;
        }
        if (mode == CapturePlan.Mode.FEEDS) {
            return false; // no agent ends it: the duration or a stop does
        }
        if (attached.isEmpty()) {
            return true;
        }
        boolean allDone = true;
        for (Attached a : attached) {
            allDone &= a.finished || a.endedByItself;
        }
        return allDone;
    }

    private void heartbeatAll() {
        long mono = Posix.monotonicNanos();
        for (Attached a : attached) {
            if (!a.finished) {
                a.region.heartbeat(mono);
            }
        }
    }

    private long drainSlice(Attached a) throws IOException {
        try {
            return a.reader.drain(out, DRAIN_SLICE_BYTES);
        } catch (RingCorruptException e) {
            err.println("vprof: error: " + e.getMessage());
            arming.disarmQuietly(a);
            finish(a, false);
            return 0;
        }
    }

    /** Notices processes that exited (finish them) and, in ATTACH, agents that went DORMANT by themselves. */
    private void checkEnds() throws IOException {
        List<Attached> again = new ArrayList<>();
        for (Attached a : attached) {
            if (a.finished) {
                continue;
            }
            AgentState st = a.region.state();
            boolean alive = a.liveness.alive();
            if (st == AgentState.EXITED || !alive) {
                drainToEnd(a, alive);
                noteExit(a, st);
                finish(a, true);
            } else if (mode == CapturePlan.Mode.ATTACH && st == AgentState.DORMANT && !a.endedByItself) {
                // The range ended (capture-range-end=stop or repeat:N reached): read what is left.
                drainToEnd(a, true);
                a.endedByItself = true;
                if (plan.continuous() != null) {
                    again.add(a);
                }
            }
        }
        for (Attached a : again) {
            rearm(a);
        }
    }

    /**
     * A continuous capture's agent went DORMANT by itself (it missed heartbeats, or its process's
     * own cudaProfilerStop ended its last range): its stay ends in the file as any process's does,
     * and it joins again, armed anew (its names and ids start afresh, as at any ARM).
     */
    private void rearm(Attached a) throws IOException {
        String why = a.region.reason();
        Path path = a.region.path();
        finish(a, true);
        Region r;
        try {
            r = Region.open(path, Posix.getuid(), true);
        } catch (RegionException e) {
            err.println("vprof: warning: pid " + a.pid() + "'s agent went dormant by itself and cannot be armed again: "
                    + e.getMessage());
            return;
        }
        try {
            arming.checkUsable(r);
            Attached again = arming.arm(r);
            err.println("vprof: pid " + a.pid() + "'s agent went dormant by itself"
                    + (why.isEmpty() ? "" : " (" + why + ")") + "; armed it again");
            err.flush();
            join(again);
        } catch (CaptureException e) {
            err.println("vprof: warning: " + e.getMessage() + "; pid " + a.pid() + " is no longer recorded");
            err.flush();
            r.close();
        }
    }

    /** Drains until the ring is empty, or, for a dead process, until nothing committed is left. */
    private void drainToEnd(Attached a, boolean alive) throws IOException {
        long deadline = System.nanoTime() + FINAL_DRAIN_NS;
        while (true) {
            long n = drainSlice(a);
            if (a.finished) {
                return;
            }
            if (a.reader.isEmpty()) {
                return;
            }
            if (n == 0 && !alive) {
                // The process is gone, so a record claimed and never committed at head never will be:
                // consumed as padding (counted, named), and what was committed after it is read.
                long span = a.reader.unblock();
                if (span == 0) {
                    return;
                }
                err.println("vprof: warning: pid " + a.pid() + " exited with a record claimed and never committed "
                        + "in its ring (" + span + " bytes, a producer that died mid-write); skipped it as padding "
                        + "and read on");
                err.flush();
                continue;
            }
            if (n == 0) {
                if (System.nanoTime() - deadline > 0) {
                    // A record claimed but never committed (a producer thread died mid-write).
                    return;
                }
                LockSupport.parkNanos(200_000);
            }
        }
    }

    /** Stop: disarm who is still armed, drain everything, write each process's end, release agents. */
    private void finishAll(boolean disarm) throws IOException {
        if (disarm) {
            heartbeatAll();
            for (Attached a : attached) {
                if (!a.finished && a.region.state().isActive() && a.liveness.alive()) {
                    disarmWhileDraining(a);
                }
            }
        }
        for (Attached a : attached) {
            if (!a.finished) {
                boolean alive = a.liveness.alive();
                drainToEnd(a, alive);
                if (!alive) {
                    noteExit(a, a.region.state());
                }
                finish(a, true);
            }
        }
    }

    /**
     * A process of the capture is gone: how (a signal, a status, or no exit handler at all) and
     * when go into the file at once, and on stderr when it failed (or, in ATTACH, whenever a
     * target leaves before the capture ends).
     */
    private void noteExit(Attached a, AgentState st) throws IOException {
        int waitStatus = -1;
        if (command != null && command.pid() == a.pid() && !command.isAlive()) {
            int v = command.exitValue(); // Process: 128 + the signal for a process a signal killed
            waitStatus = v > 128 && v < 128 + 65 ? v - 128 : (v & 0xff) << 8;
        } else {
            waitStatus = proc.zombieWaitStatus(a.pid());
        }
        long at = Posix.realtimeNanos();
        double into = beganNs == 0 ? 0 : (System.nanoTime() - beganNs) / 1e9;
        long records = a.reader.records();
        ProcessExit e = waitStatus >= 0
                ? ProcessExit.fromWaitStatus(a.pid(), a.info.rank(), waitStatus, at, into, records)
                : new ProcessExit(a.pid(), a.info.rank(), st == AgentState.EXITED ? "exited" : "vanished",
                        0, -1, at, into, records);
        out.chunk(ProcessExit.KIND, e.toJson());
        boolean others = attached.stream().anyMatch(o -> o != a && !o.finished);
        if (e.abnormal()) {
            err.println("vprof: warning: " + e.sentence() + (others ? "; the capture goes on with the other processes" : ""));
        } else if (mode == CapturePlan.Mode.ATTACH) {
            err.println("vprof: " + e.sentence());
        }
        err.flush();
    }

    private void finish(Attached a, boolean writeEnd) throws IOException {
        if (a.finished) {
            return;
        }
        a.finished = true;
        a.last = RegionCounters.read(a.region);
        a.lastReason = a.region.reason();
        if (writeEnd) {
            out.processEnd(a.pid(), a.delta());
        }
        boolean gone = a.region.state() == AgentState.EXITED || !a.liveness.alive();
        if (kept != null) {
            kept.left(a);
        }
        Arming.restoreHeartbeatTimeout(a);
        if (a.region.frontendPid() == ourPid) {
            a.region.setFrontendPid(0);
        }
        if (gone) {
            a.region.unlink();
        }
        a.region.close();
        a.liveness.close();
    }

    private CaptureSummary summary(String stopReason) {
        return CaptureTally.summary(attached, feeds, folded, spec, plan.trigger() != null, stopReason,
                intake.failedAgents());
    }
}
