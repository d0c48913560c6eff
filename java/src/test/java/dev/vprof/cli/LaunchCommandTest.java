package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `vprof launch` says whether the command it started is still there to attach to. */
class LaunchCommandTest {
    @TempDir
    Path dir;

    private String log() {
        return dir.resolve("cmd-%p.log").toString();
    }

    @Test
    void aCommandThatDiesAtOnceFailsWithItsExitStatusAndTheEndOfItsLog() {
        Cli.Result r = Cli.run("launch", "--log", log(), "--", "sh", "-c",
                "echo loading the model; echo 'ImportError: no module named vllm' >&2; exit 3");
        assertEquals(3, r.code(), "the command's own status: " + r.err());
        assertTrue(r.err().contains("vprof launch: sh (pid "), r.err());
        assertTrue(r.err().contains("exited with status 3"), r.err());
        assertTrue(r.err().contains("  | loading the model\n") && r.err().contains("  | ImportError: no module named vllm"),
                "the log's tail, stdout and stderr: " + r.err());
        assertFalse(r.out().contains("launched pid"), "no success line: " + r.out());
    }

    @Test
    void aCommandKilledBySignalSaysWhichSignal() {
        Cli.Result r = Cli.run("launch", "--log", log(), "--", "sh", "-c", "kill -9 $$");
        assertEquals(128 + 9, r.code(), r.err());
        assertTrue(r.err().contains("was killed by signal 9"), r.err());
    }

    @Test
    void aCommandStillRunningAfterTheWaitIsLaunched() throws Exception {
        Cli.Result r = Cli.run("launch", "--wait", "300ms", "--log", log(), "--", "sleep", "30");
        assertEquals(0, r.code(), r.err());
        Matcher m = Pattern.compile("launched pid (\\d+); its output goes to ").matcher(r.out());
        assertTrue(m.find(), r.out());
        ProcessHandle p = ProcessHandle.of(Long.parseLong(m.group(1))).orElseThrow();
        assertTrue(p.isAlive());
        p.destroyForcibly();
        p.onExit().get();
    }

    @Test
    void aCommandThatFinishesCleanlyAtOnceIsNotAnErrorButIsSaid() {
        Cli.Result r = Cli.run("launch", "--log", log(), "--", "true");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("exited with status 0") && r.out().contains("vprof list"), r.out());
    }

    @Test
    void theTailIsTheLastLinesOfALongLog() throws Exception {
        Path f = dir.resolve("long.log");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            sb.append("line ").append(i).append('\n');
        }
        java.nio.file.Files.writeString(f, sb);
        var tail = LaunchCommand.tail(f, 3);
        assertEquals(java.util.List.of("line 99997", "line 99998", "line 99999"), tail);
    }
}
