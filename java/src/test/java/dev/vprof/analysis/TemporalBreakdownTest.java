package dev.vprof.analysis;

import static dev.vprof.analysis.IntervalOracle.intersect;
import static dev.vprof.analysis.IntervalOracle.length;
import static dev.vprof.analysis.IntervalOracle.union;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.aggregate.KernelPass;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.source.CaptureSources;
import dev.vprof.time.Clocks;
import dev.vprof.time.Scope;
import dev.vprof.trace.TraceOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The temporal breakdown of HTA's own test traces (two ranks of {@code trace_filter}, the two
 * {@code trace_diff} traces) against intervals read straight from the JSON and merged plainly here:
 * sorted, unioned, intersected.
 */
class TemporalBreakdownTest {

    static Stream<Path> traces() {
        Path hta = TraceOracle.REAL.resolve("hta");
        return Stream.of(hta.resolve("trace_filter/sampled_rank-0.json.gz"),
                hta.resolve("trace_filter/sampled_rank-1.json.gz"),
                hta.resolve("trace_diff/control/control.json.gz"),
                hta.resolve("trace_diff/test/test.json.gz"));
    }

    @ParameterizedTest
    @MethodSource("traces")
    void piecesAddUpToTheSpanAndEachEqualsThePlainIntervalComputation(Path trace) throws Exception {
        List<long[]> compute = new ArrayList<>(), comm = new ArrayList<>(), memory = new ArrayList<>();
        long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
        for (JsonNode e : TraceOracle.tree(trace).get("traceEvents")) {
            String cat = e.path("cat").asText();
            if (!e.path("ph").asText().equals("X")
                    || !(cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset"))) {
                continue;
            }
            long s = TraceOracle.ns(e.get("ts"));
            long t = s + TraceOracle.ns(e.get("dur"));
            first = Math.min(first, s);
            last = Math.max(last, t);
            // Every collective in these traces is an NCCL kernel (AllReduce, SendRecv).
            (cat.equals("kernel") ? (e.get("name").asText().contains("nccl") ? comm : compute) : memory)
                    .add(new long[] {s, t});
        }
        List<long[]> c = union(compute), m = union(comm), x = union(memory);
        List<long[]> cm = union(concat(c, m));
        long span = last - first;
        long expectCompute = length(c);
        long expectComm = length(m) - length(intersect(m, c));
        long expectMemory = length(x) - length(intersect(x, cm));
        long expectIdle = span - length(union(concat(cm, x)));
        long expectOverlap = length(intersect(c, m));

        TemporalBreakdown.Row row;
        try (CaptureReader reader = CaptureSources.open(trace)) {
            TemporalBreakdown b = new TemporalBreakdown();
            new KernelPass(Clocks.unfitted()).add(Scope.ALL, b).run(reader);
            List<TemporalBreakdown.Row> rows = b.rows();
            assertEquals(1, rows.size(), "one rank, one GPU: " + rows);
            row = rows.get(0);
        }
        assertFalse(row.approximate());
        assertEquals(span, row.spanNs(), "span");
        long sum = row.idleNs() + row.computeNs() + row.communicationNs() + row.memoryNs();
        assertTrue(Math.abs(sum - span) <= span / 1000, "idle+compute+comm+memory " + sum + " vs span " + span);
        assertEquals(expectCompute, row.computeNs(), "compute");
        assertEquals(expectComm, row.communicationNs(), "communication");
        assertEquals(expectMemory, row.memoryNs(), "memory");
        assertEquals(expectIdle, row.idleNs(), "idle");
        assertEquals(expectOverlap, row.overlapNs(), "overlap of compute with communication");
        assertTrue(row.communicationNs() > 0, "these ranks run NCCL kernels");
    }

    @Test
    void aFolderOfRanksGivesEachRankItsOwnRowsEqualToItsFilesAlone() throws Exception {
        Path folder = TraceOracle.REAL.resolve("hta/trace_filter");
        Analyses.Result all;
        try (CaptureReader reader = CaptureSources.open(folder)) {
            all = Analyses.run(reader, KernelNames.demangled());
        }
        List<TemporalBreakdown.Row> whole = all.breakdown().stream()
                .filter(r -> r.step() == TemporalBreakdown.WHOLE).toList();
        assertEquals(2, whole.size(), "two ranks: " + whole);
        for (int rank = 0; rank < 2; rank++) {
            Analyses.Result one;
            try (CaptureReader reader = CaptureSources.open(folder.resolve("sampled_rank-" + rank + ".json.gz"))) {
                one = Analyses.run(reader, KernelNames.demangled());
            }
            TemporalBreakdown.Row alone = one.breakdown().getFirst();
            int r = rank;
            TemporalBreakdown.Row inFolder = whole.stream().filter(x -> ("rank " + r).equals(all.rankOf(x.pid())))
                    .findFirst().orElseThrow(() -> new AssertionError("rank " + r + " missing: " + all.ranks()));
            assertEquals(alone.spanNs(), inFolder.spanNs());
            assertEquals(alone.idleNs(), inFolder.idleNs());
            assertEquals(alone.computeNs(), inFolder.computeNs());
            assertEquals(alone.communicationNs(), inFolder.communicationNs());
            assertEquals(alone.memoryNs(), inFolder.memoryNs());
            assertEquals(alone.overlapNs(), inFolder.overlapNs());
            // Per step too: each of the rank's ProfilerStep ranges, named as the trace names them.
            long steps = all.breakdown().stream().filter(x -> x.pid() == inFolder.pid() && x.step() >= 0)
                    .peek(x -> assertTrue(all.steps().name(x.step()).startsWith("ProfilerStep#"),
                            all.steps().name(x.step())))
                    .peek(x -> assertEquals(x.spanNs(), x.idleNs() + x.computeNs() + x.communicationNs() + x.memoryNs()))
                    .count();
            assertTrue(steps > 0, "rank " + rank + " has steps");
        }
    }

    private static List<long[]> concat(List<long[]> a, List<long[]> b) {
        List<long[]> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
