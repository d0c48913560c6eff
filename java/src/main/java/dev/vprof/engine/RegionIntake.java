package dev.vprof.engine;

import dev.vprof.capture.AgentCounters;
import dev.vprof.discovery.ProcFs;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import dev.vprof.region.RegionNotReadyException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The discovery stage of a {@link CaptureSession}: decides, for each region file that appears in
 * the agent directory, whether its process belongs to this capture, and hands the ones that do to
 * the session attached (RUN) or armed (ATTACH). A region whose agent is not ready yet (STARTING,
 * or a control block not yet valid) is kept and looked at again; a FAILED agent is counted and
 * its reason printed once.
 */
final class RegionIntake {
    /** A region still STARTING (or not yet valid) is retried this often for its first seconds, then every second. */
    static final long PENDING_FAST_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long PENDING_SLOW_EVERY_NS = TimeUnit.SECONDS.toNanos(1);

    private final CapturePlan.Mode mode;
    private final int rootPid;
    private final int uid;
    private final ProcFs proc;
    private final PrintWriter err;
    private final Arming arming;
    private final Consumer<Attached> join;
    private final long checkEveryNs;
    private final Set<Integer> seenPids = new HashSet<>();
    /** Regions found before their agent was ready: path -> whether the process is in the tree. */
    private final Map<Path, Pending> pending = new HashMap<>();
    /** Agents found FAILED (their reason was printed as they were found). */
    private int failedAgents;

    private record Pending(boolean inTree, long sinceNs) {}

    /**
     * {@code join} receives every process that joins the capture; {@code checkEveryNs} is how
     * often the session looks, so that a slow retry falls in exactly one look a second.
     */
    RegionIntake(CapturePlan.Mode mode, int rootPid, ProcFs proc, PrintWriter err, Arming arming,
                 Consumer<Attached> join, long checkEveryNs) {
        this.mode = mode;
        this.rootPid = rootPid;
        this.uid = Posix.getuid();
        this.proc = proc;
        this.err = err;
        this.arming = arming;
        this.join = join;
        this.checkEveryNs = checkEveryNs;
    }

    /** A process already in the capture: a region of it that appears again is not looked at. */
    void seen(int pid) {
        seenPids.add(pid);
    }

    /** The pids of every process met so far (joined or FAILED). */
    Set<Integer> seenPids() {
        return new HashSet<>(seenPids);
    }

    int failedAgents() {
        return failedAgents;
    }

    /** How many regions wait for their agent to be ready. */
    int pendingCount() {
        return pending.size();
    }

    /**
     * Looks at the region files that {@code appeared} since the last look, and again at those
     * found before their agent was ready. Reads /proc only for a file that just appeared.
     */
    void look(List<Path> appeared) {
        long now = System.nanoTime();
        for (Path p : appeared) {
            // Each region file is looked at once, when it appears (again, for a file made anew).
            pending.remove(p);
            int pid = Region.pidOf(p);
            if (seenPids.contains(pid)) {
                continue;
            }
            consider(p, proc.isDescendant(pid, rootPid), now);
        }
        if (!pending.isEmpty()) {
            for (Map.Entry<Path, Pending> e : List.copyOf(pending.entrySet())) {
                long age = now - e.getValue().sinceNs();
                if (age < PENDING_FAST_NS || age % PENDING_SLOW_EVERY_NS < checkEveryNs) {
                    consider(e.getKey(), e.getValue().inTree(), e.getValue().sinceNs());
                }
            }
        }
    }

    /** Opens a region found in the directory and attaches it if it belongs to this capture. */
    private void consider(Path path, boolean inTree, long sinceNs) {
        pending.remove(path);
        if (!inTree && mode == CapturePlan.Mode.ATTACH) {
            return;
        }
        Region r;
        try {
            r = Region.open(path, uid, true);
        } catch (RegionNotReadyException e) {
            pending.put(path, new Pending(inTree, sinceNs));
            return;
        } catch (RegionException e) {
            if (inTree) {
                err.println("vprof: warning: " + e.getMessage() + "; that process is not captured");
            }
            return;
        }
        AgentState st = r.state();
        boolean ours = arming.belongsToThisCapture(r);
        if (st == AgentState.STARTING) {
            r.close();
            pending.put(path, new Pending(inTree, sinceNs));
            return;
        }
        if (!inTree && !ours) {
            r.close();
            return;
        }
        if (st == AgentState.FAILED) {
            // An agent that failed in a process that has already exited kept its region for us (its
            // VPROF_ARM named us): the reason is read here, then the region is ours to remove.
            boolean gone = !proc.isAlive(r.pid());
            seenPids.add(r.pid());
            failedAgents++;
            err.println("vprof: warning: the agent in pid " + r.pid() + " is FAILED: " + r.reason()
                    + (gone ? "; that process has exited" : "; that process runs on without capture"));
            if (gone && ours) {
                r.unlink();
            }
            r.close();
            return;
        }
        if (mode == CapturePlan.Mode.RUN) {
            // Armed by VPROF_ARM at its start: everything since then is ours.
            r.heartbeat(Posix.monotonicNanos());
            if (!ours && st == AgentState.DORMANT && RegionCounters.read(r).records() == 0) {
                err.println("vprof: warning: the agent in pid " + r.pid()
                        + " did not arm itself from VPROF_ARM; it is not captured");
            }
            take(arming.newAttached(r, new AgentCounters(0, 0, 0, 0, 0, 0)));
        } else {
            try {
                arming.checkUsable(r);
                take(arming.arm(r));
            } catch (CaptureException e) {
                err.println("vprof: warning: " + e.getMessage() + "; that process is not captured");
                r.close();
            }
        }
    }

    private void take(Attached a) {
        seenPids.add(a.pid());
        join.accept(a);
    }
}
