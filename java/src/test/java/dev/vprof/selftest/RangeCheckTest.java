package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.capture.KernelDesc;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The range judge on recorded outputs: what the self-test program says it launched (its result
 * line, as selftest_cases.c prints it), what `vprof report --json` says a range holds, and the
 * capture's facts. Each test changes one thing a real GPU could get wrong and checks the verdict.
 */
class RangeCheckTest {
    private static final Map<String, String> SHAPES = Map.of("vprof_selftest_add", "256x1x1/256x1x1",
            "vprof_selftest_graph_a", "128x1x1/256x1x1", "vprof_selftest_graph_b", "64x1x1/256x1x1");

    /** graph-dormant's range: 2 replays each of graphs A and B (4 kernel nodes, a copy node, a memset node), 2 eager adds. */
    private static final String WANT = """
            {"kernels":{"vprof_selftest_graph_a":8,"vprof_selftest_graph_b":8,"vprof_selftest_add":2},
             "kernel_launches":2,"graph_launches":4,"memcpys":4,
             "graphs":[{"kernel":"vprof_selftest_graph_a","kernel_nodes":4,"copy_nodes":1,"memset_nodes":1,"launches":2},
                       {"kernel":"vprof_selftest_graph_b","kernel_nodes":4,"copy_nodes":1,"memset_nodes":1,"launches":2}]}""";

    private static JsonNode json(String s) throws Exception {
        return SelfCli.parse(s);
    }

    /** A report range: kernel counts by name, copies, sets, warnings. */
    private static JsonNode got(long a, long b, long add, long memcpys, long memsets, String warnings, long graphKernels)
            throws Exception {
        return json("""
                {"index":1,"kernels":%d,"memcpys":%d,"memsets":%d,"ring_drops":0,"cupti_drops":0,"zero_timestamp_kernels":0,
                 "top_kernels":[{"name":"vprof_selftest_graph_a","count":%d},{"name":"vprof_selftest_graph_b","count":%d},
                                {"name":"vprof_selftest_add","count":%d}],
                 "fidelity":{"graph_kernels":%d,"kernel_launches":2,"graph_launches":4,"kernels_missing":0,"clipped":0,
                             "rejected":{},"warnings":%s}}""".formatted(a + b + add, memcpys, memsets, a, b, add,
                graphKernels, warnings));
    }

    private static KernelDesc desc(int grid, int graphId, long node) {
        return new KernelDesc(1, 1, "k", 0, 1, 13, graphId, grid, 1, 1, 256, 1, 1, 0, 32, node);
    }

    /** Facts: `launches` graph launches of `nodes` kernels of each graph (ids from corr 100 on), 2 adds. */
    private static CaptureFacts.Range facts(int launchesA, int launchesB, boolean nodeIds) {
        CaptureFacts.Range r = new CaptureFacts.Range(1);
        int corr = 100;
        for (int l = 0; l < launchesA; l++, corr++) {
            for (int n = 0; n < 4; n++) {
                r.kernel("vprof_selftest_graph_a").add(1000, 2000, corr, desc(128, 7, nodeIds ? 70 + n : 0));
            }
        }
        for (int l = 0; l < launchesB; l++, corr++) {
            for (int n = 0; n < 4; n++) {
                r.kernel("vprof_selftest_graph_b").add(1000, 2000, corr, desc(64, 8, nodeIds ? 80 + n : 0));
            }
        }
        r.kernel("vprof_selftest_add").add(1000, 2000, 500, desc(256, 0, 0));
        r.kernel("vprof_selftest_add").add(1000, 2000, 501, desc(256, 0, 0));
        return r;
    }

    private static RangeCheck.Result check(JsonNode got, CaptureFacts.Range facts, RangeCheck.Graphs graphs)
            throws Exception {
        return new RangeCheck("graph-dormant r1", json(WANT), got, facts, SHAPES).check(graphs);
    }

