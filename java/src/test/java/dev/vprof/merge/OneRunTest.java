package dev.vprof.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.ProcessInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whether captures belong to one run, on node evidence built here: each refusal of {@link OneRun}
 * (two captures of one host 90 s apart, unrelated runs 17 min apart or with another run id or world
 * size, the same file, node or rank twice, a capture that says nothing of when it ran) and the
 * captures that must pass (one run's nodes, one host's two simulated nodes).
 */
class OneRunTest {
    private static final long T0 = 1_760_000_000_000_000_000L;
    private static final long S = 1_000_000_000L;

    /** A capture of {@code host} (boot {@code boot}) from {@code startS} to {@code endS}, its processes (pid, rank). */
    private static NodeCapture cap(String file, String host, String boot, long startS, long endS, Map<String, String> env,
                                   int... pidRank) {
        Map<String, String> ev = new LinkedHashMap<>();
        ev.put(NodeEvidence.HOSTNAME, host);
        ev.put(NodeEvidence.BOOT_ID, boot);
        ev.put(NodeEvidence.START_REALTIME, Long.toString(T0 + startS * S));
        ev.put(NodeEvidence.SYNC, "true");
        ev.put(NodeEvidence.SYNC_STATE, "0");
        ev.put(NodeEvidence.MAX_ERROR, "500"); // 500 µs
        env.forEach((k, v) -> ev.put(NodeEvidence.RANK_ENV + k, v));
        List<ProcessInfo> procs = new ArrayList<>();
        for (int i = 0; i < pidRank.length; i += 2) {
            procs.add(new ProcessInfo(pidRank[i], 1, "python3", 130000, 1, 1 << 20, T0, pidRank[i + 1], 0, 2));
        }
        return new NodeCapture(Path.of(file), host, ev, Map.of(), procs, List.of(), Map.of(), T0 + startS * S,
                T0 + endS * S);
    }

