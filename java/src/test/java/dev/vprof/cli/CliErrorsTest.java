package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.nativelib.Posix;
import dev.vprof.testing.TestRegions;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every error that the capture commands own (bad options, no agent, unwritable file, ...): exit code 2 and one clear sentence. */
class CliErrorsTest {
    @TempDir
    Path dir;

    private SleepingTarget target;
    private int pid;

    @BeforeEach
    void setUp() throws Exception {
        target = new SleepingTarget(dir);
        pid = target.pid();
    }

    @AfterEach
    void tearDown() throws Exception {
        target.stop();
    }

    private static void assertError(Cli.Result r, String... fragments) {
        assertEquals(2, r.code(), r.err());
        for (String f : fragments) {
            assertTrue(r.err().contains(f), "expected '" + f + "' in: " + r.err());
        }
        assertEquals(1, r.err().strip().lines().count(), "one sentence, no stack trace: " + r.err());
    }

    private String out() {
        return dir.resolve("o.vprof").toString();
    }

    @Test
    void attachToAPidThatDoesNotExist() {
        assertError(Cli.run("attach", "--pid", "4000000", "-o", out()), "no process with pid 4000000");
    }

    @Test
    void attachToAProcessWithNoAgentNamesBothRemedies() {
        assertError(Cli.run("attach", "--pid", Integer.toString(pid), "-o", out()),
                "no vprof agent in pid " + pid, "vprof launch", "CUDA_INJECTION64_PATH=$(vprof agent-path)");
    }

    /**
     * Root gives the region away; anyone else cannot, so the region is a link to a file root owns
     * (the owner check reads through links, like every open of the region). Runs either way.
     */
    @Test
    void attachToARegionOfAnotherUser() throws Exception {
        int other;
        if (Posix.getuid() == 0) {
            Path p = TestRegions.create(dir, pid, 65536, c -> { });
            other = 65534;
            Files.setAttribute(p, "unix:uid", other);
        } else {
            Path rootOwned = Path.of("/etc/passwd");
            other = (Integer) Files.getAttribute(rootOwned, "unix:uid");
            assertTrue(other != Posix.getuid(), "/etc/passwd is owned by another user");
            Files.createSymbolicLink(dir.resolve("vprof." + pid), rootOwned);
        }
        assertError(Cli.run("attach", "--pid", Integer.toString(pid), "-o", out()), "belongs to user id " + other);
    }

    @Test
    void attachToARegionOfAnotherFormatVersion() throws Exception {
        TestRegions.create(dir, pid, 65536, c -> c.set(ValueLayout.JAVA_INT, Control.FORMAT_VERSION, 1));
        assertError(Cli.run("attach", "--pid", Integer.toString(pid), "-o", out()),
                "format version 1", "reads version " + dev.vprof.bindings.VprofRing.FORMAT_VERSION);
    }

