package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.region.AgentState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 2, acceptance 5: either side of a capture killed with SIGKILL in the middle of it. */
@Timeout(120)
class KilledMidCaptureTest {
    private static final Pattern SUMMARY_KERNELS = Pattern.compile("vprof: wrote .*?, (\\d+) kernels, ");
    /** The agent's own account of the silence when it disarmed (control_thread.c). */
    private static final Pattern SILENT = Pattern.compile("front end pid (\\d+) silent for ([0-9.]+) s; disarmed");

    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    private Process startTarget(String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(e2e.sim(args)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("target.log").toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", e2e.agent.toString());
        pb.environment().remove("VPROF_ARM");
        return pb.start();
    }

    @Test
    void aFrontEndKilledMidCaptureLeavesTheAgentDisarmedWithinFiveSecondsAndTheTargetExitsZero() throws Exception {
        Process target = startTarget("--duration", "12s", "--step-us", "2000");
        try {
            Path region = E2e.awaitRegion(target.pid());
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process fe = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED",
                    "-Dvprof.native.dir=" + e2e.agent.getParent(), "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "attach", "--pid", Long.toString(target.pid()),
                    "-o", dir.resolve("k.vprof").toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("fe.log").toFile()).start();
            E2e.await("the front end to arm the agent", 15_000, () -> {
                AgentState s = E2e.stateOf(region);
                return s != null && s.isActive();
            });
            fe.destroyForcibly().waitFor();
            E2e.await("the agent to disarm by itself", 10_000, () -> E2e.stateOf(region) == AgentState.DORMANT);

            // The agent measures the silence on its own clock: 5 s of timeout plus its 10 ms tick;
            // the bound leaves room for a loaded machine delaying that tick, not for a second timeout.
            Matcher m = SILENT.matcher(E2e.reasonOf(region));
            assertTrue(m.find(), "the agent says why it disarmed: " + E2e.reasonOf(region));
            assertEquals(fe.pid(), Long.parseLong(m.group(1)));
            double silent = Double.parseDouble(m.group(2));
            assertTrue(silent >= 5.0 && silent < 6.0, "disarmed after " + silent + " s of silence");
            assertTrue(target.waitFor(30, TimeUnit.SECONDS), "the target completes");
            assertEquals(0, target.exitValue(), "the target exits 0: " + Files.readString(dir.resolve("target.log")));
        } finally {
            E2e.stopTree(target.pid());
        }
    }

    @Test
    void aTargetKilledMidCaptureLeavesAFileThatKeepsEverythingDrained() throws Exception {
        Process target = startTarget("--duration", "30s", "--step-us", "1000");
        Path file = dir.resolve("t.vprof");
        try {
            Path region = E2e.awaitRegion(target.pid());
            Cli.Result[] result = new Cli.Result[1];
            Thread t = new Thread(() -> result[0] = Cli.run("attach", "--pid", Long.toString(target.pid()),
                    "-o", file.toString()));
            t.start();
            E2e.await("the capture to start", 15_000, () -> {
                AgentState s = E2e.stateOf(region);
                return s != null && s.isActive();
            });
            Thread.sleep(1000); // let some kernels through
            target.destroyForcibly().waitFor();
            t.join(TimeUnit.SECONDS.toMillis(30));
            E2e.ok(result[0]);
            Matcher m = SUMMARY_KERNELS.matcher(result[0].err());
            assertTrue(m.find(), result[0].err());
            long drained = Long.parseLong(m.group(1));
            assertTrue(drained > 0, result[0].err());

            JsonNode r = E2e.report(file);
            assertTrue(r.get("complete").asBoolean(), "the front end finished the file");
            assertEquals(drained, E2e.kernels(r), "the file holds every kernel the front end drained");
            assertEquals(target.pid(), r.at("/processes/0/pid").asLong());
        } finally {
            E2e.stopTree(target.pid());
        }
    }
}
