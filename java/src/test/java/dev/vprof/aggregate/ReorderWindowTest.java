package dev.vprof.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The window's ring (intervals in start order) and its heap (out of order) hand a union the same
 * result: against the union of the sorted intervals where none is late, and against a union fed
 * through a plain priority queue of the same capacity where some are.
 */
class ReorderWindowTest {

    /** Busy ns and late intervals of {@code in} through a RunningUnion of window {@code window}. */
    private static long[] union(List<long[]> in, int window) {
        long[] busy = {0};
        RunningUnion u = new RunningUnion(window, new RunningUnion.Segments() {
            @Override
            public void segment(long start, long end) {
                busy[0] += end - start;
            }

            @Override
            public void late(long start, long end) {
                busy[0] += end - start;
            }
        });
        for (long[] x : in) {
            u.add(x[0], x[1]);
        }
        u.finish();
        return new long[] {busy[0], u.lateIntervals()};
    }

    /** The same union rule over a java.util.PriorityQueue: the reference. */
    private static long[] reference(List<long[]> in, int window) {
        PriorityQueue<long[]> q = new PriorityQueue<>(Comparator.comparingLong(x -> x[0]));
        long busy = 0, late = 0, us = 0, ue = 0;
        boolean any = false;
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i <= in.size(); i++) {
            if (i < in.size()) {
                long[] x = in.get(i);
                if (q.size() == window) {
                    out.add(q.poll());
                }
                q.add(new long[] {x[0], Math.max(x[0], x[1])});
            } else {
                while (!q.isEmpty()) {
                    out.add(q.poll());
                }
            }
            for (long[] x : out) {
                if (!any) {
                    any = true;
                    us = x[0];
                    ue = x[1];
                } else if (x[0] < us) {
                    late++;
                    busy += Math.min(x[1], us) - x[0];
                    ue = Math.max(ue, x[1]);
                } else if (x[0] > ue) {
                    busy += ue - us;
                    us = x[0];
                    ue = x[1];
                } else if (x[1] > ue) {
                    ue = x[1];
                }
            }
            out.clear();
        }
        if (any) {
            busy += ue - us;
        }
        return new long[] {busy, late};
    }

    /** The union's length of the sorted intervals, by hand. */
    private static long sortedUnion(List<long[]> in) {
        List<long[]> s = new ArrayList<>(in);
        s.sort(Comparator.comparingLong(x -> x[0]));
        long busy = 0, us = 0, ue = Long.MIN_VALUE;
        for (long[] x : s) {
            if (x[0] > ue) {
                busy += ue == Long.MIN_VALUE ? 0 : ue - us;
                us = x[0];
                ue = x[1];
            } else {
                ue = Math.max(ue, x[1]);
            }
        }
        return busy + (ue == Long.MIN_VALUE ? 0 : ue - us);
    }

    @Test
    void inOrderWithTiesAndOverlapsIsTheExactUnion() {
        List<long[]> in = new ArrayList<>();
        Random r = new Random(1);
        long t = 0;
        for (int i = 0; i < 20_000; i++) {
            t += r.nextInt(3) == 0 ? 0 : r.nextInt(50); // a third start with the one before
            in.add(new long[] {t, t + r.nextInt(80)});
        }
        long[] got = union(in, 1 << 12); // the ring wraps and grows, and leaves when full
        assertEquals(sortedUnion(in), got[0]);
        assertEquals(0, got[1]);
    }

    @Test
    void turnsToAHeapAndBackWithoutChangingTheUnion() {
        List<long[]> in = new ArrayList<>();
        Random r = new Random(2);
        for (int block = 0; block < 50; block++) {
            long base = block * 100_000L;
            boolean shuffled = block % 3 == 1;
            for (int i = 0; i < 300; i++) {
                long s = base + (shuffled ? r.nextInt(90_000) : i * 300L);
                in.add(new long[] {s, s + r.nextInt(500)});
            }
        }
        long[] got = union(in, 1 << 16); // never full: the union is exact
        assertEquals(sortedUnion(in), got[0]);
        assertEquals(0, got[1]);
    }

    @Test
    void lateIntervalsAsAPlainPriorityQueueCountsThem() {
        Random r = new Random(3);
        for (int trial = 0; trial < 200; trial++) {
            List<long[]> in = new ArrayList<>();
            long t = 0;
            int n = 50 + r.nextInt(2000);
            for (int i = 0; i < n; i++) {
                // Mostly in order, some far back (late past a small window), many equal starts.
                long s = r.nextInt(10) == 0 ? Math.max(0, t - r.nextInt(5000)) : (t += r.nextInt(4) * 10L);
                in.add(new long[] {s, s + r.nextInt(60)});
            }
            int window = 1 + r.nextInt(40);
            long[] want = reference(in, window);
            long[] got = union(in, window);
            assertEquals(want[0], got[0], "busy ns, trial " + trial);
            assertEquals(want[1], got[1], "late intervals, trial " + trial);
        }
    }
}
