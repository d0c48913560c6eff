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

    private final ReorderWindow window = new ReorderWindow(WINDOW);

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
        if (window.isFull()) {
            emitMin();
        }
        window.add(start, end);
    }

    /** The busy ns of everything added (drains the window). */
    long busyNs() {
        while (!window.isEmpty()) {
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
        long s = window.minStart();
        long e = window.minEnd();
        window.removeMin();
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
}