    private static List<String> reasons(NodeCapture... caps) {
        List<RunMerge.Node> nodes = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < caps.length; i++) {
            nodes.add(RunMerge.place(caps[0], caps[i], i, "m" + i, "f" + i, warnings));
        }
        return OneRun.reasons(nodes);
    }

    @Test
    void oneRunsNodesTakenTogetherPass() {
        assertEquals(List.of(), reasons(cap("n0.vprof", "gpu-0", "b0", 0, 20, Map.of("TORCHELASTIC_RUN_ID", "j1"), 11, 0),
                cap("n1.vprof", "gpu-1", "b1", 1, 21, Map.of("TORCHELASTIC_RUN_ID", "j1"), 11, 1)));
        // one host standing in for two nodes (the merge test): one boot, distinct processes and ranks
        assertEquals(List.of(), reasons(cap("a.vprof", "vm", "b0", 0, 20, Map.of(), 11, 0),
                cap("b.vprof", "vm", "b0", 0, 20, Map.of(), 12, 1)));
    }

    @Test
    void twoCapturesOfOneHost90SecondsApartAreRefused() {
        List<String> r = reasons(cap("first.vprof", "vm", "b0", 0, 10, Map.of(), 11, 0),
                cap("second.vprof", "vm", "b0", 100, 110, Map.of(), 12, 1));
        assertEquals(1, r.size(), r.toString());
        assertTrue(r.getFirst().contains("first.vprof (2025-10-09 08:53:20.000 to 08:53:30.000 UTC) and second.vprof")
                && r.getFirst().contains("do not overlap: second.vprof began 90.000 s after first.vprof ended")
                && r.getFirst().contains("(1.000 ms)"), r.getFirst());
    }

    @Test
    void unrelatedRunsAreRefused() {
        // 17 minutes apart, even with collectives that would fit each other
        List<String> apart = reasons(cap("run1.vprof", "gpu-0", "b0", 0, 30, Map.of(), 11, 0),
                cap("run2.vprof", "gpu-1", "b1", 1048, 1078, Map.of(), 21, 1));
        assertEquals(1, apart.size(), apart.toString());
        assertTrue(apart.getFirst().contains("do not overlap"), apart.getFirst());
        // at the same time, but the launcher names two runs
        List<String> ids = reasons(cap("a.vprof", "gpu-0", "b0", 0, 30, Map.of("TORCHELASTIC_RUN_ID", "job-1"), 11, 0),
                cap("b.vprof", "gpu-1", "b1", 0, 30, Map.of("TORCHELASTIC_RUN_ID", "job-2"), 21, 1));
        assertEquals(List.of("a.vprof and b.vprof come from different runs (TORCHELASTIC_RUN_ID is job-1 in one and "
                + "job-2 in the other)"), ids);
        // or their processes declare different world sizes
        NodeCapture four = cap("c.vprof", "gpu-1", "b1", 0, 30, Map.of(), 21, 1);
        List<ProcessInfo> p = List.of(new ProcessInfo(21, 1, "python3", 130000, 1, 1 << 20, T0, 1, 0, 4));
        four = new NodeCapture(four.path(), four.host(), four.node(), four.end(), p, List.of(), Map.of(),
                four.windowStartNs(), four.windowEndNs());
        List<String> world = reasons(cap("a.vprof", "gpu-0", "b0", 0, 30, Map.of(), 11, 0), four);
        assertEquals(1, world.size(), world.toString());
        assertTrue(world.getFirst().contains("WORLD_SIZE is 2 in one and 4 in the other"), world.getFirst());
    }

    @Test
    void theSameNodeOrRankGivenTwiceIsRefused() {
        NodeCapture a = cap("a.vprof", "gpu-0", "b0", 0, 30, Map.of(), 11, 0);
        assertEquals(List.of("a.vprof and a.vprof are the same file"), reasons(a, a));
        NodeCapture copy = cap("copy-of-a.vprof", "gpu-0", "b0", 0, 30, Map.of(), 11, 0);
        assertTrue(reasons(a, copy).getFirst().contains("copies of one capture"), reasons(a, copy).toString());
        // a second front end on the same processes of one host: the same node twice
        NodeCapture again = cap("again.vprof", "gpu-0", "b0", 5, 35, Map.of(), 11, 0);
        assertEquals(List.of("a.vprof and again.vprof both hold pid 11 of gpu-0: the same node given twice"),
                reasons(a, again));
        // another host whose process has rank 0 as well
        NodeCapture rank0 = cap("other.vprof", "gpu-1", "b1", 0, 30, Map.of(), 11, 0);
        assertEquals(List.of("rank 0 is in both a.vprof (pid 11) and other.vprof (pid 11): one rank given twice"),
                reasons(a, rank0));
        // within another vLLM data parallel rank, rank 0 again is a different process group's
        NodeCapture dp0 = cap("dp0.vprof", "gpu-0", "b0", 0, 30, Map.of("VLLM_DP_RANK", "0"), 11, 0);
        NodeCapture dp1 = cap("dp1.vprof", "gpu-1", "b1", 0, 30, Map.of("VLLM_DP_RANK", "1"), 11, 0);
        assertEquals(List.of(), reasons(dp0, dp1));
    }

    @Test
    void aCaptureThatSaysNothingOfWhenItRanNeedsCollectivesWithinTheBound() {
        NodeCapture a = cap("a.vprof", "gpu-0", "b0", 0, 30, Map.of(), 11, 0);
        NodeCapture none = new NodeCapture(Path.of("empty.vprof"), "", Map.of(), Map.of(), List.of(), List.of(),
                Map.of(), -1, -1);
        List<String> r = reasons(a, none);
        assertEquals(1, r.size(), r.toString());
        assertTrue(r.getFirst().startsWith("nothing shows a.vprof and empty.vprof ran together: empty.vprof says "
                + "nothing of when it ran and no collectives match within 100.0 µs"), r.getFirst());
        // with the same collectives (moved by 1 ms) the fit vouches for it
        long[] ends = new long[64];
        for (int i = 0; i < ends.length; i++) {
            ends[i] = T0 + i * 2_000_000L + (i * 7919L) % 300_000;
        }
        long[] moved = ends.clone();
        for (int i = 0; i < moved.length; i++) {
            moved[i] += 1_000_000;
        }
        Map<Integer, long[]> e0 = new HashMap<>(Map.of(11, ends));
        NodeCapture withEnds = new NodeCapture(a.path(), a.host(), a.node(), a.end(), a.processes(), List.of(), e0,
                a.windowStartNs(), a.windowEndNs());
        NodeCapture noneWithEnds = new NodeCapture(none.path(), "", Map.of(), Map.of(), List.of(), List.of(),
                Map.of(12, moved), -1, -1);
        assertEquals(List.of(), reasons(withEnds, noneWithEnds));
    }

    @Test
    void anUnsynchronisedClockIsAllowedOneSecond() {
        NodeCapture a = cap("a.vprof", "gpu-0", "b0", 0, 10, Map.of(), 11, 0);
        Map<String, String> unsynced = new LinkedHashMap<>(cap("b.vprof", "gpu-1", "b1", 0, 0, Map.of()).node());
        unsynced.put(NodeEvidence.SYNC, "false");
        NodeCapture late = new NodeCapture(Path.of("b.vprof"), "gpu-1", unsynced, Map.of(), List.of(), List.of(),
                Map.of(), T0 + 10 * S + S / 2, T0 + 20 * S);
        assertEquals(List.of(), reasons(a, late), "half a second after, with a clock NTP does not discipline");
        NodeCapture later = new NodeCapture(Path.of("b.vprof"), "gpu-1", unsynced, Map.of(), List.of(), List.of(),
                Map.of(), T0 + 12 * S, T0 + 20 * S);
        assertTrue(reasons(a, later).getFirst().contains("began 2.000 s after a.vprof ended, more than their clocks "
                + "can be apart (1.00"), reasons(a, later).toString());
    }
}
