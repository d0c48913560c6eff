package dev.vprof.time;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A union of intervals [start, end) in epoch ns, sorted and disjoint, built once before the
 * records pass (the phases of a set of requests, the requests of a selection); {@link #overlapNs}
 * says how much of a kernel falls inside it, {@link #holds} whether an instant does, in O(log n).
 */
public final class Intervals {
    /** start0, end0, start1, end1, ... sorted and disjoint. */
    private final long[] edges;

    private Intervals(long[] edges) {
        this.edges = edges;
    }

    /** The union of {@code pairs} (start, end; empty or reversed ones left out), clipped to [from, to). */
    public static Intervals union(List<long[]> pairs, long from, long to) {
        List<long[]> kept = new ArrayList<>();
        for (long[] p : pairs) {
            long s = Math.max(p[0], from);
            long e = Math.min(p[1], to);
            if (e > s) {
                kept.add(new long[] {s, e});
            }
        }
        kept.sort((a, b) -> Long.compare(a[0], b[0]));
        long[] out = new long[kept.size() * 2];
        int n = 0;
        for (long[] p : kept) {
            if (n > 0 && p[0] <= out[n - 1]) {
                out[n - 1] = Math.max(out[n - 1], p[1]);
            } else {
                out[n++] = p[0];
                out[n++] = p[1];
            }
        }
        return new Intervals(Arrays.copyOf(out, n));
    }

    public boolean isEmpty() {
        return edges.length == 0;
    }

    /** Every edge, start0, end0, start1, ...: query points for the busy time inside the union. */
    public long[] edges() {
        return edges.clone();
    }

    /** The sum of the intervals' lengths. */
    public long totalNs() {
        long t = 0;
        for (int i = 0; i < edges.length; i += 2) {
            t += edges[i + 1] - edges[i];
        }
        return t;
    }

    /** How much of [start, end) lies inside the union. */
    public long overlapNs(long start, long end) {
        if (end <= start || edges.length == 0) {
            return 0;
        }
        long in = 0;
        for (int i = firstEndingAfter(start); i < edges.length / 2 && edges[2 * i] < end; i++) {
            in += Math.min(end, edges[2 * i + 1]) - Math.max(start, edges[2 * i]);
        }
        return in;
    }

    /** Receives a part of an interval that lies inside the union: [start, end), never empty. */
    @FunctionalInterface
    public interface Piece {
        void accept(long start, long end);
    }

    /** Hands each part of [start, end) that lies inside the union to {@code piece}, in time order. */
    public void forEachInside(long start, long end, Piece piece) {
        for (int i = firstEndingAfter(start); i < edges.length / 2 && edges[2 * i] < end; i++) {
            long s = Math.max(start, edges[2 * i]);
            long e = Math.min(end, edges[2 * i + 1]);
            if (e > s) {
                piece.accept(s, e);
            }
        }
    }

    /** The index of the first interval whose end is after {@code t}; the count of intervals when none is. */
    private int firstEndingAfter(long t) {
        int lo = 0, hi = edges.length / 2;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (edges[2 * mid + 1] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Whether the instant {@code t} lies inside the union (an interval's start in, its end out). */
    public boolean holds(long t) {
        int lo = 0, hi = edges.length / 2 - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (edges[2 * mid] <= t) {
                if (t < edges[2 * mid + 1]) {
                    return true;
                }
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }
}
