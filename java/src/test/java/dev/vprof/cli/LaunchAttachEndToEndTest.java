package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * `vprof launch` a two-worker target with dormant agents, `vprof attach`
 * to it twice, and check each capture through `vprof report --json`.
 */
@Timeout(120)
class LaunchAttachEndToEndTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    /** The pids `vprof list` shows in the given state whose parent is {@code parent}. */
    private static Set<Integer> listed(int parent, String state) {
        Set<Integer> pids = new TreeSet<>();
        for (JsonNode row : E2e.list()) {
            if (row.get("ppid").asInt() == parent && row.get("state").asText().equals(state)) {
                pids.add(row.get("pid").asInt());
            }
        }
        return pids;
    }

    private static int launchedPid(Cli.Result r) {
        Matcher m = Pattern.compile("launched pid (\\d+)").matcher(r.out());
        assertTrue(m.find(), r.out());
        return Integer.parseInt(m.group(1));
    }

    @Test
    void launchThenAttachTwiceRecordsBothWorkersAndLeavesThemDormantAndRunning() throws Exception {
        Cli.Result l = E2e.ok(Cli.run("launch", "--log", dir.resolve("sim-%p.log").toString(), "--",
                e2e.simgpu.toString(), "--workers", "2", "--duration", "60s", "--step-us", "1000"));
        int pid = launchedPid(l);
        try {
            E2e.await("vprof list to show both workers DORMANT", 20_000, () -> listed(pid, "DORMANT").size() == 2);
            Set<Integer> workers = listed(pid, "DORMANT");
            assertTrue(E2e.list().findValues("pid").stream().noneMatch(p -> p.asInt() == pid),
                    "the parent does no GPU work, so it has no agent");

            for (int attach = 1; attach <= 2; attach++) {
                Path file = dir.resolve("b" + attach + ".vprof");
                E2e.ok(Cli.run("attach", "--pid", Integer.toString(pid), "--duration", "3s", "-o", file.toString()));
                JsonNode r = E2e.report(file);
                Set<Integer> recorded = new TreeSet<>();
                for (JsonNode p : r.get("processes")) {
                    recorded.add(p.get("pid").asInt());
                    assertTrue(p.get("kernels").asLong() > 0, "attach " + attach + ", worker " + p.get("pid") + ": "
                            + p.toPrettyString());
                    assertEquals(0, p.get("ring_drops").asLong() + p.get("cupti_drops").asLong(), p.toPrettyString());
                }
                assertEquals(workers, recorded, "attach " + attach + " recorded exactly both workers");
                assertEquals(0, E2e.lost(r), r.get("totals").toPrettyString());

                assertEquals(workers, listed(pid, "DORMANT"), "both DORMANT again after attach " + attach);
                for (int w : workers) {
                    assertTrue(ProcessHandle.of(w).map(ProcessHandle::isAlive).orElse(false),
                            "worker " + w + " keeps running after attach " + attach);
                }
            }
        } finally {
            E2e.stopTree(pid);
        }
    }
}
