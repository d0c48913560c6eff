package dev.vprof.report;

/**
 * Busy time of one device: the length of the union of its kernel intervals, so that
 * overlapping kernels (concurrent streams) count once.
 *
 * <p>A union needs intervals in start order, but records arrive in CUPTI buffer order,
 * which is only roughly sorted. Intervals wait in a min-heap on start (a reorder window
 * of {@link #WINDOW} intervals, 1 MiB) and leave it in start order into a running union.
 * An interval that arrives after a later-starting one has already left the window cannot
 * be placed exactly; it is counted in {@link #lateIntervals()} and its part before the
 * current union is added, which can only overstate busy time.
 */
final class BusyTime {
    static final int WINDOW = 1 << 16;

    private long[] starts = new long[64];
    private long[] ends = new long[64];
    private int size;

    private boolean any;
    private long unionStart;
    private long unionEnd;
    private long busyNs;
    private long lateIntervals;
    private long firstStart = Long.MAX_VALUE;
    private long lastEnd = Long.MIN_VALUE;

    void add(long start, long end) {
        if (end < start) {
            end = start;
        }
        firstStart = Math.min(firstStart, start);
        lastEnd = Math.max(lastEnd, end);
        if (size == WINDOW) {
            emitMin();
        }
        if (size == starts.length) {
            starts = java.util.Arrays.copyOf(starts, size * 2);
            ends = java.util.Arrays.copyOf(ends, size * 2);
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

    /** The busy ns of everything added (drains the window). */
    long busyNs() {
        while (size > 0) {
            emitMin();
        }
        return any ? busyNs + (unionEnd - unionStart) : 0;
    }

    /** From the first kernel's start to the last kernel's end: what busy time is a share of. */
    long spanNs() {
        return lastEnd >= firstStart ? lastEnd - firstStart : 0;
    }

    long lateIntervals() {
        return lateIntervals;
    }

    private void emitMin() {
        long s = starts[0];
        long e = ends[0];
        size--;
        if (size > 0) {
            starts[0] = starts[size];
            ends[0] = ends[size];
            siftDown();
        }
        if (!any) {
            any = true;
            unionStart = s;
            unionEnd = e;
        } else if (s < unionStart) {
            lateIntervals++;
            busyNs += Math.min(e, unionStart) - s;
            unionEnd = Math.max(unionEnd, e);
        } else if (s > unionEnd) {
            busyNs += unionEnd - unionStart;
            unionStart = s;
            unionEnd = e;
        } else if (e > unionEnd) {
            unionEnd = e;
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
