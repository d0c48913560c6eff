package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcFs;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.ArmSpec;
import dev.vprof.testing.FakeAgent;
import dev.vprof.testing.TestRegions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What discovery costs the drain thread on a busy host: it reads {@code /proc} when a region file
 * appears, and not at all while nothing new appears, however many processes the host runs.
 */
@Timeout(120)
class DiscoveryCostTest {
    private static final String DRAIN_THREAD = "vprof-drain";
    private static final int IDLE_PROCESSES = 300;

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();
    private final List<FakeAgent> agents = new ArrayList<>();

    /** Counts the /proc files the drain thread reads through the engine's one door to /proc. */
    static final class CountingProcFs implements ProcFs {
        private final ProcFs real = ProcFs.system();
        final AtomicLong drainReads = new AtomicLong();

        private void count(long files) {
            if (Thread.currentThread().getName().equals(DRAIN_THREAD)) {
                drainReads.addAndGet(files);
            }
        }

        @Override public ProcessTree tree() {
            ProcessTree t = real.tree();
            count(t.size());
            return t;
        }

        @Override public int parent(int pid) { count(1); return real.parent(pid); }
        @Override public boolean isAlive(int pid) { count(1); return real.isAlive(pid); }
        @Override public boolean exists(int pid) { count(1); return real.exists(pid); }
        @Override public String commandLine(int pid) { count(1); return real.commandLine(pid); }
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (FakeAgent a : agents) {
            a.close();
        }
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private Process start(String script) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", script).start();
        started.add(p);
        return p;
    }

    /** The children of {@code parent} once there are {@code n} of them, by pid. */
    private static List<Integer> awaitChildren(Process parent, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            List<Integer> kids = new ArrayList<>(ProcessTree.read().descendantsOf((int) parent.pid()));
            kids.remove(Integer.valueOf((int) parent.pid()));
            if (kids.size() >= n) {
                kids.sort(null);
                return kids;
            }
            assertTrue(System.nanoTime() < deadline, "only " + kids.size() + " of " + n + " children started");
            Thread.sleep(50);
        }
    }

    private FakeAgent agentFor(int pid) throws Exception {
        FakeAgent a = new FakeAgent(TestRegions.create(dir, pid, 65536, c -> { }), 1000, true);
        agents.add(a);
        return a;
    }

    private static void await(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.sleep(10);
        }
    }

    @Test
    void withTwoWorkersAnd300IdleProcessesTheDrainThreadReadsProcOnlyWhenARegionAppears() throws Exception {
        int self = (int) ProcessHandle.current().pid();
        int fd = Posix.pidfdOpen(self);
        Assumptions.assumeTrue(fd >= 0, "this kernel has no pidfd_open (Linux < 5.3): liveness falls back to /proc");
        Posix.close(fd);

        Process idle = start("for i in $(seq " + IDLE_PROCESSES + "); do sleep 300 & done; wait");
        awaitChildren(idle, IDLE_PROCESSES);
        Process server = start("sleep 300 & sleep 300 & sleep 300 & wait");
        List<Integer> workers = awaitChildren(server, 3);
        int hostProcesses = ProcessTree.read().size();
        assertTrue(hostProcesses > IDLE_PROCESSES, "the host runs " + hostProcesses + " processes");

        agentFor(workers.get(0));
        agentFor(workers.get(1));
        CountingProcFs proc = new CountingProcFs();
        StringWriter log = new StringWriter();
        ArmSpec arm = new ArmSpec(VprofRing.RANGE_NONE, 1, VprofRing.KINDS_DEFAULT, 0,
                Capture.newCaptureId(), "", "");
        CapturePlan plan = CapturePlan.builder(CapturePlan.Mode.ATTACH)
                .rootPid((int) server.pid()).arm(arm).output(dir.resolve("c.vprof")).commandLine(List.of("attach"))
                .build();
        Capture capture = Capture.start(plan, Started.nothing(), new CaptureEnvironment(new AgentDirectory(dir, proc),
                new PrintWriter(log, true), false));
        try {
            assertEquals(2, capture.targets().size());

            // Two workers captured, nothing new: heartbeats, drains, end checks and the directory's
            // safety listing (once a second) go on for 1.5 s without one read of /proc.
            Thread.sleep(200);
            proc.drainReads.set(0);
            Thread.sleep(1500);
            assertEquals(0, proc.drainReads.get(), "/proc files read by the drain thread while nothing appeared");

            // A third worker's agent appears: it is found, placed in the tree and armed, at the cost
            // of a few reads along its parent links, not a walk over the host's processes.
            FakeAgent third = agentFor(workers.get(2));
            await(() -> third.armsSeen == 1, "the third worker is armed");
            long appearance = proc.drainReads.get();
            assertTrue(appearance > 0 && appearance < 20, "/proc files read for one new region: " + appearance
                    + " (the host runs " + hostProcesses + " processes)");

            // And quiet again.
            proc.drainReads.set(0);
            Thread.sleep(1200);
            assertEquals(0, proc.drainReads.get(), "/proc files read after the appearance");
        } finally {
            capture.stop("test");
        }
        CaptureSummary summary = capture.awaitSummary(30, TimeUnit.SECONDS);
        assertNotNull(summary, "the capture finished: " + log);
        assertEquals(3, summary.processes(), log.toString());
        assertEquals(3000, summary.kernels(), "every worker's kernels: " + log);
    }
}
