package dev.vprof.diff;

import dev.vprof.time.Selection;
import dev.vprof.diff.DiffResult.Change;
import dev.vprof.diff.DiffResult.Figures;
import dev.vprof.diff.DiffResult.LevelMatch;
import dev.vprof.diff.DiffResult.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    static final int DRAWS = 300;
    static final double CI = 0.95;

    private Comparison() {}

    static DiffResult compare(DiffOptions o, CaptureDiff.Input bi, SideAcc b, CaptureDiff.Input ni, SideAcc n) {
        // Steps drawn with replacement only where each step holds its own kernels; else the instances.
        boolean bySteps = b.stepsMode && n.stepsMode && aligned(b) && aligned(n);
        draws(b, bySteps);
        draws(n, bySteps);
        double bTotal = perUnit(b.total, b);
        double nTotal = perUnit(n.total, n);
        Change gpu = change(bTotal, nTotal, b.total.draws, n.total.draws, o.noiseFloor());
        double totalDelta = nTotal - bTotal;

        List<Row> kernels = rows(o, "exact", b.exact, n.exact, b, n, totalDelta);
        List<Row> bases = rows(o, "base", b.base, n.base, b, n, totalDelta);
        List<Row> cats = rows(o, "category", b.category, n.category, b, n, totalDelta);
        List<Row> shapes = o.byShape() ? rows(o, "shape", b.shape, n.shape, b, n, totalDelta) : List.of();
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
        if (b.stepsMode && n.stepsMode) {
            stepTime = change(b.stepWallNs / (double) Math.max(1, b.steps), n.stepWallNs / (double) Math.max(1, n.steps),
                    stepDraws(b), stepDraws(n), o.noiseFloor());
        }

        DiffResult.Requests requests = RequestCompare.compare(o, bi, b, ni, n, gpu);
        List<DiffResult.MetricChange> metrics = RequestCompare.metrics(bi, b, ni, n);
        DiffResult.Comparability gate = Gate.check(o, bi, b, ni, n, matching, kernels, requests, metrics);

        String ciMethod = bySteps ? "bootstrap over steps" : "bootstrap over kernel instances";
        List<String> notes = new ArrayList<>();
        if (b.stepsMode && !bySteps) {
            notes.add("the steps' kernels could not be told apart (no launch records, and the GPU ran behind the steps:"
                    + " record with --kinds ...,runtime); intervals are from kernel instances");
        }
        DiffResult.Settings settings = new DiffResult.Settings(o.noiseFloor(), o.regressionThreshold(), CI, ciMethod,
                o.byShape(), o.force(), o.top());
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

    private static void draws(SideAcc s, boolean bySteps) {
        if (s.stepsMode) {
            // The step resamples: the step time's interval always, the keys' when their steps hold them.
            int nb = s.bucketCount;
            int[][] idx = new int[DRAWS][nb];
            double[] den = new double[DRAWS];
            for (int d = 0; d < DRAWS; d++) {
                for (int j = 0; j < nb; j++) {
                    int pick = (int) s.rng.below(nb);
                    idx[d][j] = pick;
                    den[d] += s.stepsPerBucket[pick];
                }
            }
            s.stepIdx = idx;
            s.stepDen = den;
        }
        for (Map<String, KeyStats> level : s.levels()) {
            for (KeyStats k : level.values()) {
                k.draws = bySteps ? stepDraws(k.buckets, s.stepIdx, s.stepDen) : instanceDraws(k, s);
            }
        }
        s.total.draws = bySteps ? stepDraws(s.total.buckets, s.stepIdx, s.stepDen) : instanceDraws(s.total, s);
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

    /**
     * Resamples of the key's time per unit from its instances: its count held, the mean drawn from
     * the sample and its spread scaled from the sample's size to the count's (the mean of all
     * {@code count} instances varies by sd/sqrt(count), not sd/sqrt(sample)).
     */
    private static double[] instanceDraws(KeyStats k, SideAcc s) {
        double[] out = new double[DRAWS];
        int r = k.reservoirSize();
        if (r == 0 || s.units <= 0) {
            return out;
        }
        double scale = k.count / s.units;
        double mean = k.totalNs / (double) k.count;
        double sampleMean = 0;
        for (int j = 0; j < r; j++) {
            sampleMean += k.reservoir[j];
        }
        sampleMean /= r;
        double shrink = Math.sqrt(r / (double) k.count);
        for (int d = 0; d < DRAWS; d++) {
            double sum = 0;
            for (int j = 0; j < r; j++) {
                sum += k.reservoir[(int) s.rng.below(r)];
            }
            out[d] = scale * (mean + (sum / r - sampleMean) * shrink);
        }
        return out;
    }

    /** The change from {@code base} to {@code next} per unit, its interval from the draws (null: a side absent). */
    static Change change(double base, double next, double[] bDraws, double[] nDraws, double noiseFloor) {
        double delta = next - base;
        Double rel = base != 0 ? delta / base : null;
        double[] diff = new double[DRAWS];
        for (int d = 0; d < DRAWS; d++) {
            diff[d] = (nDraws == null ? 0 : nDraws[d]) - (bDraws == null ? 0 : bDraws[d]);
        }
        Arrays.sort(diff);
        double lo = diff[(int) Math.floor((1 - CI) / 2 * (DRAWS - 1))];
        double hi = diff[(int) Math.ceil((1 + CI) / 2 * (DRAWS - 1))];
        // The interval is around the observed change: a resample's spread, centred on it.
        double mid = diff[DRAWS / 2];
        lo = delta + (lo - mid);
        hi = delta + (hi - mid);
        if (delta == 0 && lo == hi) {
            lo = hi = 0;
        }
        boolean past = rel == null ? delta != 0 : Math.abs(rel) >= noiseFloor;
        boolean excludesZero = lo > 0 || hi < 0;
        return new Change(base, next, delta, rel, lo, hi, past && excludesZero);
    }

    // ---- rows ------------------------------------------------------------------------------

    private static List<Row> rows(DiffOptions o, String level, Map<String, KeyStats> bm, Map<String, KeyStats> nm,
                                  SideAcc b, SideAcc n, double totalDelta) {
        TreeSet<String> keys = new TreeSet<>(bm.keySet());
        keys.addAll(nm.keySet());
        List<Row> rows = new ArrayList<>(keys.size());
        for (String key : keys) {
            KeyStats bk = bm.get(key);
            KeyStats nk = nm.get(key);
            Figures bf = figures(bk, b);
            Figures nf = figures(nk, n);
            Change c = change(perUnit(bk, b), perUnit(nk, n), bk == null ? null : bk.draws, nk == null ? null : nk.draws,
                    o.noiseFloor());
            String status = bk != null && nk != null ? "matched" : bk == null ? "new" : "gone";
            String category = level.equals("category") ? key : o.categories().of(key);
            String baseName = level.equals("category") ? null : level.equals("base") ? key : BaseNames.of(key);
            rows.add(new Row(key, level, category, baseName, status, null, bf, nf, c,
                    nf.countPerUnit() - bf.countPerUnit(), totalDelta == 0 ? null : c.delta() / totalDelta));
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
                    r.time(), r.countChange(), r.shareOfChange()));
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
            rows.add(new Row(k, "cpu_op", null, null, status, null, bf, nf, c, nf.countPerUnit() - bf.countPerUnit(),
                    null));
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
