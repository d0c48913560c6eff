package dev.vprof.timeline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * Greedy lane assignment. A trace viewer nests slices on one track by time, so requests that overlap
 * must go on separate lanes, and spans may share a lane only when they nest.
 */
public final class Lanes {
    private Lanes() {}

    /** The lane of each interval and how many lanes were used. */
    public record Assignment(int[] laneOf, int laneCount) {
        /** {@code items} (in the order they were assigned) gathered by lane, in lane order. */
        public <T> List<List<T>> group(List<T> items) {
            List<List<T>> byLane = new ArrayList<>();
            for (int i = 0; i < laneCount; i++) {
                byLane.add(new ArrayList<>());
            }
            for (int i = 0; i < items.size(); i++) {
                byLane.get(laneOf[i]).add(items.get(i));
            }
            return byLane;
        }
    }

    /** {@link #disjoint(long[], long[])} over a list, each item's interval read by the two functions. */
    public static <T> Assignment disjoint(List<T> items, ToLongFunction<? super T> start, ToLongFunction<? super T> end) {
        return disjoint(column(items, start), column(items, end));
    }

    /** {@link #nested(long[], long[])} over a list, each item's interval read by the two functions. */
    public static <T> Assignment nested(List<T> items, ToLongFunction<? super T> start, ToLongFunction<? super T> end) {
        return nested(column(items, start), column(items, end));
    }

    private static <T> long[] column(List<T> items, ToLongFunction<? super T> f) {
        long[] out = new long[items.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = f.applyAsLong(items.get(i));
        }
        return out;
    }

    /**
     * Puts intervals that overlap on different lanes, each on the lowest-numbered free lane, so lane 0
     * is the busiest. An interval may start exactly where another ended on the same lane.
     */
    public static Assignment disjoint(long[] start, long[] end) {
        int n = start.length;
        Integer[] order = byStartThenLongest(start, end);
        int[] laneOf = new int[n];
        BitSet free = new BitSet();
        // (end, lane) of busy lanes, earliest end first.
        PriorityQueue<long[]> busy = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        int lanes = 0;
        for (int idx : order) {
            while (!busy.isEmpty() && busy.peek()[0] <= start[idx]) {
                free.set((int) busy.poll()[1]);
            }
            int lane = free.nextSetBit(0);
            if (lane < 0) {
                lane = lanes++;
            } else {
                free.clear(lane);
            }
            laneOf[idx] = lane;
            busy.add(new long[] {end[idx], lane});
        }
        return new Assignment(laneOf, lanes);
    }

    /**
     * Puts each interval on the first lane where it nests: the lane is idle at its start, or the
     * innermost open interval there contains it. Parents and children of one trace end up together.
     */
    public static Assignment nested(long[] start, long[] end) {
        int n = start.length;
        Integer[] order = byStartThenLongest(start, end);
        int[] laneOf = new int[n];
        List<long[]> stacks = new ArrayList<>();
        List<Integer> depths = new ArrayList<>();
        for (int idx : order) {
            int lane = -1;
            for (int l = 0; l < stacks.size() && lane < 0; l++) {
                long[] stack = stacks.get(l);
                int depth = depths.get(l);
                while (depth > 0 && stack[depth - 1] <= start[idx]) {
                    depth--;
                }
                depths.set(l, depth);
                if (depth == 0 || stack[depth - 1] >= end[idx]) {
                    lane = l;
                }
            }
            if (lane < 0) {
                lane = stacks.size();
                stacks.add(new long[8]);
                depths.add(0);
            }
            long[] stack = stacks.get(lane);
            int depth = depths.get(lane);
            if (depth == stack.length) {
                stack = Arrays.copyOf(stack, depth * 2);
                stacks.set(lane, stack);
            }
            stack[depth] = end[idx];
            depths.set(lane, depth + 1);
            laneOf[idx] = lane;
        }
        return new Assignment(laneOf, stacks.size());
    }

    private static Integer[] byStartThenLongest(long[] start, long[] end) {
        if (start.length != end.length) {
            throw new IllegalArgumentException("start and end arrays differ in length");
        }
        Integer[] order = new Integer[start.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(start[a], start[b]);
            return c != 0 ? c : Long.compare(end[b], end[a]);
        });
        return order;
    }
}
