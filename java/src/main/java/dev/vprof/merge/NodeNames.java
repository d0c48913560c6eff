package dev.vprof.merge;

import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.ProcessInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * What a merge calls each node: its machine in the manifest and its file in the archive. Neither
 * is ever empty: a capture that names no host is known by its file name.
 */
final class NodeNames {
    private NodeNames() {}

    /** The node labels (hostnames, else file names), made distinct where captures share one ({@code host-2}). */
    static List<String> machines(List<NodeCapture> caps) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (NodeCapture c : caps) {
            seen.merge(c.label(), 1, Integer::sum);
        }
        List<String> out = new ArrayList<>();
        Map<String, Integer> used = new LinkedHashMap<>();
        for (NodeCapture c : caps) {
            String h = c.label();
            if (seen.get(h) > 1) {
                h = h + "-" + used.merge(h, 1, Integer::sum);
            }
            out.add(h);
        }
        return out;
    }

    /**
     * Per-node file names that say the node and what it holds:
     * {@code <node>[_dp<d>]_ranks<a>-<b>.pftrace}, with the RANKs of its processes
     * ({@link #holds}); the node is the hostname, else the capture's file name without
     * {@code .vprof}; {@code _<i>} is added where two names coincide.
     */
    static List<String> files(List<NodeCapture> caps) {
        List<String> out = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (int i = 0; i < caps.size(); i++) {
            NodeCapture c = caps.get(i);
            String node = c.host().isBlank() ? fileName(c).replaceFirst("\\.vprof$", "") : c.host();
            StringBuilder sb = new StringBuilder(safe(node.length() > 48 ? node.substring(0, 48) : node));
            String dp = c.node().get(NodeEvidence.RANK_ENV + "VLLM_DP_RANK");
            if (dp != null && dp.matches("\\d{1,6}")) {
                sb.append("_dp").append(dp);
            }
            sb.append('_').append(holds(c));
            String stem = sb.length() > 90 ? sb.substring(0, 90) : sb.toString();
            String name = stem + ".pftrace";
            if (!used.add(name)) {
                name = stem + "_" + i + ".pftrace";
                used.add(name);
            }
            out.add(name);
        }
        return out;
    }

    /**
     * What a node's file holds: its ranks as runs ({@code rank3}, {@code ranks0-3},
     * {@code ranks0-1_4}); without ranks its pids ({@code pid12}, {@code pids12_40}, and beyond four
     * {@code 6procs}); {@code empty} for a capture without processes.
     */
    static String holds(NodeCapture c) {
        SortedSet<Integer> ranks = c.ranks();
        if (!ranks.isEmpty()) {
            List<String> runs = new ArrayList<>();
            int lo = ranks.first(), prev = lo;
            for (int r : ranks.tailSet(lo + 1)) {
                if (r != prev + 1) {
                    runs.add(lo == prev ? Integer.toString(lo) : lo + "-" + prev);
                    lo = r;
                }
                prev = r;
            }
            runs.add(lo == prev ? Integer.toString(lo) : lo + "-" + prev);
            List<String> shown = runs.size() > 8 ? runs.subList(0, 8) : runs;
            return (ranks.size() == 1 ? "rank" : "ranks") + String.join("_", shown);
        }
        List<Integer> pids = c.processes().stream().map(ProcessInfo::pid).sorted().toList();
        if (pids.isEmpty()) {
            return "empty";
        }
        if (pids.size() > 4) {
            return pids.size() + "procs";
        }
        return (pids.size() == 1 ? "pid" : "pids") + String.join("_", pids.stream().map(String::valueOf).toList());
    }

    static String fileName(NodeCapture c) {
        Path f = c.path().getFileName();
        return f != null ? f.toString() : c.path().toString();
    }

    static String safe(String s) {
        String t = s.replaceAll("[^A-Za-z0-9._-]", "_");
        return t.isEmpty() || t.startsWith(".") ? "node" + t : t;
    }
}
