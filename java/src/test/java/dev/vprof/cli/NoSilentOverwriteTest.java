package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture, a trace or a log that exists is never replaced without --force: a 3 s capture once
 * lost to a 1 s one written to the same -o. The refusal comes before the command starts.
 */
@Timeout(120)
class NoSilentOverwriteTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    private Path capture(String name, String steps) {
        Path file = dir.resolve(name);
        E2e.run(List.of("-o", file.toString(), "--force"), e2e.sim("--steps", steps, "--kernels-per-step", "4"));
        return file;
    }

    @Test
    void runRefusesAnExistingCaptureBeforeItStartsTheCommandAndForceReplacesIt() throws Exception {
        Path file = capture("a1.vprof", "300");
        long kernelsBefore = E2e.kernels(E2e.report(file));
        byte[] before = Files.readAllBytes(file);
        Path marker = dir.resolve("started");

        Cli.Result r = Cli.run("run", "-o", file.toString(), "--", "/bin/sh", "-c", "touch '" + marker + "'");
        assertEquals(2, r.code(), r.err());
        assertEquals("vprof: the capture file " + file + " already exists; pass --force to replace it, or choose "
                + "another path with -o", r.err().strip());
        assertFalse(Files.exists(marker), "the command was never started");
        assertArrayEquals(before, Files.readAllBytes(file), "the capture is untouched");

        E2e.run(List.of("-o", file.toString(), "--force"), e2e.sim("--steps", "20", "--kernels-per-step", "4"));
        long kernelsAfter = E2e.kernels(E2e.report(file));
        assertEquals(300 * 4, kernelsBefore);
        assertEquals(20 * 4, kernelsAfter, "--force replaced it with the new capture");
    }

    @Test
    void attachRefusesAnExistingCaptureBeforeItTouchesAnyAgent() throws Exception {
        Path file = dir.resolve("b.vprof");
        Files.writeString(file, "an earlier capture");
        Cli.Result r = Cli.run("attach", "--pid", Long.toString(ProcessHandle.current().pid()), "-o", file.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("the capture file " + file + " already exists; pass --force"), r.err());
        assertEquals("an earlier capture", Files.readString(file));
    }

    @Test
    void exportRefusesAnExistingTraceAndForceReplacesIt() throws Exception {
        Path file = capture("e.vprof", "50");
        for (String name : List.of("t.pftrace", "t.json", "k.pt.trace.json")) {
            Path out = dir.resolve(name);
            Files.writeString(out, "keep me");
            Cli.Result r = Cli.run("export", file.toString(), "-o", out.toString());
            assertEquals(2, r.code(), name + ": " + r.err());
            assertTrue(r.err().contains("the trace " + out + " already exists; pass --force"), r.err());
            assertEquals("keep me", Files.readString(out));
            Cli.Result f = Cli.run("export", file.toString(), "-o", out.toString(), "--force");
            assertEquals(0, f.code(), f.err());
            assertTrue(Files.size(out) > 1000, "--force replaced it with the trace");
        }
    }

    @Test
    void launchRefusesAnExistingLogBeforeItStartsTheCommand() throws Exception {
        Path log = dir.resolve("server.log");
        Files.writeString(log, "yesterday's server log");
        Path marker = dir.resolve("launched");
        Cli.Result r = Cli.run("launch", "--log", log.toString(), "--", "/bin/sh", "-c", "touch '" + marker + "'");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("the log file " + log + " already exists; pass --force"), r.err());
        assertEquals("yesterday's server log", Files.readString(log));
        Thread.sleep(200);
        assertFalse(Files.exists(marker), "the command was never started");
    }

    @Test
    void percentTIsToTheMillisecondSoTwoCapturesInOneSecondGetTwoNames() {
        LocalDateTime t = LocalDateTime.of(2026, 12, 1, 15, 4, 5, 123_000_000);
        assertEquals(Path.of("c-20261201-150405.123.vprof"), OutputPath.expand("c-%t.vprof", 7, t));
        assertNotEquals(OutputPath.expand("c-%t.vprof", 7, t), OutputPath.expand("c-%t.vprof", 7, t.plusNanos(1_000_000)));
    }
}
