package dev.vprof.aggregate;

import java.util.Arrays;

/**
 * A bounded min-heap of intervals on their start: kernel records arrive in CUPTI buffer order,
 * which is only roughly sorted, and a running union needs them in start order. Intervals wait
 * here (at most {@code capacity}) and leave in start order; one that arrives after a later-starting
 * one has already left cannot be placed exactly, which the caller detects and counts.
 */
final class ReorderWindow {
    private final int capacity;
    private long[] starts = new long[64];
    private long[] ends = new long[64];
    private int size;

    ReorderWindow(int capacity) {
        this.capacity = capacity;
    }

    boolean isFull() {
        return size == capacity;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(long start, long end) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        int i = size++;
        starts[i] = start;
        ends[i] = end;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (starts[parent] <= starts[i]) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    /** Start of the earliest interval; only when not empty. */
    long minStart() {
        return starts[0];
    }

    /** End of the earliest interval; only when not empty. */
    long minEnd() {
        return ends[0];
    }

    /** Drops the earliest interval (read it with minStart/minEnd first). */
    void removeMin() {
        size--;
        if (size > 0) {
            starts[0] = starts[size];
            ends[0] = ends[size];
            siftDown();
        }
    }

    private void siftDown() {
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int smallest = (l + 1 < size && starts[l + 1] < starts[l]) ? l + 1 : l;
            if (starts[i] <= starts[smallest]) {
                return;
            }
            swap(i, smallest);
            i = smallest;
        }
    }

    private void swap(int a, int b) {
        long t = starts[a];
        starts[a] = starts[b];
        starts[b] = t;
        t = ends[a];
        ends[a] = ends[b];
        ends[b] = t;
    }
}
