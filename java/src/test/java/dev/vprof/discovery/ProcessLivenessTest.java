package dev.vprof.discovery;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Whether a process runs, asked of a pidfd rather than of /proc. */
class ProcessLivenessTest {
    /** Fails the test if asked: liveness must not read /proc where pidfds exist. */
    private static final ProcFs NO_PROC = new ProcFs() {
        @Override public ProcessTree tree() { throw new AssertionError("read /proc"); }
        @Override public int parent(int pid) { throw new AssertionError("read /proc"); }
        @Override public boolean isAlive(int pid) { throw new AssertionError("read /proc"); }
        @Override public boolean exists(int pid) { throw new AssertionError("read /proc"); }
        @Override public String commandLine(int pid) { throw new AssertionError("read /proc"); }
    };

    @Test
    void aRunningProcessIsAliveUntilItIsKilled() throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        try (ProcessLiveness life = ProcessLiveness.watch((int) p.pid(), NO_PROC)) {
            assertTrue(life.alive());
            p.destroyForcibly();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (life.alive()) {
                assertTrue(System.nanoTime() < deadline, "still alive after SIGKILL");
                Thread.sleep(5);
            }
            assertFalse(life.alive(), "and stays gone");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aZombieHasExitedAlthoughProcStillListsIt() throws Exception {
        // The child exits after its parent exec'd into sleep, which never reaps it.
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0.3 & echo $!; exec sleep 60").start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            int zombie = Integer.parseInt(r.readLine().trim());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ProcessTree.isAlive(zombie)) {
                assertTrue(System.nanoTime() < deadline, "the child did not exit");
                Thread.sleep(5);
            }
            assertTrue(ProcFs.system().exists(zombie), "a zombie: /proc still lists it");
            try (ProcessLiveness life = ProcessLiveness.watch(zombie, NO_PROC)) {
                assertFalse(life.alive());
            }
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    void aPidThatIsGoneReadsAsExited() {
        try (ProcessLiveness life = ProcessLiveness.watch(4_000_000, ProcFs.system())) {
            assertFalse(life.alive());
        }
    }
}
