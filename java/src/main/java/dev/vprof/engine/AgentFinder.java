package dev.vprof.engine;

import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcFs;
import dev.vprof.discovery.RegionFile;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import dev.vprof.region.RegionNotReadyException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** ATTACH: the agents already in a process tree when the capture starts, mapped and validated. */
final class AgentFinder {
    private static final long NOT_READY_WAIT_NS = TimeUnit.SECONDS.toNanos(2);

    private AgentFinder() {}

    /** The agents in {@code root}'s tree; every way this can fail is one clear sentence. */
    static List<Region> inTree(int root, AgentDirectory directory) {
        ProcFs proc = directory.proc();
        if (!proc.isAlive(root)) {
            throw new CaptureException("no process with pid " + root + " is running");
        }
        Set<Integer> tree = proc.tree().descendantsOf(root);
        List<RegionFile> files = directory.within(tree);
        if (files.isEmpty()) {
            throw new CaptureException.NoAgent("no vprof agent in pid " + root + " or its descendants; start the "
                    + "program with `vprof launch -- CMD`, or with CUDA_INJECTION64_PATH=$(vprof agent-path) in its "
                    + "environment");
        }
        int uid = Posix.getuid();
        List<Region> regions = new ArrayList<>();
        try {
            for (RegionFile f : files) {
                Region r = openWhenReady(f.path(), uid);
                if (r.state() == AgentState.EXITED) {
                    r.close();
                    continue;
                }
                regions.add(r);
            }
        } catch (RegionException e) {
            regions.forEach(Region::close);
            throw new CaptureException(e.getMessage(), e);
        }
        if (regions.isEmpty()) {
            throw new CaptureException("every vprof agent in the tree of pid " + root + " has already exited");
        }
        return regions;
    }

    private static Region openWhenReady(Path path, int uid) throws RegionException {
        long deadline = System.nanoTime() + NOT_READY_WAIT_NS;
        while (true) {
            try {
                Region r = Region.open(path, uid, true);
                if (r.state() != AgentState.STARTING) {
                    return r;
                }
                r.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new RegionException("the agent in pid " + Region.pidOf(path)
                            + " is still starting after 2 s; try again in a moment");
                }
            } catch (RegionNotReadyException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RegionException("interrupted");
            }
        }
    }
}