    private static Row row(RangeCheck.Result r, String suffix) {
        return r.rows().stream().filter(x -> x.check().endsWith(suffix)).findFirst()
                .orElseThrow(() -> new AssertionError("no row ending " + suffix + " in " + r.rows()));
    }

    @Test
    void everyNodeKernelWithItsIdsIsDelivered() throws Exception {
        RangeCheck.Result r = check(got(8, 8, 2, 4, 4, "[]", 16), facts(2, 2, true), RangeCheck.Graphs.DELIVERED_OR_LOUD);
        assertFalse(r.failed(), r.rows().toString());
        assertEquals(Map.of("vprof_selftest_graph_a", "delivered", "vprof_selftest_graph_b", "delivered"),
                r.graphOutcomes());
        assertEquals("DELIVERED: 8", row(r, "vprof_selftest_graph_b (instantiated while dormant)").actual());
    }

    @Test
    void noNodeKernelAndTheAgentsWarningIsTheOtherOutcomeNotAFailure() throws Exception {
        RangeCheck.Result r = check(got(0, 0, 2, 0, 0, "[\"graph_kernels_not_delivered\",\"drain_timeout\"]", 0),
                facts(0, 0, true), RangeCheck.Graphs.DELIVERED_OR_LOUD);
        assertFalse(r.failed(), r.rows().toString());
        assertEquals("not delivered", r.graphOutcomes().get("vprof_selftest_graph_a"));
        assertEquals("not delivered either", row(r, "memset nodes").actual());
    }

    @Test
    void noNodeKernelWithoutTheWarningIsASilentLoss() throws Exception {
        RangeCheck.Result r = check(got(0, 0, 2, 0, 0, "[]", 0), facts(0, 0, true), RangeCheck.Graphs.DELIVERED_OR_LOUD);
        Row a = row(r, "vprof_selftest_graph_a (instantiated while dormant)");
        assertEquals(CheckOutcome.MISMATCH, a.verdict());
        assertTrue(a.actual().contains("silent loss"), a.actual());
    }

    @Test
    void oneGraphDeliveredAndTheOtherNotIsAMismatchTheAgentCannotSee() throws Exception {
        // The agent warns only when no graph kernel at all came: B's loss is silent.
        RangeCheck.Result r = check(got(8, 0, 2, 4, 4, "[]", 8), facts(2, 0, true), RangeCheck.Graphs.DELIVERED_OR_LOUD);
        assertEquals(CheckOutcome.OK, row(r, "vprof_selftest_graph_a (instantiated while dormant)").verdict());
        assertEquals(CheckOutcome.MISMATCH, row(r, "vprof_selftest_graph_b (instantiated while dormant)").verdict());
        assertEquals("silently lost", r.graphOutcomes().get("vprof_selftest_graph_b"));
    }

    @Test
    void nodeKernelsWithoutNodeIdsAreAMismatch() throws Exception {
        RangeCheck.Result r = check(got(8, 8, 2, 4, 4, "[]", 16), facts(2, 2, false), RangeCheck.Graphs.DELIVERED_OR_LOUD);
        assertEquals(CheckOutcome.MISMATCH, row(r, "vprof_selftest_graph_a graph and node ids").verdict());
    }

    @Test
    void aMemsetNodeMayComeBackAsAKernelButNotAsNothing() throws Exception {
        CaptureFacts.Range facts = facts(2, 2, true);
        for (int i = 0; i < 4; i++) {
            facts.kernel("memset32_aligned1D").add(1000, 2000, 100 + i, desc(1, 7, 99));
        }
        RangeCheck.Result asKernels = check(got(8, 8, 2, 4, 0, "[]", 20), facts, RangeCheck.Graphs.DELIVERED_OR_LOUD);
        assertEquals(CheckOutcome.OK, row(asKernels, "memset nodes").verdict());
        assertTrue(row(asKernels, "memset nodes").actual().contains("memset32_aligned1D"));
        RangeCheck.Result lost = check(got(8, 8, 2, 4, 0, "[]", 16), facts(2, 2, true), RangeCheck.Graphs.DELIVERED_OR_LOUD);
        assertEquals(CheckOutcome.MISMATCH, row(lost, "memset nodes").verdict());
    }

