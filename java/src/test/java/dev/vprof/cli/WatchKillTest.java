package dev.vprof.cli;

import static dev.vprof.cli.PrometheusWatchTest.await;
import static dev.vprof.cli.PrometheusWatchTest.awaitDormant;
import static dev.vprof.cli.PrometheusWatchTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watch killed with SIGKILL: its agents disarm themselves within 1 s (they stop hearing its
 * heartbeat), the target runs on and finishes its work, and the next capture finds the agent as
 * it was (its own 5 s timeout back).
 */
class WatchKillTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSigkilledWatchLeavesTheAgentDormantWithinOneSecondAndTheTargetRunning(@TempDir Path dir) throws Exception {
        E2e e2e = E2e.nativeParts();
        Path log = dir.resolve("sim.log");
        Process sim = e2e.startTarget(log, "--duration", "25s", "--step-us", "1000");
        try {
            awaitDormant(sim.pid());
            Path region = Path.of("/dev/shm/vprof." + sim.pid());
            Path err = dir.resolve("watch.err");
            Process watch = new ProcessBuilder(e2e.vprofCommand("watch", "--pid", Long.toString(sim.pid()),
                    "--dir", dir.resolve("w").toString(), "--keep", "10s", "--segment", "2s"))
                    .redirectErrorStream(true).redirectOutput(err.toFile()).start();
            await(() -> read(err).contains("recording the last"), 60, "the watch's start: " + read(err));
            await(() -> E2e.stateOf(region) == AgentState.CAPTURING, 10, "armed: " + E2e.stateOf(region));
            Thread.sleep(2000);

            watch.destroyForcibly(); // SIGKILL
            long killed = System.nanoTime();
            assertTrue(watch.waitFor(10, TimeUnit.SECONDS));
            long dormantAfter = -1;
            while (System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(5)) {
                if (E2e.stateOf(region) == AgentState.DORMANT) {
                    dormantAfter = System.nanoTime() - killed;
                    break;
                }
                Thread.sleep(2);
            }
            System.out.printf("SIGKILL: the agent was DORMANT %.3f s after the watch was killed%n", dormantAfter / 1e9);
            assertTrue(dormantAfter >= 0 && dormantAfter <= TimeUnit.SECONDS.toNanos(1),
                    "DORMANT within 1 s of the SIGKILL, not " + dormantAfter / 1e9 + " s; reason: " + E2e.reasonOf(region));
            assertTrue(E2e.reasonOf(region).contains("silent"), E2e.reasonOf(region));
            assertTrue(sim.isAlive(), "the target runs on");

            // The next capture sets the agent's own timeout back and records as usual.
            Path file = dir.resolve("after.vprof");
            E2e.ok(Cli.run("attach", "--pid", Long.toString(sim.pid()), "--duration", "1s", "-o", file.toString()));
            try (Region r = Region.open(region, Posix.getuid(), false)) {
                assertEquals(5_000_000_000L, r.heartbeatTimeoutNs(), "the agent's own heartbeat timeout");
            }
            assertTrue(E2e.kernels(E2e.report(file)) > 0);
            assertTrue(sim.waitFor(60, TimeUnit.SECONDS), "the target finished its work");
            assertEquals(0, sim.exitValue(), read(log));
        } finally {
            if (sim.isAlive()) {
                E2e.stopTree(sim.pid());
            }
        }
    }
}
