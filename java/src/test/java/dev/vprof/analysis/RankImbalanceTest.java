package dev.vprof.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.source.CaptureSources;
import dev.vprof.trace.TraceOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Per-step spans and the rank imbalance of HTA's two-rank {@code trace_filter} folder, against the
 * traces' JSON: each GPU op given the ProfilerStep its launch call started in (as HTA assigns them),
 * its step's span the first op's start to the last op's end, per rank.
 */
class RankImbalanceTest {
    @Test
    void eachStepsSlowestRankAndSpreadFollowTheTracesOwnStepSpans() throws Exception {
        Path folder = TraceOracle.REAL.resolve("hta/trace_filter");
        // step name -> rank -> {first start, last end}
        Map<String, Map<Integer, long[]>> want = new TreeMap<>();
        for (int rank = 0; rank < 2; rank++) {
            JsonNode events = TraceOracle.tree(folder.resolve("sampled_rank-" + rank + ".json.gz")).get("traceEvents");
            List<Object[]> steps = new ArrayList<>();
            Map<Long, Long> launch = new HashMap<>();
            for (JsonNode e : events) {
                String cat = e.path("cat").asText();
                if (cat.equals("user_annotation") && e.path("name").asText().startsWith("ProfilerStep#")) {
                    long s = TraceOracle.ns(e.get("ts"));
                    steps.add(new Object[] {e.get("name").asText(), s, s + TraceOracle.ns(e.get("dur"))});
                } else if (cat.equals("cuda_runtime")) {
                    launch.put(e.path("args").path("correlation").asLong(), TraceOracle.ns(e.get("ts")));
                }
            }
            for (JsonNode e : events) {
                String cat = e.path("cat").asText();
                if (!e.path("ph").asText().equals("X")
                        || !(cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset"))) {
                    continue;
                }
                Long l = launch.get(e.path("args").path("correlation").asLong());
                if (l == null) {
                    continue;
                }
                for (Object[] st : steps) {
                    if ((long) st[1] <= l && l < (long) st[2]) {
                        long s = TraceOracle.ns(e.get("ts"));
                        long t = s + TraceOracle.ns(e.get("dur"));
                        long[] span = want.computeIfAbsent((String) st[0], x -> new TreeMap<>())
                                .computeIfAbsent(rank, x -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
                        span[0] = Math.min(span[0], s);
                        span[1] = Math.max(span[1], t);
                    }
                }
            }
        }
        assertTrue(want.size() >= 2, "two steps on both ranks: " + want.keySet());
        Analyses.Result r;
        try (CaptureReader reader = CaptureSources.open(folder)) {
            r = Analyses.run(reader, KernelNames.demangled());
        }
        Map<Integer, Integer> rankOfPid = new HashMap<>();
        r.ranks().forEach((pid, rank) -> rankOfPid.put(pid, rank));
        for (TemporalBreakdown.Row row : r.breakdown()) {
            if (row.step() >= 0) {
                long[] span = want.get(r.steps().name(row.step())).get(rankOfPid.get(row.pid()));
                assertEquals(span[1] - span[0], row.spanNs(), r.steps().name(row.step()) + " on " + r.rankOf(row.pid()));
            }
        }
        List<RankImbalance.Row> imbalance = RankImbalance.of(r);
        assertEquals(want.keySet(), new TreeSet<>(imbalance.stream().map(RankImbalance.Row::step).toList()));
        for (RankImbalance.Row x : imbalance) {
            Map<Integer, long[]> ranks = want.get(x.step());
            long a = ranks.get(0)[1] - ranks.get(0)[0];
            long b = ranks.get(1)[1] - ranks.get(1)[0];
            assertEquals(Math.abs(a - b), x.spreadNs(), x.step());
            assertEquals(a >= b ? 0 : 1, (int) rankOfPid.get(x.slowestPid()), x.step() + " slowest rank");
            assertEquals(2, x.ranks());
        }
    }

    @Test
    void theRankThatStartsEachCollectiveLastIsCountedAsTheTracesSayIt() throws Exception {
        Path folder = TraceOracle.REAL.resolve("hta/trace_filter");
        List<List<Long>> starts = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            List<Long> s = new ArrayList<>();
            for (JsonNode e : TraceOracle.tree(folder.resolve("sampled_rank-" + rank + ".json.gz")).get("traceEvents")) {
                if (e.path("cat").asText().equals("kernel") && e.path("name").asText().contains("nccl")) {
                    s.add(TraceOracle.ns(e.get("ts")));
                }
            }
            s.sort(null);
            starts.add(s);
        }
        int matched = Math.min(starts.get(0).size(), starts.get(1).size());
        int[] last = new int[2];
        long[] late = new long[2];
        for (int i = 0; i < matched; i++) {
            long a = starts.get(0).get(i), b = starts.get(1).get(i);
            int who = b > a ? 1 : 0;
            last[who]++;
            late[who] += Math.abs(a - b);
        }
        assertTrue(matched > 0);
        Analyses.Result r;
        try (CaptureReader reader = CaptureSources.open(folder)) {
            r = Analyses.run(reader, KernelNames.demangled());
        }
        assertEquals(2, r.stragglers().size());
        for (Stragglers.Row x : r.stragglers()) {
            int rank = r.ranks().get(x.pid());
            assertEquals(matched, x.matched());
            assertEquals(last[rank], x.last(), "rank " + rank + " last");
            assertEquals(late[rank], x.lateTotalNs(), "rank " + rank + " late");
        }
    }

    /** The stragglers' text table says when it was cut, as every other section's table and its JSON do. */
    @Test
    void theStragglersTableSaysWhenItIsCut() throws Exception {
        Analyses.Result r;
        try (CaptureReader reader = CaptureSources.open(TraceOracle.REAL.resolve("hta/trace_filter"))) {
            r = Analyses.run(reader, KernelNames.demangled());
        }
        int ranks = r.stragglers().size();
        assertEquals(2, ranks, "one row per rank of the two-rank folder");
        StringBuilder cut = new StringBuilder();
        AnalysisText.stragglers(cut, r, 1);
        assertTrue(cut.toString().endsWith("... 1 more rows (cut at 1)\n"), cut.toString());
        StringBuilder whole = new StringBuilder();
        AnalysisText.stragglers(whole, r, ranks);
        assertFalse(whole.toString().contains("more rows"), whole.toString());
    }
}
