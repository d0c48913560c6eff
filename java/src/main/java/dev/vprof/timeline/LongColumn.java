package dev.vprof.timeline;

import java.util.Arrays;

/** A growable {@code long[]}: one column of a columnar slice store, free of per-element objects. */
final class LongColumn {
    private long[] values;
    private int size;

    LongColumn(int initialCapacity) {
        values = new long[Math.max(4, initialCapacity)];
    }

    void add(long v) {
        if (size == values.length) {
            // 1.5x growth: at 10 M slices doubling would briefly hold 3x the column in memory.
            values = Arrays.copyOf(values, values.length + (values.length >> 1) + 1);
        }
        values[size++] = v;
    }

    long get(int i) {
        return values[i];
    }

    int size() {
        return size;
    }

    void permute(int[] order) {
        long[] sorted = new long[values.length];
        for (int i = 0; i < size; i++) {
            sorted[i] = values[order[i]];
        }
        values = sorted;
    }

    void trim() {
        values = Arrays.copyOf(values, Math.max(4, size));
    }
}
