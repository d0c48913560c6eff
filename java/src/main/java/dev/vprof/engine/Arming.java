package dev.vprof.engine;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.discovery.ProcFs;
import dev.vprof.discovery.ProcessLiveness;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.ArmSpec;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How one capture takes hold of agents and lets go of them: which agents are its own, arming
 * them (ATTACH: all or nothing before the file exists, then one by one as they appear), and
 * releasing them when the capture cannot go on. It exists before the {@link CaptureSession}
 * does, so that the session is made with the file the capture writes, created only once every
 * agent of the tree accepted the ARM.
 */
final class Arming {
    /** The agent's own heartbeat timeout, as native/src/agent/region.c sets it when it makes the region. */
    static final long AGENT_HEARTBEAT_TIMEOUT_NS = 5_000_000_000L;
    private final ArmSpec spec;
    /** {@code vprof watch}'s heartbeat timeout for the agents it arms, in ns; 0 to leave the agent's. */
    private final long heartbeatTimeoutNs;
    private final ProcFs proc;
    private final PrintWriter err;
    private final int ourPid = (int) ProcessHandle.current().pid();
    /**
     * When this capture began (epoch ns): an agent that carries this front end's pid but started
     * before it was armed by another capture of this JVM (one after another, as tests and the demo
     * run them) and is not this one's to adopt.
     */
    private final long startedRealtimeNs;

    /** For {@code plan}, begun now (ATTACH) or when {@code started}'s command started (RUN). */
    Arming(CapturePlan plan, Started started, CaptureEnvironment env) {
        this.spec = plan.arm();
        this.heartbeatTimeoutNs = plan.continuous() == null ? 0 : plan.continuous().heartbeatTimeout().toNanos();
        this.proc = env.agents().proc();
        this.err = env.log();
        this.startedRealtimeNs = captureStart(started.command());
    }

    int ourPid() {
        return ourPid;
    }

    /**
     * Whether the agent in {@code r} serves this capture: it records this front end's pid
     * (VPROF_ARM's frontend=, or the ARM of this capture) and started since this capture began, so
     * that neither pid reuse nor an earlier capture of the same JVM makes a stranger's agent ours.
     */
    boolean belongsToThisCapture(Region r) {
        return r.frontendPid() == ourPid && r.startRealtimeNs() >= startedRealtimeNs;
    }

