package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.region.AgentState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * `vprof attach` run from a terminal (script(1) gives it one) draws its live line
 * only when stderr is that terminal; with {@code 2> log} the log gets no progress lines and no
 * carriage returns. A JDK 22+ System.console() is not null there, which is what went wrong.
 */
@Timeout(120)
class TerminalProgressTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    private String attachFromATerminal(long pid, String redirect) throws Exception {
        List<String> words = e2e.vprofCommand("attach", "--pid", Long.toString(pid), "--duration", "2s",
                "-o", dir.resolve("t-" + redirect.length() + ".vprof").toString());
        String cmd = words.stream().map(w -> "'" + w + "'").collect(java.util.stream.Collectors.joining(" ")) + " " + redirect;
        Path typescript = dir.resolve("terminal-" + redirect.length() + ".out");
        Process p = new ProcessBuilder("script", "-qec", cmd, "/dev/null").redirectErrorStream(true)
                .redirectOutput(typescript.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "attach ends by its --duration");
        assertEquals(0, p.exitValue(), Files.readString(typescript));
        return Files.readString(typescript);
    }

    @Test
    void theLiveLineGoesToATerminalButNotToALogFile() throws Exception {
        Process target = e2e.startTarget(dir.resolve("target.log"), "--duration", "40s", "--step-us", "2000");
        try {
            Path region = E2e.awaitRegion(target.pid());
            E2e.await("the agent", 10_000, () -> E2e.stateOf(region) == AgentState.DORMANT);

            String onTerminal = attachFromATerminal(target.pid(), "");
            assertTrue(onTerminal.contains("records/s") && onTerminal.contains("\r"),
                    "stderr on the terminal: the live line is drawn: " + onTerminal);

            Path log = dir.resolve("attach.log");
            String terminal = attachFromATerminal(target.pid(), "2> " + log);
            String logged = Files.readString(log);
            assertTrue(logged.contains("vprof: wrote "), logged);
            assertFalse(logged.contains("records/s") || logged.contains("\r"), "no live line in the log: " + logged);
            assertFalse(terminal.contains("records/s"), "nor on the terminal, which stderr does not reach: " + terminal);
        } finally {
            E2e.stopTree(target.pid());
        }
    }
}
