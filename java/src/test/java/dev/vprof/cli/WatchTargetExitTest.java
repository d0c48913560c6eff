package dev.vprof.cli;

import static dev.vprof.cli.PrometheusWatchTest.await;
import static dev.vprof.cli.PrometheusWatchTest.awaitDormant;
import static dev.vprof.cli.PrometheusWatchTest.freePort;
import static dev.vprof.cli.PrometheusWatchTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad days: a /metrics nobody answers is said and the recording goes on; the target exits while a
 * dump waits for its --after: the watch writes it from what was recorded and ends with exit 0.
 */
class WatchTargetExitTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aTargetThatExitsEndsTheWatchWithExitZeroAndItsPendingDumpWritten(@TempDir Path dir) throws Exception {
        E2e e2e = E2e.nativeParts();
        Process sim = e2e.startTarget(dir.resolve("sim.log"), "--duration", "10s", "--step-us", "1000");
        awaitDormant(sim.pid());
        int nobody = freePort();
        Path err = dir.resolve("watch.err");
        Process watch = new ProcessBuilder(e2e.vprofCommand("watch", "--pid", Long.toString(sim.pid()), "--dir",
                dir.resolve("w").toString(), "--keep", "20s", "--segment", "2s", "--after", "60s",
                "--metrics", "127.0.0.1:" + nobody))
                .redirectErrorStream(true).redirectOutput(err.toFile()).start();
        try {
            await(() -> read(err).contains("recording the last"), 60, "the watch's start: " + read(err));
            Thread.sleep(2000);
            new ProcessBuilder("kill", "-USR1", Long.toString(watch.pid())).start().waitFor();
            await(() -> read(err).contains("dump 1 asked by signal"), 20, read(err));
            assertTrue(watch.isAlive(), "the dump waits for its --after: " + read(err));
            assertTrue(sim.waitFor(30, TimeUnit.SECONDS), "the target ends after its 10 s");
            assertTrue(watch.waitFor(60, TimeUnit.SECONDS), "the watch ends with its target: " + read(err));
            String out = read(err);
            assertEquals(0, watch.exitValue(), out);
            assertTrue(out.contains("scrape of http://127.0.0.1:" + nobody + "/metrics failed"), out);
            assertFalse(out.contains("Exception"), out);
            Matcher m = Pattern.compile("dump 1 \\(signal: SIGUSR1\\): (\\S+\\.vprof), ").matcher(out);
            assertTrue(m.find(), "the pending dump written at the end: " + out);
            JsonNode report = E2e.report(Path.of(m.group(1)));
            assertTrue(E2e.kernels(report) > 0, "its kernels: " + report.get("totals"));
            assertEquals(0, E2e.lost(report), "nothing lost");
        } finally {
            if (watch.isAlive()) {
                watch.destroyForcibly();
            }
            if (sim.isAlive()) {
                E2e.stopTree(sim.pid());
            }
        }
    }
}
