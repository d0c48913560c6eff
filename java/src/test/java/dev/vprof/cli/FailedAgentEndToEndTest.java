package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.region.AgentState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent given the real libcupti on a machine without an NVIDIA driver.
 * CUPTI refuses to subscribe; the agent must go FAILED with CUPTI's own error string, `vprof list`
 * must show it, and the target must run on to exit 0.
 */
@Timeout(60)
class FailedAgentEndToEndTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    /** The real libcupti of the CUDA toolkit the native build used (its headers are required anyway). */
    static Path realCupti() {
        List<String> prefixes = new ArrayList<>();
        for (String env : new String[] {"CUDA_HOME", "CUDA_PATH"}) {
            String v = System.getenv(env);
            if (v != null && !v.isEmpty()) {
                prefixes.add(v);
            }
        }
        prefixes.addAll(List.of("/usr/local/cuda", "/opt/cuda"));
        String explicit = System.getProperty("vprof.real.cupti");
        List<Path> tried = new ArrayList<>();
        if (explicit != null) {
            tried.add(Path.of(explicit));
        }
        for (String p : prefixes) {
            for (String sub : new String[] {"lib", "lib64", "extras/CUPTI/lib64", "targets/x86_64-linux/lib"}) {
                tried.add(Path.of(p, sub, "libcupti.so.13"));
            }
        }
        for (Path p : tried) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return fail("no real libcupti.so.13 found (tried " + tried + "); install the CUDA 13 toolkit's CUPTI "
                + "or pass -Dvprof.real.cupti=/path/to/libcupti.so.13");
    }

    @Test
    void withTheRealCuptiAndNoDriverTheAgentIsFailedWithCuptisErrorAndTheTargetExitsZero() throws Exception {
        // On a machine with a driver the real CUPTI subscribes, and the GPU checks are `vprof selftest --gpu`'s.
        Assumptions.assumeFalse(Files.exists(Path.of("/proc/driver/nvidia/version")),
                "an NVIDIA driver is present: this test is about a machine without one");
        Path cupti = realCupti();
        ProcessBuilder pb = new ProcessBuilder(e2e.sim("--steps", "200", "--step-us", "10000",
                "--profiler-range", "1:2")).redirectErrorStream(true).redirectOutput(dir.resolve("f.log").toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", e2e.agent.toString());
        pb.environment().put("VPROF_CUPTI_LIB", cupti.toString());
        pb.environment().remove("VPROF_ARM");
        Process target = pb.start();
        try {
            Path region = E2e.awaitRegion(target.pid());
            E2e.await("the agent to go FAILED", 10_000, () -> E2e.stateOf(region) == AgentState.FAILED);
            JsonNode row = null;
            for (JsonNode r : E2e.list()) {
                if (r.get("pid").asLong() == target.pid()) {
                    row = r;
                }
            }
            assertTrue(row != null, "vprof list shows pid " + target.pid() + ": " + E2e.list().toPrettyString());
            assertEquals("FAILED", row.get("state").asText());
            assertTrue(row.get("reason").asText().contains("CUPTI_ERROR_"),
                    "the reason carries CUPTI's own error string: " + row.toPrettyString());
            Cli.Result text = E2e.ok(Cli.run("list"));
            assertTrue(text.out().contains("reason: " + row.get("reason").asText()), text.out());

            assertTrue(target.waitFor(30, TimeUnit.SECONDS), "the target completes");
            assertEquals(0, target.exitValue(), Files.readString(dir.resolve("f.log")));
        } finally {
            E2e.stopTree(target.pid());
        }
    }

    /**
     * A process that lives a few milliseconds exits before `vprof run` has looked
     * at its region. Its agent keeps the region for the front end its VPROF_ARM names, FAILED with
     * CUPTI's reason, and the front end says so (then removes it); it used to say that no process
     * loaded the agent. Five times, as the race went either way.
     */
    @Test
    void theReasonOfAnAgentThatFailedInAProcessThatLivedAMillisecondReachesRun() throws Exception {
        Assumptions.assumeFalse(Files.exists(Path.of("/proc/driver/nvidia/version")),
                "an NVIDIA driver is present: the real CUPTI would not fail");
        Path cupti = realCupti();
        Pattern failed = Pattern.compile(
                "the agent in pid (\\d+) is FAILED: [^\\n]*CUPTI_ERROR_[^\\n]*; that process has exited");
        for (int i = 0; i < 5; i++) {
            Path log = dir.resolve("run-" + i + ".log");
            ProcessBuilder pb = new ProcessBuilder(e2e.vprofCommand("run", "-o", dir.resolve("run-" + i + ".vprof").toString(),
                    "--", e2e.simgpu.toString(), "--steps", "50"))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("VPROF_CUPTI_LIB", cupti.toString());
            Process run = pb.start();
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "run ends with its command");
            String out = Files.readString(log);
            assertEquals(0, run.exitValue(), out);
            Matcher m = failed.matcher(out);
            assertTrue(m.find(), "run " + i + " names the FAILED agent and CUPTI's reason: " + out);
            assertTrue(out.contains("but FAILED") && !out.contains("no process of"), out);
            assertFalse(Files.exists(Path.of("/dev/shm/vprof." + m.group(1))), "the region is removed: " + out);
        }
    }
}
