package dev.vprof.aggregate;

/**
 * The union of intervals that arrive roughly in start order, in one pass and bounded memory: they
 * wait in a {@link ReorderWindow} and leave it in start order into a running union, whose finished
 * pieces (segments, disjoint and in order) go to a consumer. An interval that arrives after the
 * union has passed its start (further out of order than the window) is counted in
 * {@link #lateIntervals()}: its part before the union's start is reported to the consumer as
 * {@code late} and not merged, the rest joins the union.
 */
final class RunningUnion {
    /** Where the union's pieces go. */
    interface Segments {
        /** A finished piece of the union, after every earlier one. */
        void segment(long start, long end);

        /** The part [start, end) of a late interval that lies before the union it came behind. */
        default void late(long start, long end) {}
    }

    private final ReorderWindow window;
    private final Segments out;
    private boolean any;
    private long unionStart;
    private long unionEnd;
    private long lateIntervals;

    RunningUnion(int window, Segments out) {
        this.window = new ReorderWindow(window);
        this.out = out;
    }

    void add(long start, long end) {
        if (end < start) {
            end = start;
        }
        if (window.isFull()) {
            emitMin();
        }
        window.add(start, end);
    }

    /** Empties the window into the union and hands out the last segment; call once, at the end. */
    void finish() {
        while (!window.isEmpty()) {
            emitMin();
        }
        if (any) {
            out.segment(unionStart, unionEnd);
            any = false;
        }
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
            out.late(s, Math.min(e, unionStart));
            unionEnd = Math.max(unionEnd, e);
        } else if (s > unionEnd) {
            out.segment(unionStart, unionEnd);
            unionStart = s;
            unionEnd = e;
        } else if (e > unionEnd) {
            unionEnd = e;
        }
    }
}
