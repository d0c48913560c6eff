package dev.vprof.diff;

import dev.vprof.diff.DiffResult.Change;
import java.util.Arrays;

/**
 * The interval arithmetic of the diff: a change's percentile interval from paired resamples, the
 * widening a small sample gets, a row's one-sided p-value of moving by more than a material size,
 * and the Benjamini-Hochberg adjustment over the rows tested.
 *
 * <p>Resamples are paired: both sides draw with the same seeds (steps by position, a key's
 * instances by the key's name), so identical inputs give identical resamples and a zero-width
 * interval, and a key is compared with itself.
 */
final class Bootstrap {
    static final int DRAWS = 300;
    static final double CI = 0.95;
    /** The normal quantile of the interval's ends ({@link #CI} two-sided). */
    static final double Z = 1.959964;
    /** Fewer steps than this a side and the steps are a small sample (intervals come from instances). */
    static final int SMALL_STEPS = 10;
    /** Fewer instances than this in a row and its sample is small. */
    static final int SMALL_INSTANCES = 30;

    private Bootstrap() {}

    /** Student's t quantile (0.975) for 1 to 30 degrees of freedom; the normal's past that. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
            2.056, 2.052, 2.048, 2.045, 2.042};

    /**
     * How much wider than the bootstrap's own spread a sample of {@code n} is given: the t quantile
     * over the normal's, times the n/(n-1) correction of the resampled variance (a percentile
     * bootstrap of a mean is too narrow for a small n). 1 for n past 30; n below 2 has no spread.
     */
    static double widening(long n) {
        if (n < 2) {
            return 1;
        }
        double t = n - 1 <= T975.length ? T975[(int) n - 2] : Z;
        return t / Z * Math.sqrt(n / (double) (n - 1));
    }

    /** A stable seed of a key's name, the same on both sides (so a key's resamples pair with its own). */
    static long seedOf(String key) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            h ^= key.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /**
     * Resamples of a key's time per unit from its instances: its count held, the mean drawn from the
     * sample (seeded by the key's name) and its spread scaled from the sample's size to the count's
     * (the mean of all {@code count} instances varies by sd/sqrt(count), not sd/sqrt(sample)), and
     * widened for a small count.
     */
    static double[] instanceDraws(KeyStats k, double units) {
        double[] out = new double[DRAWS];
        int r = k.reservoirSize();
        if (r == 0 || units <= 0) {
            return out;
        }
        double scale = k.count / units;
        double mean = k.totalNs / (double) k.count;
        double sampleMean = 0;
        for (int j = 0; j < r; j++) {
            sampleMean += k.reservoir[j];
        }
        sampleMean /= r;
        double shrink = Math.sqrt(r / (double) k.count) * widening(k.count);
        KeyStats.Rng rng = new KeyStats.Rng(seedOf(k.key));
        for (int d = 0; d < DRAWS; d++) {
            double sum = 0;
            for (int j = 0; j < r; j++) {
                sum += k.reservoir[(int) rng.below(r)];
            }
            out[d] = scale * (mean + (sum / r - sampleMean) * shrink);
        }
        return out;
    }

    /**
     * The change from {@code base} to {@code next} per unit, its interval from the paired draws
     * centred on the observed change and widened by {@code widen}; no interval (and not
     * significant) when {@code n}, the smaller side's sample, is below 2: one value has no spread.
     */
    static Change change(double base, double next, double[] bDraws, double[] nDraws, double noiseFloor, long n,
                         double widen) {
        double delta = next - base;
        Double rel = base != 0 ? delta / base : null;
        if (n < 2) {
            return new Change(base, next, delta, rel, null, null, false);
        }
        double[] diff = new double[DRAWS];
        for (int d = 0; d < DRAWS; d++) {
            diff[d] = (nDraws == null ? 0 : nDraws[d]) - (bDraws == null ? 0 : bDraws[d]);
        }
        Arrays.sort(diff);
        double lo = diff[(int) Math.floor((1 - CI) / 2 * (DRAWS - 1))];
        double hi = diff[(int) Math.ceil((1 + CI) / 2 * (DRAWS - 1))];
        // The interval is around the observed change: a resample's spread, centred on it.
        double mid = diff[DRAWS / 2];
        lo = delta + (lo - mid) * widen;
        hi = delta + (hi - mid) * widen;
        if (delta == 0 && lo == hi) {
            lo = hi = 0;
        }
        boolean past = rel == null ? delta != 0 : Math.abs(rel) >= noiseFloor;
        boolean excludesZero = lo > 0 || hi < 0;
        return new Change(base, next, delta, rel, lo, hi, past && excludesZero);
    }

    /** {@link #change} for a large sample: no widening. */
    static Change change(double base, double next, double[] bDraws, double[] nDraws, double noiseFloor) {
        return change(base, next, bDraws, nDraws, noiseFloor, Long.MAX_VALUE, 1);
    }

    /**
     * The one-sided p-value that the change moved by more than {@code material} (in its own
     * direction), from the interval read as a normal one: null without an interval.
     */
    static Double pBeyond(Change c, double material) {
        if (c.ciLow() == null) {
            return null;
        }
        double excess = Math.abs(c.delta()) - material;
        double sd = (c.ciHigh() - c.ciLow()) / (2 * Z);
        if (sd <= 0) {
            return excess > 0 ? 0.0 : 1.0;
        }
        return upperTail(excess / sd);
    }

    /** P(Z > z) of the standard normal (Abramowitz and Stegun 7.1.26 through erfc; error under 1.5e-7). */
    static double upperTail(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
                * Math.exp(-x * x);
        return z >= 0 ? erfc / 2 : 1 - erfc / 2;
    }

    /**
     * Benjamini-Hochberg adjusted p-values (q-values) of {@code p}, in the same order: a row is a
     * discovery at false-discovery rate α when its q is at most α.
     */
    static double[] adjust(double[] p) {
        int m = p.length;
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(p[b], p[a]));
        double[] q = new double[m];
        double running = 1;
        for (int r = 0; r < m; r++) {
            int i = order[r];
            int rank = m - r; // 1-based rank from the smallest
            running = Math.min(running, p[i] * m / rank);
            q[i] = running;
        }
        return q;
    }
}
