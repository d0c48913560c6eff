package dev.vprof.diff;

import dev.vprof.aggregate.Durations;
import dev.vprof.aggregate.SampleBudget;

/**
 * One key's kernels on one side (an exact name, a base name, a category, a shape, or all kernels):
 * count, total, the distribution of durations (the report's bounded {@link Durations}), and what
 * the confidence interval is drawn from: the time per step bucket when the sides have steps, else
 * a uniform sample of instances (reservoir sampling, {@value #RESERVOIR} kept; kept with steps too, for
 * steps whose kernels cannot be placed in them).
 */
final class KeyStats {
    static final int RESERVOIR = 256;

    final String key;
    long count;
    long totalNs;
    final Durations durations = new Durations();
    /** ns per step bucket; null without steps. */
    final double[] buckets;
    final long[] reservoir = new long[RESERVOIR];
    /** Filled after the pass: the key's time per unit in each bootstrap resample. */
    double[] draws;

    KeyStats(String key, int bucketCount) {
        this.key = key;
        this.buckets = bucketCount > 0 ? new double[bucketCount] : null;
    }

    void add(long durationNs, int bucket, SampleBudget budget, Rng rng) {
        count++;
        totalNs += durationNs;
        durations.add(durationNs, budget);
        if (buckets != null && bucket >= 0) {
            buckets[bucket] += durationNs;
        }
        if (count <= RESERVOIR) {
            reservoir[(int) count - 1] = durationNs;
        } else {
            long j = rng.below(count);
            if (j < RESERVOIR) {
                reservoir[(int) j] = durationNs;
            }
        }
    }

    int reservoirSize() {
        return (int) Math.min(count, RESERVOIR);
    }

    /** A small fast generator (xorshift64*), seeded, so that every run draws the same resamples. */
    static final class Rng {
        private long x;

        Rng(long seed) {
            x = seed == 0 ? 0x9e3779b97f4a7c15L : seed;
        }

        long next() {
            x ^= x >>> 12;
            x ^= x << 25;
            x ^= x >>> 27;
            return x * 2685821657736338717L;
        }

        /** Uniform in [0, n). */
        long below(long n) {
            return Long.remainderUnsigned(next(), n);
        }
    }
}
