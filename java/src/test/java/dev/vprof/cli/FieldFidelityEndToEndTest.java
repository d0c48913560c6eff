package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What real servers do to a CUPTI agent (docs/cupti.md), as a user meets it: {@code vprof run} around programs over the CUPTI test
 * double that do what real servers do to a CUPTI agent, then {@code vprof report}. Each test names
 * the handling whose removal makes it fail. The figures are the double's, never a GPU's.
 */
class FieldFidelityEndToEndTest {

    @TempDir
    Path dir;

    private final E2e e2e = E2e.nativeParts();

    private static long field(Path log, String key) throws Exception {
        Matcher m = Pattern.compile("\\b" + key + "=(\\d+)").matcher(Files.readString(log));
        assertTrue(m.find(), "no " + key + " in " + Files.readString(log));
        return Long.parseLong(m.group(1));
    }

    private static List<JsonNode> rangesWithKernels(JsonNode report) {
        List<JsonNode> out = new ArrayList<>();
        report.get("ranges").forEach(r -> {
            if (r.get("index").asInt() > 0) {
                out.add(r);
            }
        });
        return out;
    }

    /** Graph nodes delivered. Handling: node kernels kept by their launch's id; graph ids in KERNEL_DESC. */
    @Test
    void graphServerCaptureHoldsExactlyTheReplayedNodeKernelsEachWithItsGraph() throws Exception {
        Path log = dir.resolve("t.log");
        Path file = dir.resolve("graphs.vprof");
        E2e.run(List.of("--capture-range=cudaProfilerApi", "-o", file.toString()),
                e2e.fieldTarget(log, List.of("VPROF_SIM_GRAPH_NODES=delivered"), "graph-server", "50", "4", "12"));
        JsonNode report = E2e.report(file);
        assertEquals(field(log, "in_range"), E2e.kernels(report));
        assertEquals(0, E2e.lost(report));
        assertEquals(600, report.at("/totals/graph_kernels").asLong());
        JsonNode range = rangesWithKernels(report).getFirst();
        assertEquals(600, range.at("/fidelity/graph_kernels").asLong());
        assertEquals(50, range.at("/fidelity/non_graph_kernels").asLong());
        assertEquals(50, range.at("/fidelity/graph_launches").asLong());
        assertEquals(0, range.at("/fidelity/warnings").size());
        String text = E2e.ok(Cli.run("report", file.toString())).out();
        assertTrue(text.contains("650 kernels (600 from CUDA graphs, 50 not)"), text);
    }

    /** Graph nodes lost. Handling: graph launches counted in the range, judged when it closes; loud report. */
    @Test
    void graphServerWhoseNodeKernelsCuptiNeverDeliversIsReportedLoudlyWithTheReason() throws Exception {
        Path log = dir.resolve("t.log");
        Path file = dir.resolve("lost.vprof");
        Cli.Result run = E2e.run(List.of("--capture-range=cudaProfilerApi", "-o", file.toString()),
                e2e.fieldTarget(log, List.of("VPROF_SIM_GRAPH_NODES=lost"), "graph-server", "20", "2", "8"));
        assertTrue(run.err().contains("graph_kernels_not_delivered"), run.err());
        JsonNode report = E2e.report(file);
        assertEquals(20, E2e.kernels(report)); // the eager ones: never a silent 0 graph kernels
        JsonNode range = rangesWithKernels(report).getFirst();
        assertEquals(20, range.at("/fidelity/graph_launches").asLong());
        assertEquals(0, range.at("/fidelity/graph_kernels").asLong());
        assertTrue(range.at("/fidelity/warnings").toString().contains("graph_kernels_not_delivered"));
        Cli.Result text = E2e.ok(Cli.run("report", file.toString()));
        assertTrue(text.out().contains("warning: CUPTI delivered NO kernels of the 20 CUDA graph launches in this range: "
                + "the graphs were captured and instantiated while vprof was dormant"), text.out());
    }

    /** Work in flight at the stop. Handling: the drain window (kinds on after the stop) and clipping by launch order. */
    @Test
    void stopWithoutSynchronizeKeepsEveryKernelLaunchedBeforeItAndNoneAfter() throws Exception {
        Path log = dir.resolve("t.log");
        Path file = dir.resolve("unsync.vprof");
        E2e.run(List.of("--capture-range=cudaProfilerApi", "-o", file.toString()),
                e2e.fieldTarget(log, List.of(), "unsync-stop"));
        JsonNode report = E2e.report(file);
        assertEquals(201, E2e.kernels(report)); // 200 + the 700 ms one still running at the stop
        assertEquals(0, E2e.lost(report));
        JsonNode range = rangesWithKernels(report).getFirst();
        assertEquals(201, range.at("/fidelity/kernel_launches").asLong());
        assertEquals(0, range.at("/fidelity/kernels_missing").asLong());
        assertEquals(0, range.at("/fidelity/warnings").size());
        assertTrue(range.at("/fidelity/clipped").asLong() <= 50);
    }