    @Test
    void attachToAFailedAgentShowsItsReason() throws Exception {
        TestRegions.create(dir, pid, 65536, c -> {
            c.set(ValueLayout.JAVA_INT, Control.STATE, VprofRing.STATE_FAILED);
            TestRegions.putString(c, Control.REASON, "cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
        });
        assertError(Cli.run("attach", "--pid", Integer.toString(pid), "-o", out()),
                "is FAILED", "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    }

    @Test
    void attachToAnAgentThatAnotherFrontEndHolds() throws Exception {
        int other = (int) ProcessHandle.current().parent().orElseThrow().pid();
        TestRegions.create(dir, pid, 65536, c -> {
            c.set(ValueLayout.JAVA_INT, Control.STATE, VprofRing.STATE_CAPTURING);
            c.set(ValueLayout.JAVA_INT, Control.FRONTEND_PID, other);
        });
        assertError(Cli.run("attach", "--pid", Integer.toString(pid), "-o", out()),
                "already being captured by the vprof in pid " + other);
    }

    @Test
    void attachToAnAgentThatDoesNotAnswer() throws Exception {
        TestRegions.create(dir, pid, 65536, c -> { });
        Cli.Result r = Cli.run("attach", "--pid", Integer.toString(pid), "-o", out());
        assertError(r, "agent in pid " + pid + " did not answer");
        assertTrue(Files.notExists(dir.resolve("o.vprof")), "no empty capture file is left behind");
    }

    @Test
    void attachWithAnOutputPathThatCannotBeWritten() {
        assertError(Cli.run("attach", "--pid", Integer.toString(pid), "-o", "/nonexistent-dir/x.vprof"),
                "cannot write the capture file /nonexistent-dir/x.vprof", "does not exist");
    }

    @Test
    void runWithAnOutputPathThatCannotBeWritten() {
        assertError(Cli.run("run", "-o", dir.toString(), "--", "true"), "cannot write the capture file", "is a directory");
    }

    @Test
    void runOfACommandThatDoesNotExist() {
        assertError(Cli.run("run", "-o", out(), "--", "/nonexistent/program"), "cannot start /nonexistent/program");
    }

    @Test
    void badCaptureOptionsAreRefusedBeforeAnythingStarts() {
        assertError(Cli.run("run", "--capture-range=sometimes", "--", "true"), "--capture-range 'sometimes'");
        assertError(Cli.run("run", "--capture-range=nvtx:", "--", "true"), "needs the NVTX range name");
        assertError(Cli.run("run", "--capture-range-end=repeat:0", "--", "true"), "repeat:N");
        assertError(Cli.run("run", "--ring-size", "1000", "--", "true"), "power of two");
        assertError(Cli.run("run", "--duration", "soon", "--", "true"), "not a duration");
        assertError(Cli.run("run", "--kinds", "kernel,warp", "--", "true"), "'warp'");
        assertError(Cli.run("attach", "--pid", "1", "--buffer-size", "1k"), "outside 64k..256m");
    }

    /** watch and launch take attach's agent and metrics options, and so refuse the same values in the same words. */
    @Test
    void watchAndLaunchRefuseBadAgentOptionsAsAttachDoes() {
        String self = Long.toString(ProcessHandle.current().pid());
        assertError(Cli.run("watch", "--pid", self, "--ring-size", "1000"), "power of two");
        assertError(Cli.run("watch", "--pid", self, "--kinds", "kernel,warp"), "'warp'");
        assertError(Cli.run("watch", "--pid", self, "--buffer-size", "1k"), "outside 64k..256m");
        assertError(Cli.run("watch", "--pid", self, "--metrics", "localhost:8000", "--metrics-interval", "10ms"),
                "below the minimum");
        assertError(Cli.run("launch", "--ring-size", "1000", "--", "true"), "power of two");
    }

    @Test
    void reportOfAFileThatIsNotAVprofCapture() throws Exception {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "these are not the records you are looking for\n");
        assertError(Cli.run("report", text.toString()), "is not a vprof capture, a PyTorch profiler trace");
        assertError(Cli.run("report", "--json", dir.resolve("missing.vprof").toString()), "does not exist");
    }

    @Test
    void agentPathPrintsTheBundledAgent() {
        Cli.Result r = Cli.run("agent-path");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().strip().endsWith("/libvprof.so"), r.out());
        assertTrue(Files.isRegularFile(Path.of(r.out().strip())));
    }

    @Test
    void listShowsFailedAgentsWithTheirReasonAndStaleRegions() throws Exception {
        TestRegions.create(dir, pid, 65536, c -> {
            c.set(ValueLayout.JAVA_INT, Control.STATE, VprofRing.STATE_FAILED);
            TestRegions.putString(c, Control.REASON, "cuptiSubscribe: CUPTI_ERROR_UNKNOWN");
        });
        Files.createFile(dir.resolve("vprof.4000000"));
        Cli.Result r = Cli.run("list");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("FAILED") && r.out().contains("CUPTI_ERROR_UNKNOWN"), r.out());
        assertTrue(r.out().contains("STALE"), r.out());
        Cli.Result j = Cli.run("list", "--json");
        assertTrue(j.out().contains("\"state\" : \"FAILED\"") && j.out().contains("\"pid\" : " + pid), j.out());
    }

    @Test
    void doctorChecksEveryPrerequisite() {
        Cli.Result r = Cli.run("doctor");
        for (String what : new String[] {"jdk", "native access", "agent", "libcupti", "driver", "shared memory", "ptrace scope"}) {
            assertTrue(r.out().contains(what), what + " in: " + r.out());
        }
    }

    /** A '%' in an option's description is a format character to picocli; unescaped, help prints it raw. */
    @Test
    void helpShowsTheFileNamePatternsAsAPersonTypesThem() {
        for (String cmd : new String[] {"run", "attach", "launch"}) {
            String help = Cli.run(cmd, "--help").out();
            assertTrue(help.contains("%p is"), cmd + ": " + help);
            assertFalse(help.contains("%%"), cmd + " help shows a doubled %: " + help);
        }
        assertTrue(Cli.run("run", "--help").out().contains("Default: vprof-%p-%t.vprof"));
    }

    @Test
    void helpTeachesWithExamples() {
        for (String cmd : new String[] {"run", "launch", "attach", "list", "agent-path", "doctor"}) {
            Cli.Result r = Cli.run(cmd, "--help");
            assertEquals(0, r.code());
            assertTrue(r.out().contains("Example"), cmd + ": " + r.out());
        }
    }

    @Test
    void aMetricsIntervalBelowTheMinimumIsRefusedBeforeAnythingStarts() {
        Cli.Result r = Cli.run("attach", "--pid", Long.toString(ProcessHandle.current().pid()), "--metrics",
                "localhost:1", "--metrics-interval", "50ms", "-o", "/tmp/never-written.vprof");
        assertEquals(ExitCode.CANNOT.code(), r.code());
        assertTrue(r.err().contains("--metrics-interval 50ms is below the minimum of 100ms"), r.err());
    }
}
