package dev.vprof.merge;

import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.TimeSync;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether the captures given to a merge belong to one run, and each reason they do not
 * (docs/multinode.md, "Is it one run?"):
 *
 * <ul>
 *   <li>no capture given twice (the same file, or a copy: one host and boot, one start instant,
 *       the same processes);
 *   <li>no node given twice: two captures of one boot that share a pid hold the same process;
 *   <li>no rank given twice: a RANK held by processes of two captures (within one vLLM data
 *       parallel rank, where the front end's environment names one);
 *   <li>one run identity: for each variable of {@link NodeEvidence#RUN_IDENTITY} both captures
 *       carry, the same value; and the same WORLD_SIZE where both captures' processes declare one;
 *   <li>they ran together: each capture's wall-clock window overlaps the reference's, each widened
 *       by its node's NTP maximum error ({@link #UNSYNCHRONISED_SLACK_NS} where the kernel does not
 *       call the clock synchronised). An offset measured on collectives does not stand in for this:
 *       nearly periodic collectives of two runs minutes apart fit each other well, so a fit only
 *       vouches for a capture that has no window at all.
 * </ul>
 */
final class OneRun {
    private OneRun() {}

    /** How far a wall clock no NTP disciplines is taken to be from the others, for the overlap. */
    static final long UNSYNCHRONISED_SLACK_NS = 1_000_000_000L;

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** The reasons {@code nodes} (the reference first) are not one run; empty when nothing says so. */
    static List<String> reasons(List<RunMerge.Node> nodes) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                twice(nodes.get(i).capture(), nodes.get(j).capture(), out);
                sameRun(nodes.get(i).capture(), nodes.get(j).capture(), out);
            }
        }
        NodeCapture ref = nodes.getFirst().capture();
        for (int i = 1; i < nodes.size(); i++) {
            together(ref, nodes.get(i), out);
        }
        return new ArrayList<>(out);
    }

    /** The same capture, node or rank given twice. */
    private static void twice(NodeCapture a, NodeCapture b, Set<String> out) {
        String pair = name(a) + " and " + name(b);
        if (sameFile(a, b)) {
            out.add(pair + " are the same file");
            return;
        }
        String startA = a.node().get(NodeEvidence.START_REALTIME), startB = b.node().get(NodeEvidence.START_REALTIME);
        if (startA != null && startA.equals(startB) && a.host().equals(b.host()) && pids(a).equals(pids(b))
                && Objects.equals(a.node().get(NodeEvidence.BOOT_ID), b.node().get(NodeEvidence.BOOT_ID))) {
            out.add(pair + " are copies of one capture (" + shown(a.label()) + ", started at the same instant)");
            return;
        }
        if (sameBoot(a, b)) {
            Set<Integer> pids = pids(a);
            for (ProcessInfo p : b.processes()) {
                if (pids.contains(p.pid())) {
                    out.add(pair + " both hold pid " + p.pid() + " of " + shown(a.label())
                            + ": the same node given twice");
                    return;
                }
            }
        }
        Map<String, Integer> ranksA = rankPids(a);
        for (Map.Entry<String, Integer> r : rankPids(b).entrySet()) {
            Integer pidA = ranksA.get(r.getKey());
            if (pidA != null) {
                out.add("rank " + r.getKey() + " is in both " + name(a) + " (pid " + pidA + ") and " + name(b)
                        + " (pid " + r.getValue() + "): one rank given twice");
                return;
            }
        }
    }

    /** The run identity and world size the two carry. */
    private static void sameRun(NodeCapture a, NodeCapture b, Set<String> out) {
        Map<String, String> idA = a.runIdentity(), idB = b.runIdentity();
        for (Map.Entry<String, String> e : idA.entrySet()) {
            String other = idB.get(e.getKey());
            if (other != null && !other.equals(e.getValue())) {
                out.add(name(a) + " and " + name(b) + " come from different runs (" + e.getKey() + " is "
                        + shown(e.getValue()) + " in one and " + shown(other) + " in the other)");
                return;
            }
        }
        Set<Integer> wa = worldSizes(a), wb = worldSizes(b);
        if (wa.size() == 1 && wb.size() == 1 && !wa.equals(wb)) {
            out.add(name(a) + " and " + name(b) + " come from different runs (their processes' WORLD_SIZE is "
                    + wa.iterator().next() + " in one and " + wb.iterator().next() + " in the other)");
        }
    }

    /** Whether {@code node} ran while the reference did, on their wall clocks. */
    private static void together(NodeCapture ref, RunMerge.Node node, Set<String> out) {
        NodeCapture c = node.capture();
        if (!ref.hasWindow() || !c.hasWindow()) {
            if (!node.estimate().withinResidualBound()) {
                NodeCapture without = ref.hasWindow() ? c : ref;
                out.add("nothing shows " + name(ref) + " and " + name(c) + " ran together: " + name(without)
                        + " says nothing of when it ran and no collectives match within "
                        + TimeSync.Units.ns(OffsetEstimate.RESIDUAL_BOUND_NS));
            }
            return;
        }
        long gap = Math.max(ref.windowStartNs(), c.windowStartNs()) - Math.min(ref.windowEndNs(), c.windowEndNs());
        long slack = slackNs(ref) + slackNs(c);
        if (gap > slack) {
            boolean later = c.windowStartNs() >= ref.windowEndNs();
            out.add(name(ref) + " (" + window(ref) + " UTC) and " + name(c) + " (" + window(c) + ") do not overlap: "
                    + name(later ? c : ref) + " began " + TimeSync.Units.ns(gap) + " after " + name(later ? ref : c)
                    + " ended, more than their clocks can be apart (" + TimeSync.Units.ns(slack) + ")");
        }
    }

    /** How far this node's wall clock may be off: its NTP maximum error, or 1 s without NTP. */
    static long slackNs(NodeCapture c) {
        long us = c.maxErrorUs();
        return us < 0 ? UNSYNCHRONISED_SLACK_NS : us * 1000;
    }

    private static boolean sameFile(NodeCapture a, NodeCapture b) {
        try {
            return Files.isSameFile(a.path(), b.path());
        } catch (IOException | SecurityException e) {
            return a.path().toAbsolutePath().normalize().equals(b.path().toAbsolutePath().normalize());
        }
    }

    /** One boot of one host: the same boot id, or where neither says, the same hostname. */
    private static boolean sameBoot(NodeCapture a, NodeCapture b) {
        String ba = a.node().get(NodeEvidence.BOOT_ID), bb = b.node().get(NodeEvidence.BOOT_ID);
        if (ba != null || bb != null) {
            return Objects.equals(ba, bb);
        }
        return !a.host().isBlank() && a.host().equals(b.host());
    }

    /** Each global rank (prefixed by the node's vLLM data parallel rank, where known) with its pid. */
    private static Map<String, Integer> rankPids(NodeCapture c) {
        String dp = c.node().get(NodeEvidence.RANK_ENV + "VLLM_DP_RANK");
        Map<String, Integer> out = new HashMap<>();
        for (ProcessInfo p : c.processes()) {
            if (p.rank() != null) {
                String rank = dp == null ? Integer.toString(p.rank())
                        : p.rank() + " of data parallel rank " + shown(dp);
                out.putIfAbsent(rank, p.pid());
            }
        }
        return out;
    }

    private static Set<Integer> pids(NodeCapture c) {
        Set<Integer> out = new TreeSet<>();
        c.processes().forEach(p -> out.add(p.pid()));
        return out;
    }

    private static Set<Integer> worldSizes(NodeCapture c) {
        Set<Integer> out = new TreeSet<>();
        c.processes().forEach(p -> {
            if (p.worldSize() != null) {
                out.add(p.worldSize());
            }
        });
        return out;
    }

    private static String window(NodeCapture c) {
        return TIME.format(instant(c.windowStartNs())) + " to " + TIME.format(instant(c.windowEndNs())).substring(11);
    }

    private static Instant instant(long epochNs) {
        return Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L));
    }

    private static String name(NodeCapture c) {
        return shown(NodeNames.fileName(c));
    }

    private static String shown(String s) {
        return RunMerge.shown(s);
    }
}
