package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture whose disk fills up (a 2 MiB tmpfs): one sentence naming the file, what was written
 * and the free space, no stack trace; the file readable up to there; the agents DORMANT again
 * within a second; the command {@code run} started ended, never left behind with parent pid 1.
 */
@Timeout(120)
class DiskFullTest {
    @TempDir
    Path dir;

    private Path small;
    private E2e e2e;

    @BeforeEach
    void smallDisk() throws Exception {
        e2e = E2e.nativeParts();
        assumeTrue(Posix.getuid() == 0, "mounting a small tmpfs needs root");
        small = dir.resolve("small");
        Files.createDirectories(small);
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", small.toString())
                .redirectErrorStream(true).start();
        String out = new String(m.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, m.waitFor(), "mount -t tmpfs: " + out);
    }

    @AfterEach
    void unmount() throws Exception {
        if (small != null) {
            new ProcessBuilder("umount", "-l", small.toString()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void assertOneSentence(String stderr, Path file) {
        // (the simulator's own summary line, on the stderr it inherits, is not vprof's)
        // and the free-space warning at the start, before anything was written, is a line of its own
        assertTrue(stderr.contains("vprof: warning: only "), "warned at the start: " + stderr);
        List<String> lines = stderr.lines().filter(l -> !l.isBlank() && !l.startsWith("vprof-simgpu: ")
                && !l.startsWith("vprof: warning: only ")).toList();
        assertEquals(1, lines.size(), "one line on stderr: " + stderr);
        String line = lines.getFirst();
        assertTrue(line.startsWith("vprof: cannot write the capture file " + file + ": no space left on device after "),
                line);
        assertTrue(line.matches(".* after [0-9.]+ (KiB|MiB) had been written \\([0-9.]+ (bytes|KiB|MiB) free on its "
                + "file system\\); .*"), "says how much was written and what is free: " + line);
        assertFalse(line.contains("internal error") || line.contains("Exception"), line);
    }

    @Test
    void runOnAFullDiskSaysSoInOneSentenceEndsTheCommandAndLeavesAReadableFile() throws Exception {
        Path file = small.resolve("x.vprof");
        Path pidFile = dir.resolve("cmd.pid");
        List<String> cmd = new java.util.ArrayList<>(List.of("run", "-o", file.toString(), "--", "/bin/sh", "-c",
                "echo $$ > '" + pidFile + "'; exec \"$0\" \"$@\""));
        cmd.addAll(e2e.sim("--steps", "20000", "--step-us", "1000", "--kernels-per-step", "40"));
        Process fe = new ProcessBuilder(e2e.vprofCommand(cmd.toArray(String[]::new)))
                .redirectOutput(dir.resolve("fe.out").toFile()).redirectError(dir.resolve("fe.err").toFile()).start();
        assertTrue(fe.waitFor(60, TimeUnit.SECONDS), "vprof ends once the disk is full");
        String stderr = Files.readString(dir.resolve("fe.err"));
        assertEquals(2, fe.exitValue(), stderr);
        assertOneSentence(stderr, file);
        assertTrue(stderr.contains("was sent SIGTERM"), stderr);

        long pid = Long.parseLong(Files.readString(pidFile).strip());
        E2e.await("the command vprof started to have exited", 5_000, () -> ProcessHandle.of(pid).isEmpty()
                || !ProcessHandle.of(pid).get().isAlive());
        // The disk filled before the footer could be written: the file reads, as a capture cut short.
        JsonNode report = E2e.reportNeverClosed(file);
        assertTrue(E2e.kernels(report) > 1000, "the file holds the kernels written before the disk filled: "
                + E2e.kernels(report));
    }

    @Test
    void attachOnAFullDiskSaysSoAndTheAgentIsDormantAgainWithinASecond() throws Exception {
        Process target = e2e.startTarget(dir.resolve("target.log"), "--duration", "60s", "--step-us", "1000",
                "--kernels-per-step", "40");
        try {
            Path region = E2e.awaitRegion(target.pid());
            Path file = small.resolve("y.vprof");
            Process fe = new ProcessBuilder(e2e.vprofCommand("attach", "--pid", Long.toString(target.pid()),
                    "-o", file.toString())).redirectOutput(dir.resolve("fe.out").toFile())
                    .redirectError(dir.resolve("fe.err").toFile()).start();
            assertTrue(fe.waitFor(60, TimeUnit.SECONDS), "vprof ends once the disk is full");
            long exited = System.nanoTime();
            String stderr = Files.readString(dir.resolve("fe.err"));
            assertEquals(2, fe.exitValue(), stderr);
            // attach's own start line comes first; then the one sentence
            String rest = stderr.lines().filter(l -> !l.startsWith("vprof: capturing ")).reduce("", (a, b) -> a + b + "\n");
            assertOneSentence(rest, file);
            E2e.await("the agent to be DORMANT and free", 1_000, () -> {
                try (Region r = Region.open(region, Posix.getuid(), false)) {
                    return r.state() == AgentState.DORMANT && r.frontendPid() == 0;
                } catch (Exception e) {
                    return false;
                }
            });
            assertTrue(System.nanoTime() - exited < TimeUnit.SECONDS.toNanos(1));
            assertTrue(target.isAlive(), "the target runs on");
            assertTrue(E2e.kernels(E2e.reportNeverClosed(file)) > 1000);
        } finally {
            E2e.stopTree(target.pid());
        }
    }

    @Test
    void anExportOntoAFullDiskNamesTheOutputNotTheInput() throws Exception {
        Path capture = dir.resolve("whole.vprof");
        E2e.run(List.of("-o", capture.toString()), e2e.sim("--steps", "1000", "--kernels-per-step", "40"));
        Path out = small.resolve("big.json"); // Chrome JSON of 40,000 kernels: several MiB, on 2 MiB
        Cli.Result r = Cli.run("export", capture.toString(), "-o", out.toString());
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.err());
        assertTrue(r.err().contains("vprof: cannot write " + out + ": No space left on device; nothing was written"),
                "blames the output: " + r.err());
        assertFalse(r.err().contains("cannot read"), "the input was fine: " + r.err());
        assertFalse(Files.exists(out), "nothing under the output's name");
    }
}
