package dev.vprof.timeline;

import java.util.Arrays;

/** A growable {@code int[]}; see {@link LongColumn}. */
final class IntColumn {
    private int[] values;
    private int size;

    IntColumn(int initialCapacity) {
        values = new int[Math.max(4, initialCapacity)];
    }

    void add(int v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, values.length + (values.length >> 1) + 1);
        }
        values[size++] = v;
    }

    int get(int i) {
        return values[i];
    }

    int size() {
        return size;
    }

    void permute(int[] order) {
        int[] sorted = new int[values.length];
        for (int i = 0; i < size; i++) {
            sorted[i] = values[order[i]];
        }
        values = sorted;
    }

    void trim() {
        values = Arrays.copyOf(values, Math.max(4, size));
    }
}
