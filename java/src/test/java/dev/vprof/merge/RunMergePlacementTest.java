package dev.vprof.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.ProcessInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** How a node is placed against the reference, on node evidence built here (adjtimex's word and collective ends). */
class RunMergePlacementTest {
    private static NodeCapture node(String host, boolean synced, long maxErrorUs, long[] ends) {
        Map<String, String> ev = Map.of(NodeEvidence.HOSTNAME, host, NodeEvidence.SYNC, Boolean.toString(synced),
                NodeEvidence.SYNC_STATE, synced ? "0" : "5", NodeEvidence.MAX_ERROR, Long.toString(maxErrorUs));
        return new NodeCapture(Path.of(host + ".vprof"), host, ev, Map.of(), List.of(), List.of(),
                ends == null ? Map.of() : Map.of(100, ends), -1, -1);
    }

    /** Places node b, the second of two, against a as the reference. */
    private static RunMerge.Node placeB(NodeCapture a, NodeCapture b, List<String> warnings) {
        return RunMerge.place(a, b, 1, "b", "b.pftrace", warnings);
    }

    private static long[] ends(int n, long offset) {
        long[] t = new long[n];
        long now = 1_000_000_000_000L;
        for (int i = 0; i < n; i++) {
            now += 50_000 + (i * 7919L) % 200_000;
            t[i] = now + offset;
        }
        return t;
    }

    @Test
    void clocksThatDisagreeBeyondBothNtpBoundsAreSaidLoudly() {
        List<String> warnings = new ArrayList<>();
        // both hosts say they are within 100 µs; the collectives say 2 ms
        RunMerge.Node n = placeB(node("a", true, 100, ends(100, 0)), node("b", true, 100, ends(100, 2_000_000)), warnings);
        assertEquals(2_000_000, n.estimate().offsetNs());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.getFirst().startsWith("CLOCKS DISAGREE") && warnings.getFirst().contains("±200.0 µs"),
                warnings.getFirst());
    }

    @Test
    void anOffsetFarBeyondWhatUnsynchronisedClocksCanBeApartIsSaidToo() {
        List<String> warnings = new ArrayList<>();
        // strictly periodic collectives of two runs 17 minutes apart fit to the nanosecond, on hosts without NTP
        long[] a = new long[500], b = new long[500];
        for (int i = 0; i < a.length; i++) {
            a[i] = 1_000_000_000_000L + i * 2_000_000L;
            b[i] = a[i] + 1_018_000_000_000L;
        }
        RunMerge.Node n = placeB(node("a", false, 16_000_000, a), node("b", false, 16_000_000, b), warnings);
        assertEquals(OffsetEstimate.COLLECTIVES, n.estimate().method());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.getFirst().startsWith("CLOCKS DISAGREE: node b's clock is 10")
                && warnings.getFirst().contains("±2.000 s"), warnings.getFirst());
    }

    @Test
    void anOffsetWithinTheBoundsIsQuiet() {
        List<String> warnings = new ArrayList<>();
        RunMerge.Node n = placeB(node("a", true, 100, ends(100, 0)), node("b", true, 100, ends(100, 150_000)), warnings);
        assertEquals(150_000, n.estimate().offsetNs());
        assertEquals(List.of(), warnings);
    }

    @Test
    void withoutCollectivesTheNtpBoundIsTheUncertainty() {
        List<String> warnings = new ArrayList<>();
        RunMerge.Node n = placeB(node("a", true, 300, null), node("b", true, 700, null), warnings);
        assertEquals(OffsetEstimate.NTP_BOUND, n.estimate().method());
        assertEquals(1_000_000, n.estimate().uncertaintyNs());
        assertEquals(List.of(), warnings);
        RunMerge.Node u = placeB(node("a", true, 300, null), node("b", false, 16_000_000, null), warnings);
        assertEquals(-1, u.estimate().uncertaintyNs());
        assertTrue(warnings.getFirst().contains("no bound"), warnings.toString());
    }

    @Test
    void machinesAndFilesAreDistinctWhereHostsRepeat() {
        List<NodeCapture> caps = List.of(node("gpu-7", true, 1, null), node("gpu-7", true, 1, null), node("gpu/8", true, 1, null));
        assertEquals(List.of("gpu-7-1", "gpu-7-2", "gpu/8"), NodeNames.machines(caps));
        List<String> files = NodeNames.files(caps);
        assertEquals(3, files.stream().distinct().count(), files.toString());
        assertTrue(files.stream().allMatch(f -> f.matches("[A-Za-z0-9._-]+\\.pftrace")), files.toString());
    }

    /** Ends at irregular gaps (2 ms ± 1 ms, from a seed): two seeds are two unrelated sequences. */
    private static long[] irregular(int n, long start, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] t = new long[n];
        long now = start;
        for (int i = 0; i < n; i++) {
            now += 1_000_000 + rnd.nextLong(2_000_000);
            t[i] = now;
        }
        return t;
    }

    @Test
    void aFitAboveTheResidualBoundIsNotUsedAndTheNtpBoundIsGivenInstead() {
        List<String> warnings = new ArrayList<>();
        // the same host 90 s later, with collectives of its own: they fit each other only by chance
        long t0 = 1_000_000_000_000L;
        RunMerge.Node n = placeB(node("a", true, 300, irregular(2400, t0, 1)),
                node("b", true, 700, irregular(2400, t0 + 90_000_000_000L, 2)), warnings);
        assertEquals(OffsetEstimate.NTP_BOUND, n.estimate().method(), n.estimate().describe());
        assertEquals(0, n.estimate().offsetNs());
        assertEquals(1_000_000, n.estimate().uncertaintyNs(), "the NTP bound: 300 µs + 700 µs");
        String note = String.join(" ", n.estimate().notes());
        assertTrue(note.contains("collectives' best fit") && note.contains("above the 100.0 µs rms bound")
                && note.contains("not used"), note);
        assertTrue(n.estimate().describe().contains("NTP bound ±1.000 ms"), n.estimate().describe());
        // the same sequences, one moved by 2 ms: within the bound, so used
        long[] ref = irregular(2400, t0, 1), moved = ref.clone();
        for (int i = 0; i < moved.length; i++) {
            moved[i] += 2_000_000 + (i % 3) * 500; // a little noise
        }
        RunMerge.Node m = placeB(node("a", true, 300, ref), node("b", true, 700, moved), warnings);
        assertEquals(OffsetEstimate.COLLECTIVES, m.estimate().method(), m.estimate().describe());
        assertTrue(m.estimate().withinResidualBound());
        assertTrue(Math.abs(m.estimate().offsetNs() - 2_000_500) <= 500, m.estimate().describe());
    }

    @Test
    void theNoteNamesEveryNodeEvenWithoutNodeEvidence() {
        List<String> warnings = new ArrayList<>();
        // two traces without node evidence: no hostname, no adjtimex
        NodeCapture a = new NodeCapture(Path.of("/data/rank0.pt.trace.json"), "", Map.of(), Map.of(), List.of(), List.of(),
                Map.of(), 1, 2);
        NodeCapture b = new NodeCapture(Path.of("/data/rank1.pt.trace.json"), "", Map.of(), Map.of(), List.of(), List.of(),
                Map.of(), 1, 2);
        RunMerge.Node n = RunMerge.place(a, b, 1, "x", "x.pftrace", warnings);
        String note = n.estimate().notes().getFirst();
        assertFalse(note.contains("; :") || note.contains(", :") || note.startsWith(":"), note);
        assertTrue(note.contains("rank0.pt.trace.json: time sync unknown")
                && note.contains("rank1.pt.trace.json: time sync unknown"), note);
        assertEquals(List.of("rank0.pt.trace.json", "rank1.pt.trace.json"), NodeNames.machines(List.of(a, b)));
    }

    private static NodeCapture withProcesses(String host, String file, Integer... ranks) {
        List<ProcessInfo> procs = new ArrayList<>();
        int pid = 100;
        for (Integer r : ranks) {
            procs.add(new ProcessInfo(pid++, 1, "python3", 130000, 1, 1 << 20, 0, r, r, 8));
        }
        return new NodeCapture(Path.of(file), host, Map.of(), Map.of(), procs, List.of(), Map.of(), -1, -1);
    }

    @Test
    void fileNamesSayTheNodeAndTheRanksEachHolds() {
        List<NodeCapture> caps = List.of(withProcesses("gpu-7", "a.vprof", 0, 1), withProcesses("gpu-8", "b.vprof", 3),
                withProcesses("gpu-9", "c.vprof", 4, 5, 6, 7, 9), withProcesses("", "node3.vprof", (Integer) null),
                withProcesses("gpu-10", "e.vprof", null, null), withProcesses("gpu-11", "f.vprof"));
        assertEquals(List.of("gpu-7_ranks0-1.pftrace", "gpu-8_rank3.pftrace", "gpu-9_ranks4-7_9.pftrace",
                "node3_pid100.pftrace", "gpu-10_pids100_101.pftrace", "gpu-11_empty.pftrace"), NodeNames.files(caps));
        // a node's vLLM data parallel rank, where its front end's environment names one
        NodeCapture dp = new NodeCapture(Path.of("d.vprof"), "gpu-12", Map.of(NodeEvidence.RANK_ENV + "VLLM_DP_RANK", "2"),
                Map.of(), withProcesses("gpu-12", "d.vprof", 0, 1).processes(), List.of(), Map.of(), -1, -1);
        assertEquals(List.of("gpu-12_dp2_ranks0-1.pftrace"), NodeNames.files(List.of(dp)));
    }
}