    /** Invalid timestamps. Handling: timestamp validation by reason; rejects never on the timeline. */
    @Test
    void invalidTimestampsAreCountedByReasonInReportAndJsonAndKeptOffTheTimeline() throws Exception {
        Path log = dir.resolve("t.log");
        Path file = dir.resolve("invalid.vprof");
        E2e.run(List.of("--capture-range=cudaProfilerApi", "--kinds", "kernel", "-o", file.toString()),
                e2e.fieldTarget(log, List.of("VPROF_SIM_INVALID_TS_RATE=0.01"), "invalid-ts"));
        long ebs = field(log, "end_before_start");
        long sz = field(log, "start_zero");
        long ez = field(log, "end_zero");
        long bz = field(log, "both_zero");
        JsonNode report = E2e.report(file);
        JsonNode rejected = report.at("/totals/rejected");
        assertEquals(ebs, rejected.path("end_before_start").asLong());
        assertEquals(sz, rejected.path("start_zero").asLong());
        assertEquals(ez, rejected.path("end_zero").asLong());
        assertEquals(bz, rejected.path("zero_timestamps").asLong());
        assertEquals(2000 - ebs - sz - ez - bz, E2e.kernels(report));
        String text = E2e.ok(Cli.run("report", file.toString())).out();
        assertTrue(text.contains((ebs + sz + ez + bz) + " records were kept off the timeline as invalid"), text);
        // Not on the timeline: the Chrome export draws only the kept kernels.
        Path trace = dir.resolve("trace.json");
        E2e.ok(Cli.run("export", file.toString(), "-o", trace.toString(), "--format", "chrome"));
        String json = Files.readString(trace);
        assertEquals(E2e.kernels(report), Pattern.compile("\"name\":\"step_kernel\"").matcher(json).results().count());
    }

    /** A second CUPTI client (torch.profiler). Handling: buffer callbacks re-registered at each range begin; the other client named. */
    @Test
    void kinetoLikeClientInTheSameProcessIsNamedLoudlyAndTheTargetExitsZero() throws Exception {
        Path log = dir.resolve("t.log");
        Path file = dir.resolve("kineto.vprof");
        Cli.Result run = E2e.run(List.of("--capture-range=cudaProfilerApi", "--capture-range-end=repeat",
                "-o", file.toString()), e2e.fieldTarget(log, List.of(), "kineto"));
        assertTrue(run.err().contains("vprof: warning: pid ") && run.err().contains("torch.profiler"), run.err());
        JsonNode report = E2e.report(file);
        List<JsonNode> ranges = rangesWithKernels(report);
        assertEquals(2, ranges.size());
        String codes = ranges.get(0).at("/fidelity/warnings").toString();
        // All of its records went to the other client, or some came before it registered.
        assertTrue(codes.contains("no_records") || codes.contains("records_missing"), ranges.get(0).toString());
        assertEquals(100, ranges.get(1).get("kernels").asLong()); // vprof took its callbacks back
        Cli.Result text = E2e.ok(Cli.run("report", file.toString()));
        assertTrue(text.out().contains("another CUPTI client in this process (torch.profiler / Kineto)"), text.out());
    }

    /** A range begun in one rank only. Handling: --range-scope tree relays a range begun in one worker to every agent. */
    @Test
    void treeScopeRecordsBothWorkersKernelsOfARangeBegunInOne() throws Exception {
        Path log = dir.resolve("t.log");
        Path file = dir.resolve("tree.vprof");
        E2e.run(List.of("--capture-range=cudaProfilerApi", "--range-scope", "tree", "-o", file.toString()),
                e2e.fieldTarget(log, List.of("AGENT_FIELD_WAIT=frontend"), "workers", "120", "10", "30", "90"));
        JsonNode report = E2e.report(file);
        assertEquals(2, report.get("processes").size());
        long rank0 = -1, rank1 = -1;
        for (JsonNode p : report.get("processes")) {
            assertEquals(2, p.get("world_size").asInt());
            if (p.get("rank").asInt() == 0) {
                rank0 = p.get("kernels").asLong();
            } else {
                rank1 = p.get("kernels").asLong();
            }
        }
        assertEquals(600, rank0); // 60 steps of 10 kernels, between its own start and stop
        // The other worker follows a relay later (the front end's poll, then the agent's 10 ms tick):
        // within six 10 ms steps of the window at each end, even on a loaded machine.
        assertTrue(rank1 >= 600 - 60 && rank1 <= 600 + 60, "rank 1 recorded " + rank1 + " kernels");
        for (JsonNode r : report.get("ranges")) {
            if (r.get("index").asInt() > 0 && r.get("kernels").asLong() > 0 && !r.get("source").asText().equals("profiler")) {
                assertEquals("tree", r.get("source").asText());
            }
        }
    }

    /** The same workers without --range-scope tree: the rank that never calls cudaProfilerStart records nothing. */
    @Test
    void processScopeRecordsOnlyTheWorkerThatBeganTheRange() throws Exception {
        Path log = dir.resolve("t.log");
        Path file = dir.resolve("process.vprof");
        E2e.run(List.of("--capture-range=cudaProfilerApi", "-o", file.toString()),
                e2e.fieldTarget(log, List.of(), "workers", "60", "5", "10", "40"));
        JsonNode report = E2e.report(file);
        assertEquals(300, E2e.kernels(report));
    }
}
