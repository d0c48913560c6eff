package dev.vprof.diff;

import dev.vprof.time.Selection;
import dev.vprof.diff.DiffResult.Change;
import dev.vprof.diff.DiffResult.Figures;
import dev.vprof.diff.DiffResult.LevelMatch;
import dev.vprof.diff.DiffResult.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The comparison of two counted sides: every key of both at each level (an outer join), the
 * change per unit with its confidence interval, the ranking, the comparability gate, requests and
 * metrics, and the verdict.
 *
 * <p>Intervals are percentile bootstrap intervals ({@value #DRAWS} resamples, fixed seeds, so a
 * run repeats): over steps when the sides have steps (steps drawn with replacement; every key of a
 * side is read from the same draws, so keys that move together in a step stay together), else
 * over each key's kernel instances (its count held, its durations drawn from a uniform sample).
 */
final class Comparison {
    static final int DRAWS = Bootstrap.DRAWS;
    static final double CI = Bootstrap.CI;

    private Comparison() {}

    static DiffResult compare(DiffOptions o, CaptureDiff.Input bi, SideAcc b, CaptureDiff.Input ni, SideAcc n) {
        // Steps drawn with replacement where each step holds its own kernels and each side has two or
        // more (the spread between steps is the noise a verdict must see past); else each name's
        // instances (stratified by name). Fewer than ten steps is a small sample, widened and said so.
        boolean stepsBoth = b.stepsMode && n.stepsMode;
        int fewer = stepsBoth ? Math.min(b.bucketCount, n.bucketCount) : 0;
        boolean fewSteps = stepsBoth && fewer < Bootstrap.SMALL_STEPS;
        boolean bySteps = stepsBoth && fewer >= 2 && aligned(b) && aligned(n);
        draws(b, bySteps);
        draws(n, bySteps);
        // With steps resampled, the interval is widened for the number of steps (a t quantile).
        long stepSample = stepsBoth ? Math.min(b.bucketCount, n.bucketCount) : Long.MAX_VALUE;
        double widen = bySteps ? Bootstrap.widening(stepSample) : 1;
        double bTotal = perUnit(b.total, b);
        double nTotal = perUnit(n.total, n);
        Change gpu = Bootstrap.change(bTotal, nTotal, b.total.draws, n.total.draws, o.noiseFloor(),
                bySteps ? stepSample : Math.min(b.total.count, n.total.count), widen);
        double totalDelta = nTotal - bTotal;
        Sample sample = new Sample(bySteps, bySteps ? stepSample : Long.MAX_VALUE, widen);

        List<Row> kernels = rows(o, "exact", b.exact, n.exact, b, n, totalDelta, sample);
        List<Row> bases = rows(o, "base", b.base, n.base, b, n, totalDelta, sample);
        List<Row> cats = rows(o, "category", b.category, n.category, b, n, totalDelta, sample);
        List<Row> shapes = o.byShape() ? rows(o, "shape", b.shape, n.shape, b, n, totalDelta, sample) : List.of();
        kernels = withMatchedAt(kernels, b, n);
        List<Row> cpuOps = cpuRows(b, n);

        List<LevelMatch> matching = new ArrayList<>();
        matching.add(match("exact", b.exact, n.exact));
        matching.add(match("base", b.base, n.base));
        matching.add(match("category", b.category, n.category));
        if (o.byShape()) {
            matching.add(match("shape", b.shape, n.shape));
        }

        Double explained = null;
        if (totalDelta != 0) {
            double sum = 0;
            for (int i = 0; i < Math.min(o.top(), kernels.size()); i++) {
                sum += kernels.get(i).time().delta();
            }
            explained = sum / totalDelta;
        }

        Change stepTime = null;
        if (stepsBoth) {
            stepTime = Bootstrap.change(b.stepWallNs / (double) Math.max(1, b.steps),
                    n.stepWallNs / (double) Math.max(1, n.steps), stepDraws(b), stepDraws(n), o.noiseFloor(),
                    stepSample, Bootstrap.widening(stepSample));
        }

        DiffResult.Requests requests = RequestCompare.compare(o, bi, b, ni, n, gpu);
        List<DiffResult.MetricChange> metrics = RequestCompare.metrics(bi, b, ni, n);
        DiffResult.Comparability gate = Gate.check(o, bi, b, ni, n, matching, kernels, requests, metrics);

        String ciMethod = bySteps ? "bootstrap over steps" : "bootstrap over kernel instances";
        List<String> notes = new ArrayList<>();
        boolean small = fewSteps || Math.min(b.total.count, n.total.count) < Bootstrap.SMALL_INSTANCES;
        if (fewSteps) {
            notes.add(String.format(Locale.ROOT, "small sample: %d and %d steps (fewer than %d a side): intervals are"
                    + " %s; record more steps for a verdict to gate on", b.steps, n.steps, Bootstrap.SMALL_STEPS,
                    bySteps ? "widened for the few steps" : "from kernel instances, stratified by name"));
        } else if (small) {
            notes.add(String.format(Locale.ROOT, "small sample: %d and %d kernels (fewer than %d a side): intervals"
                    + " are widened for small counts", b.total.count, n.total.count, Bootstrap.SMALL_INSTANCES));
        }
        if (b.stepsMode && !bySteps && fewer >= 2) {
            notes.add("the steps' kernels could not be told apart (no launch records, and the GPU ran behind the steps:"
                    + " record with --kinds ...,runtime); intervals are from kernel instances");
        }
        DiffResult.Settings settings = new DiffResult.Settings(o.noiseFloor(), o.regressionThreshold(), CI, ciMethod,
                o.byShape(), o.force(), o.top(), small, Verdicts.FDR);
        DiffResult.Basis basis = new DiffResult.Basis(b.unit, b.units, n.units, basisNote(b, n));
        List<String> warnings = new ArrayList<>(notes);
        warnings.addAll(bi.reader.warnings());
        warnings.addAll(bi.notes);
        if (ni != bi) {
            warnings.addAll(ni.reader.warnings());
            warnings.addAll(ni.notes);
        }
        return Verdicts.decide(o, side(bi, b), side(ni, n), basis, settings, gpu, stepTime, kernels, bases, cats,
                shapes, cpuOps, matching, explained, gate, requests, metrics, warnings);
    }

    private static String basisNote(SideAcc b, SideAcc n) {
        return switch (b.unit) {
            case "step" -> String.format(Locale.ROOT, "per step: %d and %d steps", b.steps, n.steps);
            case "request" -> String.format(Locale.ROOT, "per request: %d and %d requests", b.requests, n.requests);
            default -> String.format(Locale.ROOT, "per second of capture: %.3f s and %.3f s (no steps or requests on"
                    + " both sides)", b.units, n.units);
        };
    }

    private static DiffResult.Side side(CaptureDiff.Input in, SideAcc s) {
        List<String> devices = new ArrayList<>(in.facts.devices.values());
        return new DiffResult.Side(s.label, in.path.toString(),
                s.selection.kind() == Selection.Kind.ALL ? null : s.selection.describe(),
                CaptureDiff.sideWindow(s).startNs(), CaptureDiff.sideWindow(s).endNs(), s.total.count, s.total.totalNs,
                s.steps, s.requests, devices, in.facts.worldSize, List.copyOf(in.facts.ranks));
    }

    static double perUnit(KeyStats k, SideAcc s) {
        return k == null || s.units <= 0 ? 0 : k.totalNs / s.units;
    }

    // ---- the bootstrap --------------------------------------------------------------------

    /**
     * Whether the side's steps hold their own kernels: always when launches placed them; by GPU time,
     * only when no step bucket holds more than a quarter of the time and four times the median
     * (a CPU that ran ahead of the GPU leaves the early steps empty and the last one full).
     */
    static boolean aligned(SideAcc s) {
        boolean byLaunch = true;
        for (FirstPassFacts.Steps st : s.facts.steps.values()) {
            byLaunch &= st.corrMin != null;
        }
        if (byLaunch || s.bucketCount < 8) {
            return true;
        }
        double[] b = s.total.buckets.clone();
        double sum = 0, max = 0;
        for (double v : b) {
            sum += v;
            max = Math.max(max, v);
        }
        Arrays.sort(b);
        double median = b[b.length / 2];
        return !(max > 0.25 * sum || max > 4 * median);
    }

    /** The seed of the step resamples: the same on both sides, so steps pair by position. */
    private static final long STEP_SEED = 0x5eedL;

    private static void draws(SideAcc s, boolean bySteps) {
        if (s.stepsMode) {
            // The step resamples: the step time's interval always, the keys' when their steps hold them.
            int nb = s.bucketCount;
            int[][] idx = new int[DRAWS][nb];
            double[] den = new double[DRAWS];
            KeyStats.Rng rng = new KeyStats.Rng(STEP_SEED);
            for (int d = 0; d < DRAWS; d++) {
                for (int j = 0; j < nb; j++) {
                    int pick = (int) rng.below(nb);
                    idx[d][j] = pick;
                    den[d] += s.stepsPerBucket[pick];
                }
            }
            s.stepIdx = idx;
            s.stepDen = den;
        }
        if (bySteps) {
            for (Map<String, KeyStats> level : s.levels()) {
                for (KeyStats k : level.values()) {
                    k.draws = stepDraws(k.buckets, s.stepIdx, s.stepDen);
                }
            }
            s.total.draws = stepDraws(s.total.buckets, s.stepIdx, s.stepDen);
            return;
        }
        // Stratified: each exact name resampled from its own instances, and every coarser key (base
        // name, category, all kernels) the sum of its names' resamples, so the spread between
        // different kernels' durations is not taken for noise.
        for (KeyStats k : s.exact.values()) {
            k.draws = Bootstrap.instanceDraws(k, s.units);
        }
        for (KeyStats k : s.shape.values()) {
            k.draws = Bootstrap.instanceDraws(k, s.units);
        }
        for (Map<String, KeyStats> level : List.of(s.base, s.category)) {
            for (KeyStats k : level.values()) {
                k.draws = new double[DRAWS];
            }
        }
        s.total.draws = new double[DRAWS];
        Set<KeyStats> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (SideAcc.Entry e : s.byName.values()) {
            if (!seen.add(e.exact())) {
                continue;
            }
            for (int d = 0; d < DRAWS; d++) {
                double v = e.exact().draws[d];
                e.base().draws[d] += v;
                e.category().draws[d] += v;
                s.total.draws[d] += v;
            }
        }
    }

    private static double[] stepDraws(double[] buckets, int[][] idx, double[] den) {
        double[] out = new double[DRAWS];
        if (buckets == null) {
            return out;
        }
        for (int d = 0; d < DRAWS; d++) {
            double sum = 0;
            int[] row = idx[d];
            for (int j : row) {
                sum += buckets[j];
            }
            out[d] = den[d] > 0 ? sum / den[d] : 0;
        }
        return out;
    }

    private static double[] stepDraws(SideAcc s) {
        return stepDraws(s.stepNsPerBucket, s.stepIdx, s.stepDen);
    }

    /** The change from {@code base} to {@code next} per unit, its interval from the draws (null: a side absent). */
    static Change change(double base, double next, double[] bDraws, double[] nDraws, double noiseFloor) {
        return Bootstrap.change(base, next, bDraws, nDraws, noiseFloor);
    }

    // ---- rows ------------------------------------------------------------------------------

    /**
     * How the rows' intervals are drawn: over steps ({@code steps} of them, the interval widened by
     * {@code widen}), or over each row's instances (its own sample size decides).
     */
    private record Sample(boolean bySteps, long steps, double widen) {
        long of(KeyStats bk, KeyStats nk) {
            if (bySteps) {
                return steps;
            }
            long bc = bk == null ? Long.MAX_VALUE : bk.count, nc = nk == null ? Long.MAX_VALUE : nk.count;
            return Math.min(bc, nc);
        }
    }

    private static List<Row> rows(DiffOptions o, String level, Map<String, KeyStats> bm, Map<String, KeyStats> nm,
                                  SideAcc b, SideAcc n, double totalDelta, Sample sample) {
        TreeSet<String> keys = new TreeSet<>(bm.keySet());
        keys.addAll(nm.keySet());
        List<Row> rows = new ArrayList<>(keys.size());
        for (String key : keys) {
            KeyStats bk = bm.get(key);
            KeyStats nk = nm.get(key);
            Figures bf = figures(bk, b);
            Figures nf = figures(nk, n);
            // A coarser key's instance draws are sums of its names' draws, each widened already.
            Change c = Bootstrap.change(perUnit(bk, b), perUnit(nk, n), bk == null ? null : bk.draws,
                    nk == null ? null : nk.draws, o.noiseFloor(), sample.of(bk, nk), sample.widen());
            String status = bk != null && nk != null ? "matched" : bk == null ? "new" : "gone";
            String category = level.equals("category") ? key : o.categories().of(key);
            String baseName = level.equals("category") ? null : level.equals("base") ? key : BaseNames.of(key);
            rows.add(new Row(key, level, category, baseName, status, null, bf, nf, c,
                    nf.countPerUnit() - bf.countPerUnit(), totalDelta == 0 ? null : c.delta() / totalDelta, null));
        }
        rows.sort(Comparator.comparingDouble((Row r) -> -Math.abs(r.time().delta())).thenComparing(Row::name));
        return rows;
    }

    /** A one-sided exact row: at which coarser level the other side has its counterpart. */
    private static List<Row> withMatchedAt(List<Row> rows, SideAcc b, SideAcc n) {
        List<Row> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            String at = null;
            if (!r.status().equals("matched")) {
                SideAcc other = r.status().equals("new") ? b : n;
                if (other.base.containsKey(r.baseName())) {
                    at = "base";
                } else if (other.category.containsKey(r.category())) {
                    at = "category";
                }
            }
            out.add(new Row(r.name(), r.level(), r.category(), r.baseName(), r.status(), at, r.base(), r.next(),
                    r.time(), r.countChange(), r.shareOfChange(), r.qValue()));
        }
        return out;
    }

    /**
     * CPU operators (with annotations and runtime calls) by name, both sides, outer-joined: counts and
     * summed durations per unit, as HTA compares them; no interval (a count is not sampled).
     */
    private static List<Row> cpuRows(SideAcc b, SideAcc n) {
        TreeSet<String> keys = new TreeSet<>(b.cpuOps.keySet());
        keys.addAll(n.cpuOps.keySet());
        List<Row> rows = new ArrayList<>();
        double bu = b.units <= 0 ? 1 : b.units, nu = n.units <= 0 ? 1 : n.units;
        for (String k : keys) {
            long[] x = b.cpuOps.getOrDefault(k, new long[2]);
            long[] y = n.cpuOps.getOrDefault(k, new long[2]);
            Figures bf = x[0] == 0 ? Figures.NONE : new Figures(x[0], x[0] / bu, x[1], x[1] / bu, x[1] / (double) x[0],
                    0, 0, 0, 0);
            Figures nf = y[0] == 0 ? Figures.NONE : new Figures(y[0], y[0] / nu, y[1], y[1] / nu, y[1] / (double) y[0],
                    0, 0, 0, 0);
            double bv = bf.nsPerUnit(), nv = nf.nsPerUnit();
            Change c = new Change(bv, nv, nv - bv, bv == 0 ? null : (nv - bv) / bv, null, null, false);
            String status = x[0] > 0 && y[0] > 0 ? "matched" : x[0] == 0 ? "new" : "gone";
            int tab = k.indexOf('\t');
            rows.add(new Row(k.substring(tab + 1), k.substring(0, tab), null, null, status, null, bf, nf, c,
                    nf.countPerUnit() - bf.countPerUnit(), null, null));
        }
        rows.sort(Comparator.comparingDouble((Row r) -> -Math.abs(r.time().delta())).thenComparing(Row::name));
        return rows;
    }

    private static Figures figures(KeyStats k, SideAcc s) {
        if (k == null || k.count == 0) {
            return Figures.NONE;
        }
        double units = s.units <= 0 ? 1 : s.units;
        return new Figures(k.count, k.count / units, k.totalNs, k.totalNs / units, k.totalNs / (double) k.count,
                k.durations.percentile(50), k.durations.percentile(90), k.durations.percentile(99),
                s.total.totalNs == 0 ? 0 : k.totalNs / (double) s.total.totalNs);
    }

    private static LevelMatch match(String level, Map<String, KeyStats> b, Map<String, KeyStats> n) {
        int common = 0;
        for (String k : b.keySet()) {
            if (n.containsKey(k)) {
                common++;
            }
        }
        return new LevelMatch(level, b.size(), n.size(), common);
    }
}
