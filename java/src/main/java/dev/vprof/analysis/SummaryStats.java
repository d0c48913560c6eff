package dev.vprof.analysis;

import dev.vprof.aggregate.Durations;
import dev.vprof.aggregate.SampleBudget;

/**
 * One row's figures in an nsys-style summary: count, total, mean, median, min, max and the sample
 * standard deviation (n − 1, as {@code nsys stats} reports it) of a value (a duration in ns, or a
 * size in bytes). The median is the nearest-rank one (the lower middle of an even count), exact while
 * the row's {@link Durations} keeps every value (1024, within the shared budget) and within 0.4 %
 * past that; the standard deviation by Welford's update, exact to double precision.
 */
public final class SummaryStats {
    private final Durations values = new Durations();
    private long count;
    private long total;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private double mean;
    private double m2;

    void add(long v, SampleBudget budget) {
        values.add(v, budget);
        count++;
        total += v;
        min = Math.min(min, v);
        max = Math.max(max, v);
        double d = v - mean;
        mean += d / count;
        m2 += d * (v - mean);
    }

    public long count() {
        return count;
    }

    public long total() {
        return total;
    }

    public double mean() {
        return count == 0 ? 0 : (double) total / count;
    }

    public long median() {
        return values.percentile(50);
    }

    /** Whether the median is exact (every value kept). */
    public boolean exact() {
        return values.exact();
    }

    public long min() {
        return count == 0 ? 0 : min;
    }

    public long max() {
        return count == 0 ? 0 : max;
    }

    /** The sample standard deviation; 0 for fewer than two values. */
    public double stddev() {
        return count < 2 ? 0 : Math.sqrt(m2 / (count - 1));
    }
}
