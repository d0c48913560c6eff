package dev.vprof.aggregate;

/**
 * A bounded window of intervals that leave in start order: kernel records arrive in CUPTI buffer
 * order, which is only roughly sorted, and a running union needs them in start order. Intervals
 * wait here (at most {@code capacity}) and leave in start order; one that arrives after a
 * later-starting one has already left cannot be placed exactly, which the caller detects and counts.
 *
 * <p>While every interval has arrived in start order (one stream, or the simulator's records) the
 * window is a ring in arrival order, so an interval costs two array writes in and one step out; the
 * first one out of order turns it into a min-heap on the start (the ring, read in order, already is
 * one), until it is empty again. Intervals of equal start may leave in another order than the heap
 * alone would take them, which no union can tell apart: each such interval extends the union
 * that the first of them started or joined, and a late one's part before the union is the same.
 */
final class ReorderWindow {
    private final int capacity;
    private long[] starts = new long[64];
    private long[] ends = new long[64];
    /** Sorted: the ring's first slot; a heap's root is always slot 0. */
    private int head;
    private int size;
    private boolean sorted = true;

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
        if (sorted) {
            int n = starts.length;
            if (size == 0 || start >= starts[(head + size - 1) & (n - 1)]) {
                if (size == n) {
                    grow();
                    n = starts.length;
                }
                int at = (head + size) & (n - 1);
                starts[at] = start;
                ends[at] = end;
                size++;
                return;
            }
            toHeap();
        }
        if (size == starts.length) {
            grow();
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
        return starts[head];
    }

    /** End of the earliest interval; only when not empty. */
    long minEnd() {
        return ends[head];
    }

    /** Drops the earliest interval (read it with minStart/minEnd first). */
    void removeMin() {
        size--;
        if (sorted) {
            head = size == 0 ? 0 : (head + 1) & (starts.length - 1);
            return;
        }
        if (size > 0) {
            starts[0] = starts[size];
            ends[0] = ends[size];
            siftDown();
        } else {
            sorted = true; // empty: in order again
        }
    }

    /** Doubles the arrays (their length stays a power of two), the ring laid out from slot 0. */
    private void grow() {
        int n = starts.length;
        starts = unrolled(starts, n * 2);
        ends = unrolled(ends, n * 2);
        head = 0;
    }

    /** The ring, in order from slot 0: a sorted array, which is a min-heap as it stands. */
    private void toHeap() {
        if (head != 0) {
            starts = unrolled(starts, starts.length);
            ends = unrolled(ends, ends.length);
            head = 0;
        }
        sorted = false;
    }

    private long[] unrolled(long[] a, int length) {
        long[] out = new long[length];
        int first = Math.min(size, a.length - head);
        System.arraycopy(a, head, out, 0, first);
        System.arraycopy(a, 0, out, first, size - first);
        return out;
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
