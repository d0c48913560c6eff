package dev.vprof.diff;

import dev.vprof.capture.ProcessInfo;
import dev.vprof.diff.DiffResult.Mismatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The comparability gate: what must match for a change between two sides to mean anything. A
 * different GPU model, GPU count or world size blocks the comparison alone, as does a base whose
 * GPU time lies mostly (more than half) in kernels the new side lacks even by base name. Softer
 * differences (driver, CUDA or CUPTI version, record kinds, CUDA graphs on or off, the workload's
 * token rate and request mix) are named; {@value #SOFT_LIMIT} or more of them together block too.
 * {@code --force} compares anyway and keeps every mismatch in the result.
 */
final class Gate {
    static final int SOFT_LIMIT = 3;
    /** Token rates or mean prompt lengths further apart than this ratio are a different workload. */
    static final double WORKLOAD_RATIO = 1.5;
    static final double COMMON_SHARE = 0.5;

    private Gate() {}

    static DiffResult.Comparability check(DiffOptions o, CaptureDiff.Input bi, SideAcc b, CaptureDiff.Input ni,
                                          SideAcc n, List<DiffResult.LevelMatch> matching, List<DiffResult.Row> kernels,
                                          DiffResult.Requests requests, List<DiffResult.MetricChange> metrics) {
        List<Mismatch> out = new ArrayList<>();
        FirstPassFacts bf = bi.facts, nf = ni.facts;
        if (bf != nf) {
            Map<String, Integer> bg = models(bf), ng = models(nf);
            if (!bg.isEmpty() && !ng.isEmpty() && !bg.keySet().equals(ng.keySet())) {
                out.add(new Mismatch("gpu", String.join(", ", bg.keySet()), String.join(", ", ng.keySet()), true));
            }
            if (!bf.devices.isEmpty() && !nf.devices.isEmpty() && bf.devices.size() != nf.devices.size()) {
                out.add(new Mismatch("gpu_count", Integer.toString(bf.devices.size()),
                        Integer.toString(nf.devices.size()), true));
            }
            if (bf.worldSize != null && nf.worldSize != null && !bf.worldSize.equals(nf.worldSize)) {
                out.add(new Mismatch("world_size", bf.worldSize.toString(), nf.worldSize.toString(), true));
            }
            soft(out, "driver", fact(bi, "cudaDriverVersion"), fact(ni, "cudaDriverVersion"));
            soft(out, "cuda", fact(bi, "cudaRuntimeVersion"), fact(ni, "cudaRuntimeVersion"));
            soft(out, "cupti", bf.cuptiVersions.isEmpty() ? null : bf.cuptiVersions.toString(),
                    nf.cuptiVersions.isEmpty() ? null : nf.cuptiVersions.toString());
            soft(out, "record_kinds", String.join(",", bf.kinds()), String.join(",", nf.kinds()));
            soft(out, "cuda_graphs", bf.graphKernels > 0 ? "on" : "off", nf.graphKernels > 0 ? "on" : "off");
        }
        for (DiffResult.MetricChange m : metrics) {
            if (m.name().equals("generation_tokens_per_s") && m.base() != null && m.next() != null
                    && apart(m.base(), m.next())) {
                out.add(new Mismatch("workload", String.format(Locale.ROOT, "%.0f tokens/s", m.base()),
                        String.format(Locale.ROOT, "%.0f tokens/s", m.next()), false));
            }
        }
        if (requests != null) {
            double bp = RequestCompare.meanPromptTokens(bi, b), np = RequestCompare.meanPromptTokens(ni, n);
            if (Double.isFinite(bp) && Double.isFinite(np) && apart(bp, np)) {
                out.add(new Mismatch("workload", String.format(Locale.ROOT, "mean prompt %.0f tokens", bp),
                        String.format(Locale.ROOT, "mean prompt %.0f tokens", np), false));
            }
        }
        // The share of the base's GPU time in kernels whose base name the new side also has.
        double common = 0, all = 0;
        for (DiffResult.Row r : kernels) {
            all += r.base().totalNs();
            if (r.status().equals("matched") || "base".equals(r.matchedAt())) {
                common += r.base().totalNs();
            }
        }
        if (all > 0 && common / all < COMMON_SHARE) {
            out.add(new Mismatch("common_kernels",
                    String.format(Locale.ROOT, "%.0f %% of the base's GPU time in kernels both sides run", 100 * common / all),
                    "at least " + Math.round(100 * COMMON_SHARE) + " % needed", true));
        }
        out.sort((x, y) -> Boolean.compare(y.blocking(), x.blocking()));
        long soft = out.stream().filter(m -> !m.blocking()).count();
        boolean blocked = out.stream().anyMatch(Mismatch::blocking) || soft >= SOFT_LIMIT;
        return new DiffResult.Comparability(!blocked || o.force(), out);
    }

    /** Whether the gate alone (before --force) would block. */
    static boolean blocks(DiffResult.Comparability c) {
        long soft = c.mismatches().stream().filter(m -> !m.blocking()).count();
        return c.mismatches().stream().anyMatch(Mismatch::blocking) || soft >= SOFT_LIMIT;
    }

    private static boolean apart(double a, double b) {
        if (a <= 0 || b <= 0) {
            return a != b;
        }
        return Math.max(a, b) / Math.min(a, b) > WORKLOAD_RATIO;
    }

    private static Map<String, Integer> models(FirstPassFacts f) {
        Map<String, Integer> m = new TreeMap<>();
        for (String name : f.devices.values()) {
            m.merge(name, 1, Integer::sum);
        }
        return m;
    }

    /** What the processes' source says (a trace's CUDA runtime and driver versions), all values seen; null if none. */
    private static String fact(CaptureDiff.Input in, String key) {
        TreeSet<String> v = new TreeSet<>();
        for (ProcessInfo p : in.reader.processes()) {
            if (p.facts() != null && p.facts().get(key) != null) {
                v.add(p.facts().get(key));
            }
        }
        return v.isEmpty() ? null : String.join(",", v);
    }

    private static void soft(List<Mismatch> out, String what, String b, String n) {
        if (b != null && n != null && !Objects.equals(b, n)) {
            out.add(new Mismatch(what, b, n, false));
        }
    }
}
