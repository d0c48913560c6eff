package dev.vprof.aggregate;

import dev.vprof.time.Intervals;
import java.util.Arrays;

/**
 * How much GPU busy time (the union of kernel intervals over every device and process, so that
 * concurrent kernels count once) falls inside given intervals, such as the phases of requests,
 * in one streaming pass and memory bounded by the reorder window, not by the number of kernels.
 *
 * <p>With B(t) the busy time before t, the busy time inside [a, b] is B(b) - B(a). The interval
 * ends are known before the pass (the spans are read first), so B is evaluated only there: kernels
 * go through a {@link RunningUnion}, and each finished union segment advances a sweep over the
 * sorted query points. A kernel that arrives after the union has passed its start (further out of
 * order than the window) loses the part before the union's start; such kernels are counted in
 * {@link #lateIntervals()}, and a non-zero count marks the figures as approximate.
 */
public final class GpuOverlap {
    private final long[] queries;
    private final long[] busyBefore;
    private int nextQuery;
    private long busyTotal;
    private final RunningUnion union;
    private boolean finished;

    /**
     * An overlap counter over these interval ends.
     *
     * @param points interval ends to evaluate at (any order, duplicates allowed)
     * @param window reorder capacity
     */
    public GpuOverlap(long[] points, int window) {
        long[] q = points.clone();
        Arrays.sort(q);
        int n = 0;
        for (int i = 0; i < q.length; i++) {
            if (i == 0 || q[i] != q[i - 1]) {
                q[n++] = q[i];
            }
        }
        this.queries = Arrays.copyOf(q, n);
        this.busyBefore = new long[n];
        this.union = new RunningUnion(Math.max(16, window), this::segment);
    }

    public void add(long start, long end) {
        union.add(start, end);
    }

    /** Busy ns inside [a, b]; a and b must be among the points given at construction. */
    public long busyBetween(long a, long b) {
        finish();
        return Math.max(0, at(b) - at(a));
    }

    /** Kernels that came too far out of order to place exactly (settles the pass first). */
    public long lateIntervals() {
        finish();
        return union.lateIntervals();
    }

    /** The busy time inside {@code union}, whose edges were among the points given at construction. */
    public long busyIn(Intervals union) {
        long[] edges = union.edges();
        long t = 0;
        for (int i = 0; i < edges.length; i += 2) {
            t += busyBetween(edges[i], edges[i + 1]);
        }
        return t;
    }

    private long at(long t) {
        int i = Arrays.binarySearch(queries, t);
        if (i < 0) {
            throw new IllegalArgumentException(t + " was not given as a query point");
        }
        return busyBefore[i];
    }

    private void finish() {
        if (finished) {
            return;
        }
        union.finish();
        while (nextQuery < queries.length) {
            busyBefore[nextQuery++] = busyTotal;
        }
        finished = true;
    }

    /** One finished piece of the union: settle every query point up to its end. */
    private void segment(long s, long e) {
        while (nextQuery < queries.length && queries[nextQuery] <= s) {
            busyBefore[nextQuery++] = busyTotal;
        }
        while (nextQuery < queries.length && queries[nextQuery] < e) {
            busyBefore[nextQuery] = busyTotal + (queries[nextQuery] - s);
            nextQuery++;
        }
        busyTotal += e - s;
    }
}
