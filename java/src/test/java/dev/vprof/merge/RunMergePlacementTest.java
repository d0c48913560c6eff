package dev.vprof.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a node is placed against the reference, on node evidence built here (adjtimex's word and collective ends). */
class RunMergePlacementTest {
    private static NodeCapture node(String host, boolean synced, long maxErrorUs, long[] ends) {
        Map<String, String> ev = Map.of(NodeEvidence.HOSTNAME, host, NodeEvidence.SYNC, Boolean.toString(synced),
                NodeEvidence.SYNC_STATE, synced ? "0" : "5", NodeEvidence.MAX_ERROR, Long.toString(maxErrorUs));
        return new NodeCapture(Path.of(host + ".vprof"), host, ev, Map.of(), List.of(), List.of(),
                ends == null ? Map.of() : Map.of(100, ends));
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
        RunMerge.Node n = RunMerge.place(node("a", true, 100, ends(100, 0)), node("b", true, 100, ends(100, 2_000_000)),
                1, "b", "b.pftrace", warnings);
        assertEquals(2_000_000, n.estimate().offsetNs());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.getFirst().startsWith("CLOCKS DISAGREE") && warnings.getFirst().contains("±200.0 µs"),
                warnings.getFirst());
    }

    @Test
    void anOffsetWithinTheBoundsIsQuiet() {
        List<String> warnings = new ArrayList<>();
        RunMerge.Node n = RunMerge.place(node("a", true, 100, ends(100, 0)), node("b", true, 100, ends(100, 150_000)),
                1, "b", "b.pftrace", warnings);
        assertEquals(150_000, n.estimate().offsetNs());
        assertEquals(List.of(), warnings);
    }

    @Test
    void withoutCollectivesTheNtpBoundIsTheUncertainty() {
        List<String> warnings = new ArrayList<>();
        RunMerge.Node n = RunMerge.place(node("a", true, 300, null), node("b", true, 700, null), 1, "b", "b.pftrace",
                warnings);
        assertEquals(OffsetEstimate.NTP_BOUND, n.estimate().method());
        assertEquals(1_000_000, n.estimate().uncertaintyNs());
        assertEquals(List.of(), warnings);
        RunMerge.Node u = RunMerge.place(node("a", true, 300, null), node("b", false, 16_000_000, null), 1, "b",
                "b.pftrace", warnings);
        assertEquals(-1, u.estimate().uncertaintyNs());
        assertTrue(warnings.getFirst().contains("no bound"), warnings.toString());
    }

    @Test
    void machinesAndFilesAreDistinctWhereHostsRepeat() {
        List<NodeCapture> caps = List.of(node("gpu-7", true, 1, null), node("gpu-7", true, 1, null), node("gpu/8", true, 1, null));
        assertEquals(List.of("gpu-7-1", "gpu-7-2", "gpu/8"), RunMerge.machineNames(caps));
        List<String> files = RunMerge.fileNames(caps);
        assertEquals(3, files.stream().distinct().count(), files.toString());
        assertTrue(files.stream().allMatch(f -> f.matches("[A-Za-z0-9._-]+\\.pftrace")), files.toString());
    }
}
