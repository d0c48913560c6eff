package dev.vprof.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RangeNestingTest {

    /** A range: name, start, end, and its place in the order recorded. */
    record R(int name, long start, long end, int arrival) {}

    /** What a nesting produced: "B name@ts" and "E@ts" in order, and the clamp count. */
    static final class Events implements TimelineVisitor {
        final List<String> out = new ArrayList<>();
        int clamped;

        @Override
        public void gpuOp(GpuStream stream, GpuOp op) {}

        @Override
        public void apiCall(CpuThread thread, ApiCall call) {}

        @Override
        public void rangeBegin(CpuThread thread, long ts, int nameId, int domainId) {
            out.add("B" + nameId + "@" + ts);
        }

        @Override
        public void rangeEnd(CpuThread thread, long ts) {
            out.add("E@" + ts);
        }

        @Override
        public void rangeClamped(CpuThread thread) {
            clamped++;
        }
    }

    /**
     * What writing the complete ranges did before ranges were streamed: sort by start (the longer
     * first, then as recorded), and on each begin end the open ranges that are over, clamping the
     * new one into the one around it.
     */
    static Events reference(List<R> ranges) {
        List<R> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(R::start).thenComparing(Comparator.comparingLong(R::end).reversed())
                .thenComparingInt(R::arrival));
        Events e = new Events();
        long[] stack = new long[ranges.size() + 1];
        int depth = 0;
        for (R r : sorted) {
            while (depth > 0 && stack[depth - 1] <= r.start()) {
                e.rangeEnd(null, stack[--depth]);
            }
            long end = r.end();
            if (depth > 0 && end > stack[depth - 1]) {
                end = stack[depth - 1];
                e.clamped++;
            }
            e.rangeBegin(null, r.start(), r.name(), 0);
            stack[depth++] = end;
        }
        while (depth > 0) {
            e.rangeEnd(null, stack[--depth]);
        }
        return e;
    }

    /**
     * The same ranges as starts and ends in time order, as a walk over a capture sees them: ties in
     * time in a random order, except that a range starts before it ends.
     */
    static Events streamed(List<R> ranges, Random random) throws IOException {
        record Ev(long ts, boolean start, R r, double shuffle) {}
        List<Ev> ordered = new ArrayList<>();
        for (R r : ranges) {
            double s = random.nextDouble();
            // A zero-length range's end sorts after its own start; other ties fall at random.
            double e = r.end() == r.start() ? s + (1 - s) * random.nextDouble() : random.nextDouble();
            ordered.add(new Ev(r.start(), true, r, s));
            ordered.add(new Ev(r.end(), false, r, e));
        }
        ordered.sort(Comparator.comparingLong(Ev::ts).thenComparingDouble(Ev::shuffle));
        Events e = new Events();
        RangeNesting n = new RangeNesting(null, e);
        for (Ev ev : ordered) {
            if (ev.start()) {
                n.start(ev.r().arrival(), ev.ts(), ev.r().name(), 0);
            } else {
                n.end(ev.r().arrival(), ev.ts(), ev.r().arrival());
            }
        }
        n.finish();
        return e;
    }

    private static void assertSame(List<R> ranges, Random random) throws IOException {
        Events want = reference(ranges);
        Events got = streamed(ranges, random);
        assertEquals(want.out, got.out, "ranges " + ranges);
        assertEquals(want.clamped, got.clamped, "clamped, ranges " + ranges);
    }

    @Test
    void nestedRangesBeginAtTheirStartAndEndAtTheirEnd() throws IOException {
        assertSame(List.of(new R(1, 0, 100, 0), new R(2, 10, 20, 1), new R(3, 30, 40, 2)), new Random(1));
    }

    @Test
    void aRangeThatOutlivesItsParentIsClampedToEndWithIt() throws IOException {
        List<R> crossing = List.of(new R(1, 0, 50, 0), new R(2, 10, 80, 1));
        Events got = streamed(crossing, new Random(2));
        assertEquals(List.of("B1@0", "B2@10", "E@50", "E@50"), got.out);
        assertEquals(1, got.clamped);
        assertSame(crossing, new Random(2));
    }

    @Test
    void rangesStartingTogetherAreOrderedLongestFirstWhateverOrderTheirStartsCameIn() throws IOException {
        List<R> tie = List.of(new R(1, 5, 10, 0), new R(2, 5, 30, 1), new R(3, 5, 5, 2), new R(4, 5, 30, 3));
        for (int seed = 0; seed < 50; seed++) {
            Events got = streamed(tie, new Random(seed));
            assertEquals(List.of("B2@5", "B4@5", "B1@5", "B3@5", "E@5", "E@10", "E@30", "E@30"), got.out, "seed " + seed);
        }
    }

    @Test
    void anOuterRangeAcrossEverythingHoldsNothingBack() throws IOException {
        // The outer range's end comes last; everything inside begins and ends as it goes.
        Events e = new Events();
        RangeNesting n = new RangeNesting(null, e);
        n.start(0, 0, 9, 0);
        for (int i = 1; i <= 1000; i++) {
            n.start(i, i * 10L, 1, 0);
            n.end(i, i * 10L + 5, i);
            assertEquals("E@" + (i * 10L + 5), e.out.getLast(), "range " + i + " ended as soon as its end came");
        }
        n.end(0, 100_000, 0);
        n.finish();
        assertEquals("E@100000", e.out.getLast());
        assertEquals(2002, e.out.size());
    }

    @Test
    void randomRangesNestExactlyAsSortingThemWholeDid() throws IOException {
        Random random = new Random(42);
        for (int round = 0; round < 3000; round++) {
            int n = 1 + random.nextInt(12);
            int span = 1 + random.nextInt(round % 3 == 0 ? 4 : 40); // small spans: many ties
            List<R> ranges = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long start = random.nextInt(span);
                long end = start + (random.nextInt(4) == 0 ? 0 : random.nextInt(span));
                ranges.add(new R(1 + random.nextInt(3), start, end, i));
            }
            Collections.shuffle(ranges, random);
            List<R> numbered = new ArrayList<>();
            for (int i = 0; i < ranges.size(); i++) {
                R r = ranges.get(i);
                numbered.add(new R(r.name(), r.start(), r.end(), i));
            }
            assertSame(numbered, random);
        }
    }
}
