package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One worker of a two-rank server killed with SIGKILL during an attach: named at once on stderr
 * and in the report's warnings (pid, rank, the signal, when), with its records up to then kept.
 */
@Timeout(120)
class DyingWorkerTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    @Test
    void aWorkerKilledMidCaptureIsNamedWithItsRankSignalAndTimeAndItsRecordsAreKept() throws Exception {
        String sim = String.join(" ", e2e.sim("--duration", "30s", "--step-us", "2000"));
        // The shell becomes `sleep`, which never reaps: a killed worker stays a zombie with its status,
        // as under a server whose parent is busy.
        String script = "RANK=0 " + sim + " 2>/dev/null & echo $! > '" + dir.resolve("r0") + "'; "
                + "RANK=1 " + sim + " 2>/dev/null & echo $! > '" + dir.resolve("r1") + "'; exec sleep 40";
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", e2e.agent.toString());
        pb.environment().remove("VPROF_ARM");
        Process server = pb.start();
        try {
            E2e.await("both workers", 10_000, () -> Files.exists(dir.resolve("r1")) && Files.exists(dir.resolve("r0")));
            long r0 = Long.parseLong(Files.readString(dir.resolve("r0")).strip());
            long r1 = Long.parseLong(Files.readString(dir.resolve("r1")).strip());
            E2e.awaitRegion(r0);
            E2e.awaitRegion(r1);
            Path file = dir.resolve("w.vprof");
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(2500);
                    new ProcessBuilder("kill", "-9", Long.toString(r1)).start().waitFor();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            killer.start();
            Cli.Result r = Cli.run("attach", "--pid", Long.toString(server.pid()), "--duration", "6s",
                    "-o", file.toString());
            killer.join();
            assertEquals(0, r.code(), r.err());
            Pattern said = Pattern.compile("vprof: warning: pid " + r1 + " \\(rank 1\\) was killed by signal 9 \\(SIGKILL\\) "
                    + "([0-9.]+) s into the capture; its (\\d+) records up to then are kept; the capture goes on with "
                    + "the other processes");
            Matcher m = said.matcher(r.err());
            assertTrue(m.find(), "named at once on stderr: " + r.err());
            double into = Double.parseDouble(m.group(1));
            assertTrue(into > 1.0 && into < 5.0, "when: " + into);
            long kept = Long.parseLong(m.group(2));

            JsonNode report = E2e.report(file);
            List<String> warnings = new ArrayList<>();
            report.get("warnings").forEach(w -> warnings.add(w.asText()));
            assertTrue(warnings.stream().anyMatch(w -> w.startsWith("pid " + r1 + " (rank 1) was killed by signal 9 (SIGKILL)")
                    && w.endsWith("its " + kept + " records up to then are kept")), "in the JSON warnings: " + warnings);
            assertTrue(warnings.stream().noneMatch(w -> w.startsWith("pid " + r0 + " ")), "rank 0 lived: " + warnings);
            assertTrue(kept > 0);
            Cli.Result text = Cli.run("report", file.toString());
            assertTrue(text.err().contains("vprof: warning: pid " + r1 + " (rank 1) was killed by signal 9"), text.err());
        } finally {
            E2e.stopTree(server.pid());
        }
    }
}