    @Test
    void aKernelShortByOneIsAMismatchThatNamesIt() throws Exception {
        RangeCheck.Result r = check(got(8, 8, 1, 4, 4, "[]", 16), facts(2, 2, true), RangeCheck.Graphs.EXACT);
        Row add = row(r, ": vprof_selftest_add");
        assertEquals(CheckOutcome.MISMATCH, add.verdict());
        assertEquals("2", add.expected());
        assertEquals("1", add.actual());
    }

    @Test
    void aGridThatIsNotTheLaunchedOneIsAMismatch() throws Exception {
        CaptureFacts.Range facts = facts(2, 2, true);
        facts.kernel("vprof_selftest_add").add(1000, 2000, 502, desc(255, 0, 0));
        RangeCheck.Result r = check(got(8, 8, 2, 4, 4, "[]", 16), facts, RangeCheck.Graphs.EXACT);
        Row shapes = row(r, "grid and block in the records");
        assertEquals(CheckOutcome.MISMATCH, shapes.verdict());
        assertTrue(shapes.actual().contains("255x1x1"), shapes.actual());
    }

    @Test
    void anUnexpectedWarningOrARejectIsAMismatchUnlessAllowed() throws Exception {
        JsonNode got = got(8, 8, 2, 4, 4, "[\"records_missing\"]", 16);
        ((com.fasterxml.jackson.databind.node.ObjectNode) got.path("fidelity").path("rejected")).put("end_before_start", 3);
        RangeCheck.Result strict = check(got, facts(2, 2, true), RangeCheck.Graphs.EXACT);
        assertEquals(CheckOutcome.MISMATCH, row(strict, ": warnings").verdict());
        assertEquals(CheckOutcome.MISMATCH, row(strict, "rejected as invalid").verdict());
        RangeCheck.Result loose = new RangeCheck("x", json(WANT), got, facts(2, 2, true), SHAPES)
                .allowWarnings("records_missing").allowRejected().check(RangeCheck.Graphs.EXACT);
        assertEquals(CheckOutcome.OK, row(loose, ": warnings").verdict());
        assertEquals(CheckOutcome.INFO, row(loose, "rejected as invalid, by reason").verdict());
    }

    @Test
    void aCaveatAboutThisCuptiIsNotARangeFailure() throws Exception {
        // CUDA 13.2's CUPTI is outside vprof's verified list: every range carries the flag.
        RangeCheck.Result r = check(got(8, 8, 2, 4, 4, "[\"unverified_record_layout\"]", 16), facts(2, 2, true),
                RangeCheck.Graphs.EXACT);
        assertEquals(CheckOutcome.OK, row(r, ": warnings").verdict());
        assertEquals("[unverified_record_layout]", row(r, ": warnings").actual());
    }

    @Test
    void aKeptKernelWithInvalidTimestampsIsAMismatch() throws Exception {
        CaptureFacts.Range facts = facts(2, 2, true);
        facts.kernel("vprof_selftest_add").add(2000, 1000, 503, desc(256, 0, 0));
        RangeCheck.Result r = check(got(8, 8, 2, 4, 4, "[]", 16), facts, RangeCheck.Graphs.EXACT);
        assertEquals(CheckOutcome.MISMATCH, row(r, "kept kernels with invalid timestamps").verdict());
    }

    @Test
    void aMissingRangeIsOneMismatch() throws Exception {
        RangeCheck.Result r = check(null, facts(0, 0, true), RangeCheck.Graphs.EXACT);
        assertEquals(List.of(CheckOutcome.MISMATCH), r.rows().stream().map(Row::verdict).toList());
    }
}
