package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * attach --pid on a tree that holds the agents of two separate launches (here: one `vprof launch`
 * with two workers, one simulated GPU process started by hand with CUDA_INJECTION64_PATH, both
 * children of this JVM, as two servers are of a shell or of pid 1). Without a terminal: exit 2 and
 * one sentence naming both; with --all both are captured; each launch alone needs no --all.
 */
class AttachLaunchesTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twoLaunchesInOneTreeAreRefusedWithoutAllAndCapturedWithIt() throws Exception {
        E2e e2e = E2e.nativeParts();
        Cli.Result l = E2e.ok(Cli.run("launch", "--log", dir.resolve("a-%p.log").toString(), "--",
                e2e.simgpu.toString(), "--workers", "2", "--duration", "60s", "--step-us", "1000"));
        Matcher m = Pattern.compile("launched pid (\\d+)").matcher(l.out());
        assertTrue(m.find(), l.out());
        int launched = Integer.parseInt(m.group(1));
        Process byHand = e2e.startTarget(dir.resolve("b.log"), "--duration", "60s", "--step-us", "1000");
        int self = (int) ProcessHandle.current().pid();
        try {
            E2e.awaitRegion(byHand.pid());
            E2e.await("both workers of the launch to have agents", 20_000, () -> ProcessHandle.of(launched)
                    .map(h -> h.children().filter(c -> Path.of("/dev/shm/vprof." + c.pid()).toFile().exists())
                            .count()).orElse(0L) == 2);
            Set<Integer> workers = new TreeSet<>();
            ProcessHandle.of(launched).orElseThrow().children().forEach(c -> workers.add((int) c.pid()));

            Path refused = dir.resolve("refused.vprof");
            Cli.Result r = Cli.run("attach", "--pid", Integer.toString(self), "--duration", "2s",
                    "-o", refused.toString());
            assertEquals(2, r.code(), r.err());
            String err = r.err().strip();
            assertEquals(1, err.lines().count(), "one sentence: " + err);
            assertTrue(err.contains("2 separate launches"), err);
            assertTrue(err.contains("pid " + launched + " ("), "names the launch: " + err);
            for (int w : workers) {
                assertTrue(err.contains(Integer.toString(w)), "names its worker " + w + ": " + err);
            }
            assertTrue(err.contains("pid " + byHand.pid() + " ("), "names the process started by hand: " + err);
            assertTrue(err.contains("--all"), err);
            assertFalse(refused.toFile().exists(), "no file written");

            Path file = dir.resolve("all.vprof");
            Cli.Result all = E2e.ok(Cli.run("attach", "--pid", Integer.toString(self), "--all", "--duration", "2s",
                    "-o", file.toString(), "--json"));
            JsonNode summary = new ObjectMapper().readTree(all.out().strip().lines().toList().getLast());
            assertEquals(3, summary.get("processes").asInt(), summary.toString());
            Set<Integer> recorded = new TreeSet<>();
            for (JsonNode p : E2e.report(file).get("processes")) {
                recorded.add(p.get("pid").asInt());
                assertTrue(p.get("kernels").asLong() > 0, p.toString());
            }
            Set<Integer> expected = new TreeSet<>(workers);
            expected.add((int) byHand.pid());
            assertEquals(expected, recorded, "both launches captured");

            // One launch at a time needs no --all.
            for (long root : List.of((long) launched, byHand.pid())) {
                E2e.ok(Cli.run("attach", "--pid", Long.toString(root), "--duration", "1s",
                        "-o", dir.resolve("one-" + root + ".vprof").toString()));
            }
        } finally {
            E2e.stopTree(launched);
            E2e.stopTree(byHand.pid());
        }
    }
}
