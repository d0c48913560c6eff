package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * `vprof selftest --gpu`'s whole machinery (vprof run, launch-style dormant agents and attach,
 * attach --inject, reports, facts, the judges, the table) over the self-test's own cases
 * (selftest_cases.c) on the CUPTI test double (vprof-selftest-double): what the first GPU run
 * will do, short of the GPU. Launch-cost ratios are timing on a shared machine: reported, not
 * asserted here (LaunchCostCheckTest judges them on recorded figures).
 */
@Timeout(900)
class GpuSelftestOnDoubleTest {
    @TempDir
    Path dir;

    private static Path program() {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native")).toAbsolutePath();
        Path p = nat.resolve("test/vprof-selftest-double");
        if (!Files.isExecutable(p)) {
            fail(p + " is missing; build it with `make -C native check`");
        }
        return p;
    }

    private record Run(int exitCode, String output, List<JsonNode> rows, JsonNode results) {
        List<JsonNode> rows(String prefix) {
            return rows.stream().filter(r -> r.path("check").asText().startsWith(prefix)).toList();
        }
    }

    private Run selftest(Map<String, String> env, Set<String> cases) throws Exception {
        StringWriter out = new StringWriter();
        int code = new GpuSelftest(new PrintWriter(out, true), dir,
                new GpuSelftest.Options(program(), env, cases, 600)).run();
        JsonNode results = SelfCli.parse(Files.readString(dir.resolve("results.json")));
        List<JsonNode> rows = new ArrayList<>();
        results.path("rows").forEach(rows::add);
        return new Run(code, out.toString(), rows, results);
    }

    private static boolean timing(JsonNode row) {
        return row.path("check").asText().startsWith("launch-cost: ") && row.path("expected").asText().startsWith("ratio");
    }

    @Test
    void everyCaseButPyTorchMatchesOnTheDoubleWithGraphNodesDelivered() throws Exception {
        Set<String> cases = new HashSet<>(GpuSelftest.CASES);
        cases.remove("pytorch"); // no PyTorch here; TorchSelftestScriptTest and TorchCheckTest cover it
        Run run = selftest(Map.of("VPROF_SIM_GRAPH_NODES", "delivered"), cases);
        List<String> failed = run.rows().stream().filter(r -> "MISMATCH".equals(r.path("verdict").asText()))
                .filter(r -> !timing(r)).map(JsonNode::toString).toList();
        assertTrue(failed.isEmpty(), failed + "\n" + run.output());
        assertTrue(run.results().path("complete").asBoolean());
        for (String c : cases) {
            assertTrue(run.rows().stream().anyMatch(r -> r.path("check").asText().startsWith(c)),
                    "no row of case " + c + "\n" + run.output());
        }
        // R2's outcome is stated, per range and graph: here the double delivers them.
        List<JsonNode> r2 = run.rows("graph-dormant: R2 on this GPU");
        assertEquals(1, r2.size(), run.output());
        assertEquals("{r1 vprof_selftest_graph_a=delivered, r1 vprof_selftest_graph_b=delivered, "
                + "r2 vprof_selftest_graph_a=delivered, r2 vprof_selftest_graph_b=delivered}",
                r2.getFirst().path("actual").asText());
        // The checks that carry the field's risks are there and passed.
        for (String check : List.of("graph-dormant r2: vprof_selftest_graph_b graph and node ids",
                "graph-dormant r1: memset nodes", "unsync-stop: the long kernel's recorded duration",
                "unsync-stop: vprof_selftest_after_stop", "threads: vprof_selftest_thread",
                "graph-stress: kernels kept + rejected by reason + dropped and counted (no silent loss)",
                "launch-cost: agent finalized CUPTI after the capture", "nvtx-early: the NVTX range opened a capture range",
                "late: vprof_selftest_add", "profiler: kernel launches the agent counted",
                "profiler: the GPU's DEVICE record", "graph-dormant r2: API records whose correlation id",
                "watch: the dump holds every kernel launched while measured", "watch: agent dormant after the watch's SIGKILL",
                "watch: vprof watch ends on SIGTERM")) {
            List<JsonNode> rows = run.rows(check);
            assertTrue(!rows.isEmpty() && "ok".equals(rows.getFirst().path("verdict").asText()),
                    check + ": " + rows + "\n" + run.output());
        }
        // Each case left its raw outputs for a diagnosis without a second run.
        for (String f : List.of("cases/graph-dormant/report.json", "cases/graph-dormant/facts.json",
                "cases/graph-dormant/program.stdout", "cases/graph-dormant/program.stderr",
                "cases/graph-dormant/attach.stderr", "cases/unsync-stop/run.stderr", "cases/unsync-stop/run.command",
                "cases/info/program.stdout")) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), f);
        }
    }

    @Test
    void graphNodesCuptiNeverDeliversPassOnlyWithTheAgentsLoudWarning() throws Exception {
        Run run = selftest(Map.of("VPROF_SIM_GRAPH_NODES", "lost"), Set.of("graph-dormant"));
        assertEquals(0, run.exitCode(), run.output());
        List<JsonNode> outcome = run.rows("graph-dormant r1: vprof_selftest_graph_b (instantiated while dormant)");
        assertEquals("NOT DELIVERED by CUPTI, said loudly", outcome.getFirst().path("actual").asText(), run.output());
        assertTrue(run.rows("graph-dormant: R2 on this GPU").getFirst().path("actual").asText()
                .contains("r2 vprof_selftest_graph_b=not delivered"), run.output());
        // The eager kernels between the replays are still exact.
        assertEquals("ok", run.rows("graph-dormant r2: vprof_selftest_add").getFirst().path("verdict").asText());
    }
}