    /**
     * ATTACH: validates and arms the agents in {@code regions} (all or nothing): a FAILED agent, a
     * busy one or an ARM that is refused ends the attach with a {@link CaptureException}, and the
     * agents armed so far are disarmed again. Returns them as attached, in order.
     */
    List<Attached> armAll(List<Region> regions, long askedRingSize) {
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
        } catch (CaptureException e) {
            for (Attached a : armed) {
                disarmQuietly(a);
                restoreHeartbeatTimeout(a);
                a.region.setFrontendPid(0);
                a.liveness.close();
            }
            regions.forEach(Region::close);
            throw e;
        }
        return armed;
    }

    /** Throws when {@code r}'s agent cannot be armed by this capture: FAILED, or held by another live vprof. */
    void checkUsable(Region r) {
        AgentState st = r.state();
        if (st == AgentState.FAILED) {
            throw new CaptureException("the agent in pid " + r.pid() + " is FAILED: " + r.reason());
        }
        int fe = r.frontendPid();
        if (fe != 0 && fe != ourPid && proc.isAlive(fe)) {
            throw new CaptureException("pid " + r.pid() + " is already being captured by the vprof in pid " + fe
                    + "; stop that capture first (Ctrl-C it, or kill " + fe + ")");
        }
    }

    /** Heartbeat, then ARM; returns the process as attached (the session joins it). */
    Attached arm(Region r) {
        AgentState st = r.state();
        if (st.isActive()) {
            // Left armed by a front end that died (checkUsable saw it gone): take it back to DORMANT first.
            disarmOrThrow(r);
        }
        Attached a = newAttached(r, RegionCounters.read(r));
        try {
            long leftovers = a.reader.discardLeftovers();
            if (leftovers > 0) {
                err.println("vprof: pid " + r.pid() + ": discarded " + leftovers
                        + " bytes an earlier, interrupted capture left in the ring");
            }
            r.heartbeat(Posix.monotonicNanos());
            if (heartbeatTimeoutNs != 0) {
                a.heartbeatTimeoutBefore = Math.max(r.heartbeatTimeoutNs(), AGENT_HEARTBEAT_TIMEOUT_NS);
                r.setHeartbeatTimeoutNs(heartbeatTimeoutNs);
            } else if (r.heartbeatTimeoutNs() < AGENT_HEARTBEAT_TIMEOUT_NS) {
                // A vprof watch killed with SIGKILL could not set the agent's own timeout back.
                r.setHeartbeatTimeoutNs(AGENT_HEARTBEAT_TIMEOUT_NS);
            }
            int result;
            try {
                result = r.arm(spec, ourPid, CaptureSession.COMMAND_TIMEOUT_NS);
            } catch (RegionException e) {
                throw new CaptureException(e.getMessage(), e);
            }
            if (result == VprofRing.RESULT_BUSY) {
                throw new CaptureException("the agent in pid " + r.pid() + " refused: another vprof holds it (pid "
                        + r.frontendPid() + ")");
            }
            if (result == VprofRing.RESULT_FAILED) {
                throw new CaptureException("the agent in pid " + r.pid() + " is FAILED: " + r.reason());
            }
            if (result != VprofRing.RESULT_OK) {
                throw new CaptureException("the agent in pid " + r.pid() + " refused the ARM command (result " + result
                        + (r.reason().isEmpty() ? "" : ": " + r.reason()) + ")");
            }
        } catch (RuntimeException e) {
            restoreHeartbeatTimeout(a);
            a.liveness.close();
            throw e;
        }
        r.setFrontendPid(ourPid);
        return a;
    }

    /** The agent's own heartbeat timeout back, as the capture lets it go. */
    static void restoreHeartbeatTimeout(Attached a) {
        if (a.heartbeatTimeoutBefore != 0) {
            a.region.setHeartbeatTimeoutNs(a.heartbeatTimeoutBefore);
            a.heartbeatTimeoutBefore = 0;
        }
    }

    private void disarmOrThrow(Region r) {
        try {
            r.disarm(CaptureSession.COMMAND_TIMEOUT_NS);
        } catch (RegionException e) {
            throw new CaptureException(e.getMessage(), e);
        }
    }

    void disarmQuietly(Attached a) {
        try {
            a.region.disarm(CaptureSession.COMMAND_TIMEOUT_NS);
        } catch (RegionException e) {
            err.println("vprof: warning: " + e.getMessage());
        }
    }

    /** Reads the process's parent (and its command line when the agent did not give one) from /proc. */
    Attached newAttached(Region r, AgentCounters baseline) {
        String cmd = r.cmdline();
        if (cmd.isEmpty()) {
            cmd = proc.commandLine(r.pid());
        }
        ProcessInfo info = new ProcessInfo(r.pid(), proc.parent(r.pid()), cmd, Integer.toUnsignedLong(r.cuptiVersion()),
                r.agentFlags(), r.capacity(), r.startRealtimeNs(), r.rank(), r.localRank(), r.worldSize());
        return new Attached(r, baseline, info, ProcessLiveness.watch(r.pid(), proc));
    }

    /** Undoes {@link #armAll} when the capture cannot go on (the file could not be created): agents back to DORMANT. */
    void releaseAll(List<Attached> attached) {
        for (Attached a : attached) {
            if (a.region.state().isActive()) {
                disarmQuietly(a);
            }
            restoreHeartbeatTimeout(a);
            a.region.setFrontendPid(0);
            a.region.close();
            a.liveness.close();
            a.finished = true;
        }
    }

    /**
     * RUN: when the command started (its agents read VPROF_ARM, with this front end's pid, after
     * that; /proc's start time is in clock ticks, rounded down, so never late). A command that has
     * already exited has no start time to read: then when this JVM started, which is before it
     * and its agents too ("now" would disown the agent of a process that lived a millisecond, and
     * leave its region behind). ATTACH: now, since the agents it arms get this pid only from this
     * capture.
     */
    static long captureStart(Process command) {
        Optional<Instant> started = command == null ? Optional.empty()
                : command.info().startInstant().or(() -> ProcessHandle.current().info().startInstant());
        Instant at = started.orElseGet(Instant::now);
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }
}
