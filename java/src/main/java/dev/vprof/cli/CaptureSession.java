package dev.vprof.cli;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.discovery.RegionFile;
import dev.vprof.drain.RingCorruptException;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.ArmSpec;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import dev.vprof.region.RegionNotReadyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One capture: the single reader thread that discovers regions, heartbeats, drains every attached
 * ring into the output and decides when the capture is over (DESIGN §5).
 *
 * <p>{@link Mode#RUN}: the agents armed themselves from {@code VPROF_ARM}; the session picks up
 * every region in the command's process tree, or whose frontend_pid and capture id are ours (a
 * process that exited before it was found), and ends when the command has exited and every
 * region is read to its end. {@link Mode#ATTACH}: the session arms what it attaches and ends when
 * told to, when every agent went back to DORMANT by itself, or when every target exited.
 */
final class CaptureSession {
    enum Mode { RUN, ATTACH }

    /** What the session saw, for the closing summary and for tests. */
    record Summary(int processes, long ranges, long kernels, long records, long ringDrops,
                   long ringDropsKernels, long cuptiDrops, String stopReason, CaptureFeeds.Counts feeds,
                   List<String> feedLines, List<String> agentWarnings) {}

    static final long COMMAND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);
    /**
     * DISARM drains the open range first (its work may still be running: the agent waits up to
     * VPROF_DRAIN_MAX_MS for it), so its answer may take that long on top of a command's.
     */
    static final long DISARM_TIMEOUT_NS = COMMAND_TIMEOUT_NS + TimeUnit.MILLISECONDS.toNanos(2 * VprofRing.DRAIN_MAX_MS);
    private static final long DISCOVER_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long HEARTBEAT_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long PROGRESS_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long DRAIN_SLICE_BYTES = 1 << 20;
    private static final long FINAL_DRAIN_NS = TimeUnit.SECONDS.toNanos(3);

    private final Mode mode;
    private final int rootPid;
    private final ArmSpec spec;
    private CaptureOutput out;        // may arrive after arming (attach arms before it creates the file)
    private final AgentDirectory dir;
    private final PrintWriter err;
    private final int ourPid = (int) ProcessHandle.current().pid();
    private final int uid;
    private final long startedRealtimeNs = ProcessHandle.current().info().startInstant()
            .map(i -> i.getEpochSecond() * 1_000_000_000L + i.getNano()).orElse(0L);
    private final List<Attached> attached = new ArrayList<>();
    private final Set<Integer> seenPids = new HashSet<>();
    private final Set<String> ignored = new HashSet<>();
    private final Progress progress;
    private final CountDownLatch finished = new CountDownLatch(1);

    private volatile String stopRequest;
    private Process command;          // RUN: the command we started
    private TreeRangeRelay relay;     // --range-scope tree; null otherwise
    private CaptureFeeds feeds = CaptureFeeds.none();
    private long deadlineNs;          // 0: none

    CaptureSession(Mode mode, int rootPid, ArmSpec spec, CaptureOutput out, AgentDirectory dir,
                   PrintWriter err, boolean showProgress) {
        this.mode = mode;
        this.rootPid = rootPid;
        this.spec = spec;
        this.out = out;
        this.dir = dir;
        this.err = err;
        this.uid = Posix.getuid();
        this.progress = showProgress ? new Progress(err) : null;
    }

    void command(Process p) { this.command = p; }

    /** --range-scope tree: relay each process's cudaProfilerApi ranges to every agent of the tree. */
    void rangeScopeTree(boolean tree) { this.relay = tree ? new TreeRangeRelay(mode == Mode.RUN) : null; }

    /** Metrics, spans and the trigger for this capture; the session closes them when it ends. */
    void feeds(CaptureFeeds f) { this.feeds = f; }

    CaptureFeeds feeds() { return feeds; }

    void deadlineAfterNanos(long ns) { this.deadlineNs = System.nanoTime() + ns; }


    /** Asks the reader thread to stop cleanly (Ctrl-C, SIGTERM); safe from any thread. */
    void requestStop(String why) {
        if (stopRequest == null) {
            stopRequest = why;
        }
    }

    /** Waits until the session finished its file (for the shutdown hook). */
    boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    List<Attached> attached() { return attached; }

    // ---- attaching ------------------------------------------------------------------------------

    /**
     * ATTACH: validates and arms the agents in {@code regions} (all or nothing): a FAILED agent, a
     * busy one or an ARM that is refused ends the attach with a {@link CliException}, and the
     * agents armed so far are disarmed again.
     */
    void armAll(List<Region> regions, long askedRingSize) {
        List<Attached> armed = new ArrayList<>();
        try {
            for (Region r : regions) {
                checkUsable(r);
            }
            for (Region r : regions) {
                if (askedRingSize != 0 && askedRingSize != r.capacity()) {
                    err.println("vprof: warning: --ring-size is fixed when the agent starts; pid " + r.pid()
                            + " keeps its ring of " + r.capacity() + " bytes");
                }
                armed.add(arm(r));
            }
        } catch (CliException e) {
            for (Attached a : armed) {
                disarmQuietly(a);
                a.region.setFrontendPid(0);
            }
            attached.clear();
            regions.forEach(Region::close);
            throw e;
        }
    }

    private void checkUsable(Region r) {
        AgentState st = r.state();
        if (st == AgentState.FAILED) {
            throw new CliException("the agent in pid " + r.pid() + " is FAILED: " + r.reason());
        }
        int fe = r.frontendPid();
        if (fe != 0 && fe != ourPid && ProcessTree.isAlive(fe)) {
            throw new CliException("pid " + r.pid() + " is already being captured by the vprof in pid " + fe
                    + "; stop that capture first (Ctrl-C it, or kill " + fe + ")");
        }
    }

    /** Heartbeat, then ARM; returns the process as attached. */
    private Attached arm(Region r) {
        AgentState st = r.state();
        if (st.isActive()) {
            // Left armed by a front end that died (checkUsable saw it gone): take it back to DORMANT first.
            disarmOrThrow(r);
        }
        Attached a = newAttached(r, r.counters());
        long leftovers = a.reader.discardLeftovers();
        if (leftovers > 0) {
            err.println("vprof: pid " + r.pid() + ": discarded " + leftovers
                    + " bytes an earlier, interrupted capture left in the ring");
        }
        r.heartbeat(Posix.monotonicNanos());
        int result;
        try {
            result = r.arm(spec, ourPid, COMMAND_TIMEOUT_NS);
        } catch (RegionException e) {
            throw new CliException(e.getMessage(), e);
        }
        if (result == VprofRing.RESULT_BUSY) {
            throw new CliException("the agent in pid " + r.pid() + " refused: another vprof holds it (pid "
                    + r.frontendPid() + ")");
        }
        if (result == VprofRing.RESULT_FAILED) {
            throw new CliException("the agent in pid " + r.pid() + " is FAILED: " + r.reason());
        }
        if (result != VprofRing.RESULT_OK) {
            throw new CliException("the agent in pid " + r.pid() + " refused the ARM command (result " + result
                    + (r.reason().isEmpty() ? "" : ": " + r.reason()) + ")");
        }
        r.setFrontendPid(ourPid);
        join(a);
        return a;
    }

    private void disarmOrThrow(Region r) {
        try {
            r.disarm(COMMAND_TIMEOUT_NS);
        } catch (RegionException e) {
            throw new CliException(e.getMessage(), e);
        }
    }

    private void disarmQuietly(Attached a) {
        try {
            a.region.disarm(COMMAND_TIMEOUT_NS);
        } catch (RegionException e) {
            err.println("vprof: warning: " + e.getMessage());
        }
    }

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
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (RegionException e) {
            err.println("vprof: warning: " + e.getMessage());
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        if (corrupt[0] != null) {
            err.println("vprof: error: " + corrupt[0].getMessage());
            finish(a, false);
        }
    }

    private Attached newAttached(Region r, AgentCounters baseline) {
        ProcessTree tree = ProcessTree.read();
        String cmd = r.cmdline();
        if (cmd.isEmpty()) {
            cmd = ProcessTree.commandLine(r.pid());
        }
        ProcessInfo info = new ProcessInfo(r.pid(), tree.parent(r.pid()), cmd, Integer.toUnsignedLong(r.cuptiVersion()),
                r.agentFlags(), r.capacity(), r.startRealtimeNs(), r.rank(), r.localRank(), r.worldSize());
        return new Attached(r, baseline, info);
    }

    private void join(Attached a) {
        attached.add(a);
        seenPids.add(a.pid());
        if (out != null) {
            announce(a);
        }
    }

    /** The PROCESS chunk, before any of the process's records. */
    private void announce(Attached a) {
        try {
            out.process(a.info);
            a.announced = true;
        } catch (IOException e) {
            throw new CliException("cannot write the capture file: " + e.getMessage(), e);
        }
    }

    /** Sets the output when it was not known at construction; must come before {@link #run}. */
    void output(CaptureOutput o) {
        this.out = o;
    }

    /** Undoes armAll when the capture cannot go on (the file could not be created): agents back to DORMANT. */
    void releaseAll() {
        for (Attached a : attached) {
            if (a.region.state().isActive()) {
                disarmQuietly(a);
            }
            a.region.setFrontendPid(0);
            a.region.close();
            a.finished = true;
        }
    }

    /** Finds regions that joined since the last look (new workers, or RUN's processes). */
    private void discover() {
        Set<Integer> tree = ProcessTree.read().descendantsOf(rootPid);
        for (RegionFile f : dir.all()) {
            if (seenPids.contains(f.pid()) || ignored.contains(f.path().toString())) {
                continue;
            }
            boolean inTree = f.alive() && tree.contains(f.pid());
            if (mode == Mode.RUN && f.alive() && !inTree) {
                // A worker forked after the snapshot above may already have its region but not yet
                // the front end's pid from VPROF_ARM: judged on the snapshot, RUN would ignore it for
                // good. (ATTACH looks again at the next pass.) Once per region: it is then joined or ignored.
                inTree = ProcessTree.read().descendantsOf(rootPid).contains(f.pid());
            }
            if (!inTree && mode == Mode.ATTACH) {
                continue;
            }
            Region r;
            try {
                r = Region.open(f.path(), uid, true);
            } catch (RegionNotReadyException e) {
                continue;
            } catch (RegionException e) {
                if (inTree) {
                    err.println("vprof: warning: " + e.getMessage() + "; that process is not captured");
                }
                ignored.add(f.path().toString());
                continue;
            }
            AgentState st = r.state();
            // The agent records which front end it serves (VPROF_ARM's frontend=); an agent started
            // before this front end cannot be ours, whatever pid reuse put in that field.
            boolean ours = r.frontendPid() == ourPid && r.startRealtimeNs() >= startedRealtimeNs;
            if (st == AgentState.STARTING) {
                r.close();
                continue;
            }
            if (!inTree && !ours) {
                ignored.add(f.path().toString());
                r.close();
                continue;
            }
            if (st == AgentState.FAILED) {
                err.println("vprof: warning: the agent in pid " + r.pid() + " is FAILED: " + r.reason()
                        + "; that process runs on without capture");
                ignored.add(f.path().toString());
                r.close();
                continue;
            }
            if (mode == Mode.RUN) {
                // Armed by VPROF_ARM at its start: everything since then is ours.
                r.heartbeat(Posix.monotonicNanos());
                if (!ours && st == AgentState.DORMANT && r.counters().records() == 0) {
                    err.println("vprof: warning: the agent in pid " + r.pid()
                            + " did not arm itself from VPROF_ARM; it is not captured");
                }
                join(newAttached(r, new AgentCounters(0, 0, 0, 0, 0, 0)));
            } else {
                try {
                    checkUsable(r);
                    arm(r);
                } catch (CliException e) {
                    err.println("vprof: warning: " + e.getMessage() + "; that process is not captured");
                    ignored.add(f.path().toString());
                    r.close();
                }
            }
        }
    }

    // ---- the loop -------------------------------------------------------------------------------

    /** Runs the capture on the calling thread until it is over; finishes the output. */
    Summary run() throws IOException {
        String stopReason;
        try {
            for (Attached a : attached) {
                if (!a.announced) {
                    announce(a);
                }
            }
            try {
                feeds.begin(out, mode == Mode.RUN, err);
            } catch (CliException e) {
                // --trigger refused (404, no server): nothing will be captured; leave a finished, empty file.
                finishAll(true);
                feeds.finish(out, err);
                throw e;
            }
            stopReason = loop();
            feeds.beforeFinish(err, command != null && !command.isAlive());
            finishAll(stopReason != null);
            feeds.finish(out, err);
        } finally {
            try {
                feeds.close();
                out.close();
            } finally {
                if (progress != null) {
                    progress.clear();
                }
                finished.countDown();
            }
        }
        return summary(stopReason);
    }

    /** Returns why it stopped early (duration, signal), or null when the capture ended by itself. */
    private String loop() throws IOException {
        long nextDiscover = 0;
        long nextBeat = 0;
        long nextProgress = System.nanoTime() + PROGRESS_EVERY_NS;
        boolean commandExited = false;
        while (true) {
            long now = System.nanoTime();
            if (now - nextBeat >= 0) {
                heartbeatAll();
                nextBeat = now + HEARTBEAT_EVERY_NS;
            }
            boolean checkNow = now - nextDiscover >= 0;
            if (checkNow) {
                // Read before discovering, so the last look happens after the command exited.
                commandExited = command != null && !command.isAlive();
                discover();
                nextDiscover = now + DISCOVER_EVERY_NS;
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
            feeds.pump(out, now, err);
            if (progress != null && now - nextProgress >= 0) {
                progress.show(attached);
                nextProgress = now + PROGRESS_EVERY_NS;
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
        if (mode == Mode.RUN) {
            return commandExited && allFinished;
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
            disarmQuietly(a);
            finish(a, false);
            return 0;
        }
    }

    /** Notices processes that exited (finish them) and, in ATTACH, agents that went DORMANT by themselves. */
    private void checkEnds() throws IOException {
        for (Attached a : attached) {
            if (a.finished) {
                continue;
            }
            AgentState st = a.region.state();
            boolean alive = ProcessTree.isAlive(a.pid());
            if (st == AgentState.EXITED || !alive) {
                drainToEnd(a, alive);
                finish(a, true);
            } else if (mode == Mode.ATTACH && st == AgentState.DORMANT && !a.endedByItself) {
                // The range ended (capture-range-end=stop or repeat:N reached): read what is left.
                drainToEnd(a, true);
                a.endedByItself = true;
            }
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
            if (a.reader.isEmpty() || (n == 0 && !alive)) {
                return;
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
                if (!a.finished && a.region.state().isActive() && ProcessTree.isAlive(a.pid())) {
                    disarmWhileDraining(a);
                }
            }
        }
        for (Attached a : attached) {
            if (!a.finished) {
                drainToEnd(a, ProcessTree.isAlive(a.pid()));
                finish(a, true);
            }
        }
    }

    private void finish(Attached a, boolean writeEnd) throws IOException {
        if (a.finished) {
            return;
        }
        a.finished = true;
        a.last = a.region.counters();
        a.lastReason = a.region.reason();
        if (writeEnd) {
            out.processEnd(a.pid(), a.delta());
        }
        boolean gone = a.region.state() == AgentState.EXITED || !ProcessTree.isAlive(a.pid());
        if (a.region.frontendPid() == ourPid) {
            a.region.setFrontendPid(0);
        }
        if (gone) {
            a.region.unlink();
        }
        a.region.close();
    }

    private Summary summary(String stopReason) {
        long ranges = 0, kernels = 0, records = 0, ringDrops = 0, ringDropsKernels = 0, cuptiDrops = 0;
        List<String> agentWarnings = new ArrayList<>();
        for (Attached a : attached) {
            long raised = a.delta().warningFlags();
            if (raised != 0) {
                agentWarnings.add("pid " + a.pid() + ": " + a.lastReason + " ["
                        + String.join(", ", dev.vprof.capture.RangeEvent.flagNames(raised)) + "]");
            }
            ranges += a.reader.rangesBegun();
            kernels += a.reader.records((int) VprofRing.REC_KERNEL);
            records += a.reader.records();
            AgentCounters d = a.delta();
            ringDrops += d.ringDrops();
            ringDropsKernels += d.ringDropsKernels();
            cuptiDrops += d.cuptiDrops();
        }
        return new Summary(attached.size(), ranges, kernels, records, ringDrops, ringDropsKernels, cuptiDrops, stopReason,
                feeds.counts(), feeds.summaryLines(), agentWarnings);
    }

    /** The closing lines; loud when anything was lost. */
    static void printSummary(PrintWriter err, String file, Summary s) {
        err.printf("vprof: wrote %s: %d process%s, %d range%s, %d kernels, %d records; %d ring drops, %d CUPTI drops%n",
                file, s.processes(), s.processes() == 1 ? "" : "es", s.ranges(), s.ranges() == 1 ? "" : "s",
                s.kernels(), s.records(), s.ringDrops(), s.cuptiDrops());
        s.feedLines().forEach(err::println);
        if (s.ringDrops() > 0) {
            err.printf("vprof: WARNING: %d records (%d kernels) were DROPPED because a ring was full; "
                    + "use a larger --ring-size%n", s.ringDrops(), s.ringDropsKernels());
        }
        if (s.cuptiDrops() > 0) {
            err.printf("vprof: WARNING: CUPTI DROPPED %d records (no free buffer); use a larger --buffer-size%n",
                    s.cuptiDrops());
        }
        for (String w : s.agentWarnings()) {
            err.println("vprof: WARNING: " + w + "; `vprof report " + file + "` says more");
        }
    }
}
