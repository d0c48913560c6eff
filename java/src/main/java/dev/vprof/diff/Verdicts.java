package dev.vprof.diff;

import dev.vprof.diff.DiffResult.Change;
import dev.vprof.diff.DiffResult.LatencyChange;
import dev.vprof.diff.DiffResult.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The verdict and the sentences that explain it. Three things can decide: the GPU time per unit
 * (all kernels), a row (a kernel, base name or category) whose own change is larger than the
 * threshold of the base's GPU time, and, where both sides hold requests, their latency (TTFT and
 * end to end). The total has regressed when its change is at least the regression threshold and
 * its interval excludes 0; a row when its change is, with the rows tested together held to a
 * false-discovery rate of {@value #FDR} (Benjamini-Hochberg over every row with an interval) and
 * its relative change past the noise floor; a latency when p50 and p99 both rose past the
 * threshold (exact from the spans). Any regressing makes {@code REGRESSED} and the first line names
 * what did; otherwise any improving makes {@code IMPROVED}; else {@code NO CHANGE}. A blocking
 * comparability gate makes {@code NOT COMPARABLE} unless forced.
 */
final class Verdicts {
    /** The false-discovery rate the row tests are held to. */
    static final double FDR = 0.05;

    private Verdicts() {}

    /** The rows with their q-values, and the row that decides (null: none material and certain). */
    record RowTest(List<Row> kernels, List<Row> bases, List<Row> cats, Row regressed, Row improved) {}

    /**
     * Tests every kernel, base-name and category row that could move by more than {@code material}
     * (the threshold of the base's GPU time per unit: a row holding less than that on both sides
     * cannot, so it is not a test) and has an interval, adjusts the p-values together
     * (Benjamini-Hochberg) and picks the decisive rows: the largest regression among the exact
     * names first, then base names, then categories (the most specific row that is certain).
     */
    static RowTest testRows(List<Row> kernels, List<Row> bases, List<Row> cats, double material, double noiseFloor) {
        List<List<Row>> levels = List.of(kernels, bases, cats);
        List<Double> ps = new ArrayList<>();
        for (List<Row> level : levels) {
            for (Row r : level) {
                Double p = testable(r, material) ? Bootstrap.pBeyond(r.time(), material) : null;
                if (p != null) {
                    ps.add(p);
                }
            }
        }
        double[] p = new double[ps.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = ps.get(i);
        }
        double[] q = Bootstrap.adjust(p);
        List<List<Row>> out = new ArrayList<>();
        Row regressed = null, improved = null;
        int i = 0;
        for (List<Row> level : levels) {
            List<Row> rows = new ArrayList<>(level.size());
            for (Row r : level) {
                Double qv = null;
                if (testable(r, material) && Bootstrap.pBeyond(r.time(), material) != null) {
                    qv = q[i++];
                }
                Row t = r.withQValue(qv);
                rows.add(t);
                boolean decisive = qv != null && qv <= FDR && Math.abs(r.time().delta()) > material
                        && (r.time().relative() == null || Math.abs(r.time().relative()) >= noiseFloor);
                if (decisive && r.time().delta() > 0 && (regressed == null
                        || (regressed.level().equals(r.level()) && r.time().delta() > regressed.time().delta()))) {
                    regressed = t;
                }
                if (decisive && r.time().delta() < 0 && (improved == null
                        || (improved.level().equals(r.level()) && r.time().delta() < improved.time().delta()))) {
                    improved = t;
                }
            }
            out.add(rows);
        }
        return new RowTest(out.get(0), out.get(1), out.get(2), regressed, improved);
    }

    static DiffResult decide(DiffOptions o, DiffResult.Side base, DiffResult.Side next, DiffResult.Basis basis,
                             DiffResult.Settings settings, Change gpu, Change stepTime, List<Row> kernels,
                             List<Row> bases, List<Row> cats, List<Row> shapes, List<Row> cpuOps,
                             List<DiffResult.LevelMatch> matching,
                             Double explained, DiffResult.Comparability gate, DiffResult.Requests requests,
                             List<DiffResult.MetricChange> metrics, List<String> warnings) {
        double t = o.regressionThreshold();
        int kernelDir = direction(gpu, t);
        RowTest tested = testRows(kernels, bases, cats, t * Math.abs(gpu.base()), o.noiseFloor());
        kernels = tested.kernels();
        bases = tested.bases();
        cats = tested.cats();
        Row decidedBy = null;
        LatencyChange latency = null;
        int latencyDir = 0;
        if (requests != null) {
            for (LatencyChange l : requests.latencies()) {
                if (!l.name().equals("ttft") && !l.name().equals("e2e")) continue;
                int d = latencyDirection(l, t);
                if ((d > 0 && latencyDir <= 0) || (d < 0 && latencyDir == 0)) {
                    latencyDir = d;
                    latency = l;
                }
            }
        }
        String unit = basis.unit();
        List<String> story = new ArrayList<>();
        String verdict;
        String headline;
        if (!gate.comparable()) {
            verdict = DiffResult.NOT_COMPARABLE;
            List<String> what = new ArrayList<>();
            for (DiffResult.Mismatch m : gate.mismatches()) {
                what.add(m.what().equals("common_kernels") ? "common kernels: " + m.base() + " (" + m.next() + ")"
                        : m.what().replace('_', ' ') + " " + m.base() + " vs " + m.next());
            }
            headline = "the sides differ: " + String.join("; ", what) + " (--force compares them anyway)";
        } else {
            int rowDir = tested.regressed() != null ? 1 : tested.improved() != null ? -1 : 0;
            if (kernelDir > 0 || latencyDir > 0 || rowDir > 0) {
                verdict = DiffResult.REGRESSED;
            } else if (kernelDir < 0 || latencyDir < 0 || rowDir < 0) {
                verdict = DiffResult.IMPROVED;
            } else {
                verdict = DiffResult.NO_CHANGE;
            }
            int sign = verdict.equals(DiffResult.REGRESSED) ? 1 : verdict.equals(DiffResult.IMPROVED) ? -1 : 0;
            String gpuText = "GPU time per " + unit + " " + pct(gpu.relative()) + ci(gpu);
            if (latencyDir != 0 && latencyDir == sign && latency != null) {
                headline = latencyText(latency) + "; " + gpuText;
            } else if (sign != 0 && rowDir == sign) {
                // The row named first: the most specific row that moved beyond the threshold for certain.
                decidedBy = sign > 0 ? tested.regressed() : tested.improved();
                headline = rowText(decidedBy, gpu.base(), unit) + "; " + gpuText;
            } else if (sign != 0 && !kernels.isEmpty()) {
                // The total decided: the row that moved most in its direction is named first.
                Row top = largest(kernels, sign);
                headline = (top == null ? "" : rowText(top, gpu.base(), unit) + "; ") + gpuText;
            } else {
                headline = gpuText + (kernelDir == 0 ? ", within the " + pct0(t) + " threshold" : "");
            }
        }
        // Where the kernel time went.
        if (gpu.significant() && !kernels.isEmpty()) {
            Row top = kernels.getFirst();
            Row cat = cats.isEmpty() ? null : cats.getFirst();
            StringBuilder s = new StringBuilder();
            s.append(String.format(Locale.ROOT, "largest change: %s %s per %s (%s of the GPU-time change)",
                    DiffText.escape(DiffText.shorten(top.name(), 80)), DiffText.signedDuration(top.time().delta()),
                    unit, top.shareOfChange() == null ? "n/a" : pct0(top.shareOfChange())));
            if (cat != null) {
                s.append(String.format(Locale.ROOT, "; by category %s %s (%s)", DiffText.escape(cat.name()),
                        DiffText.signedDuration(cat.time().delta()),
                        cat.shareOfChange() == null ? "n/a" : pct0(cat.shareOfChange())));
            }
            if (explained != null) {
                s.append(String.format(Locale.ROOT, "; the top %d rows explain %s of the change",
                        Math.min(o.top(), kernels.size()), pct0(explained)));
            }
            story.add(s.toString());
        }
        if (requests != null) {
            story.addAll(requestStory(requests, t));
        }
        if (stepTime != null) {
            story.add("step time " + pct(stepTime.relative()) + ci(stepTime) + String.format(Locale.ROOT,
                    " (%s and %s per step)", DiffText.duration(stepTime.base()), DiffText.duration(stepTime.next())));
        }
        return new DiffResult(verdict, headline, decidedBy, story, base, next, basis, settings, gpu, stepTime, kernels, bases,
                cats, shapes, cpuOps, matching, explained, gate, requests, metrics, warnings);
    }

    /** The kernel row whose change is largest in direction {@code sign}; null when none moved so. */
    private static Row largest(List<Row> rows, int sign) {
        Row best = null;
        for (Row r : rows) {
            if (r.time().delta() * sign > 0 && (best == null || r.time().delta() * sign > best.time().delta() * sign)) {
                best = r;
            }
        }
        return best;
    }

    private static boolean testable(Row r, double material) {
        return Math.max(r.time().base(), r.time().next()) > material;
    }

    /** "GEMM sm80_xmma_gemm_... +30.0 % (95 % CI ..), +8.8 % of GPU time per step". */
    private static String rowText(Row r, double gpuBase, String unit) {
        String what = switch (r.level()) {
            case "category" -> "category " + r.name();
            case "base" -> r.category() + " " + DiffText.shorten(r.name(), 80) + " (by base name)";
            default -> r.category() + " " + DiffText.shorten(r.name(), 80);
        };
        String change = r.status().equals("new") ? "new, " + DiffText.duration(r.time().delta())
                : r.status().equals("gone") ? "gone, " + DiffText.signedDuration(r.time().delta())
                : pct(r.time().relative()) + ci(r.time());
        return String.format(Locale.ROOT, "%s %s, %s of GPU time per %s", what, change,
                gpuBase == 0 ? "n/a" : pct(r.time().delta() / gpuBase), unit);
    }

    private static List<String> requestStory(DiffResult.Requests r, double t) {
        List<String> out = new ArrayList<>();
        LatencyChange ttft = r.latencies().getFirst();
        Change g = r.gpuCost();
        StringBuilder s = new StringBuilder(latencyText(ttft));
        if (r.where() != null) {
            LatencyChange q = r.latencies().get(1), p = r.latencies().get(2);
            s.append(String.format(Locale.ROOT, ", of which queue p50 %s -> %s and prefill p50 %s -> %s",
                    DiffText.seconds(q.baseP50()), DiffText.seconds(q.newP50()), DiffText.seconds(p.baseP50()),
                    DiffText.seconds(p.newP50())));
            s.append(r.where().equals("queue") ? ": the time went to the queue" : ": the time went to prefill");
        }
        s.append("; GPU time per request ").append(pct(g.relative())).append(ci(g));
        DiffResult.PhaseChange queue = r.gpuPerRequest().getFirst();
        if (queue.change().delta() > 0 && r.where() != null && r.where().equals("queue")) {
            s.append(String.format(Locale.ROOT, "; the GPU was busy %s per request while requests queued (%s before)",
                    DiffText.duration(queue.change().next()), DiffText.duration(queue.change().base())));
        }
        boolean ttftUp = ttft.p99Change() != null && ttft.p99Change() >= t;
        if (ttftUp && !r.kernelRegression()) {
            s.append(g.relative() != null && Math.abs(g.relative()) < t ? " (unchanged)" : " (not up)");
            s.append(": not a kernel regression");
        } else if (r.kernelRegression()) {
            s.append(": the kernels take longer per request");
        }
        out.add(s.toString());
        return out;
    }

    private static String latencyText(LatencyChange l) {
        String name = l.name().equals("ttft") ? "TTFT" : l.name().equals("e2e") ? "end-to-end latency" : l.name();
        return String.format(Locale.ROOT, "p99 %s %s (%s -> %s), p50 %s", name, pct(l.p99Change()),
                DiffText.seconds(l.baseP99()), DiffText.seconds(l.newP99()), pct(l.p50Change()));
    }

    private static int direction(Change c, double threshold) {
        if (c.relative() == null || c.ciLow() == null) {
            return 0;
        }
        if (c.relative() >= threshold && c.ciLow() > 0) return 1;
        if (c.relative() <= -threshold && c.ciHigh() < 0) return -1;
        return 0;
    }

    private static int latencyDirection(LatencyChange l, double threshold) {
        if (l.p50Change() == null || l.p99Change() == null || l.baseCount() < 2 || l.newCount() < 2) {
            return 0;
        }
        if (l.p50Change() >= threshold && l.p99Change() >= threshold) return 1;
        if (l.p50Change() <= -threshold && l.p99Change() <= -threshold) return -1;
        return 0;
    }

    static String pct(Double f) {
        if (f == null) return "(base 0)";
        return String.format(Locale.ROOT, "%+.1f %%", 100 * f);
    }

    static String pct0(double f) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * f);
    }

    private static String ci(Change c) {
        if (c.ciLow() == null || c.base() == 0) return "";
        return String.format(Locale.ROOT, " (95 %% CI %+.1f .. %+.1f %%)", 100 * c.ciLow() / c.base(),
                100 * c.ciHigh() / c.base());
    }
}
