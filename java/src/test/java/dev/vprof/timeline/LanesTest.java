package dev.vprof.timeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LanesTest {

    @Test
    void overlappingIntervalsGetSeparateLanesAndFreedLanesAreReusedLowestFirst() {
        long[] start = {0, 5, 10, 12, 30};
        long[] end = {10, 20, 15, 40, 35};
        Lanes.Assignment a = Lanes.disjoint(start, end);
        // 0:[0,10) lane0; 1:[5,20) lane1; 2:[10,15) reuses lane0; 3:[12,40) lane2; 4:[30,35) lane0.
        assertArrayEquals(new int[] {0, 1, 0, 2, 0}, a.laneOf());
        assertEquals(3, a.laneCount());
    }

    @Test
    void nestedIntervalsShareALaneAndPartialOverlapsMoveToAnother() {
        long[] start = {0, 10, 20, 50};
        long[] end = {100, 30, 25, 150};
        Lanes.Assignment a = Lanes.nested(start, end);
        // [10,30) and [20,25) nest in [0,100); [50,150) crosses its end.
        assertArrayEquals(new int[] {0, 0, 0, 1}, a.laneOf());
        assertEquals(2, a.laneCount());
    }

    @Test
    void groupGathersItemsByTheirLaneKeepingTheirOrder() {
        Lanes.Assignment a = new Lanes.Assignment(new int[] {0, 1, 0, 2, 0}, 4);
        assertEquals(List.of(List.of("a", "c", "e"), List.of("b"), List.of("d"), List.of()),
                a.group(List.of("a", "b", "c", "d", "e")));
    }
}
