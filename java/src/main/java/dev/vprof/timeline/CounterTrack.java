package dev.vprof.timeline;

import java.util.Arrays;

/**
 * A time series drawn as a counter track: gauge values, counter rates or histogram quantiles, each
 * stamped with the epoch time of its scrape. Values are doubles so NaN (an empty interval) can be
 * stored; writers skip NaN and infinite values, which no trace viewer can draw.
 */
public final class CounterTrack {
    private final String name;
    private final CounterKind kind;
    private final String unit;
    private long[] times = new long[64];
    private double[] values = new double[64];
    private int size;

    CounterTrack(String name, CounterKind kind, String unit) {
        this.name = name;
        this.kind = kind;
        this.unit = unit == null ? "" : unit;
    }

    public String name() {
        return name;
    }

    public CounterKind kind() {
        return kind;
    }

    /** Unit for display, such as {@code s}, {@code 1/s} or {@code requests}; may be empty. */
    public String unit() {
        return unit;
    }

    /** Appends a sample; samples must come in time order (one per scrape). */
    public void add(long timeNs, double value) {
        int n = size;
        if (n > 0 && timeNs < times[n - 1]) {
            throw new IllegalArgumentException("counter '" + name + "': sample at " + timeNs
                    + " ns comes before the previous one at " + times[n - 1] + " ns; add samples in time order");
        }
        if (n == values.length) {
            values = Arrays.copyOf(values, n * 2);
            times = Arrays.copyOf(times, n * 2);
        }
        values[n] = value;
        times[n] = timeNs;
        size++;
    }

    public int size() {
        return size;
    }

    public long time(int i) {
        return times[i];
    }

    public double value(int i) {
        return values[i];
    }
}
