package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture ended the documented way (Ctrl-C, SIGTERM) with a complete file exits 0 and says so
 * in its last line; one whose targets exit says that, and how long before --duration.
 */
@Timeout(120)
class CaptureEndingTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    private void attachThenSignal(String signal, String named) throws Exception {
        Process target = e2e.startTarget(dir.resolve("target.log"), "--duration", "60s", "--step-us", "2000");
        try {
            E2e.awaitRegion(target.pid());
            Path file = dir.resolve(signal + ".vprof");
            Path log = dir.resolve(signal + ".err");
            Process fe = new ProcessBuilder(e2e.vprofCommand("attach", "--pid", Long.toString(target.pid()),
                    "-o", file.toString())).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            E2e.await("the capture to start", 30_000, () -> {
                try {
                    return Files.readString(log).contains("vprof: capturing ");
                } catch (Exception e) {
                    return false;
                }
            });
            Thread.sleep(1000);
            assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(fe.pid())).start().waitFor());
            assertTrue(fe.waitFor(30, TimeUnit.SECONDS));
            String err = Files.readString(log);
            assertEquals(0, fe.exitValue(), "a capture ended by " + signal + " with a complete file exits 0: " + err);
            assertTrue(err.matches("(?s).*vprof: the capture ended after [0-9.]+ s: " + java.util.regex.Pattern.quote(named)
                    + "\\n?$"), "the last line says why: " + err);
            assertTrue(E2e.kernels(E2e.report(file)) > 0);
            assertTrue(target.isAlive(), "the target runs on");
        } finally {
            E2e.stopTree(target.pid());
        }
    }

    @Test
    void ctrlCEndsAnAttachWithExitZeroAndSaysSo() throws Exception {
        attachThenSignal("INT", "Ctrl-C (SIGINT)");
    }

    @Test
    void sigtermEndsAnAttachWithExitZeroAndSaysSo() throws Exception {
        attachThenSignal("TERM", "SIGTERM");
    }

    @Test
    void targetsThatExitEndTheCaptureEarlyAndTheLastLineSaysHowEarly() throws Exception {
        Process target = e2e.startTarget(dir.resolve("t.log"), "--duration", "3s", "--step-us", "2000");
        try {
            E2e.awaitRegion(target.pid());
            Cli.Result r = Cli.run("attach", "--pid", Long.toString(target.pid()), "--duration", "1h",
                    "-o", dir.resolve("x.vprof").toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().matches("(?s).*vprof: the capture ended after [0-9.]+ s: every process it captured "
                    + "exited, 5\\d min [0-9]+ s before --duration 1 h would have ended it\\n$"), r.err());
        } finally {
            E2e.stopTree(target.pid());
        }
    }
}
