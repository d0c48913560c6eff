package dev.vprof.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GpuOverlapTest {
    @Test
    void concurrentKernelsCountOnceInsideEachInterval() {
        // Busy union: [10,40) from three overlapping kernels (out of order), [60,70), [100,130).
        GpuOverlap o = new GpuOverlap(new long[] {0, 20, 65, 120, 200, 20}, 1024);
        o.add(100, 130);
        o.add(20, 40);
        o.add(10, 30);
        o.add(60, 70);
        o.add(15, 25);
        assertEquals(10, o.busyBetween(0, 20));
        assertEquals(20 + 5, o.busyBetween(20, 65));
        assertEquals(5 + 20, o.busyBetween(65, 120));
        assertEquals(10, o.busyBetween(120, 200));
        assertEquals(70, o.busyBetween(0, 200));
        assertEquals(0, o.lateIntervals());
    }

    @Test
    void aKernelLaterThanTheWindowIsCountedAsLate() {
        GpuOverlap o = new GpuOverlap(new long[] {0, 1000}, 16);
        for (int i = 0; i < 40; i++) {
            o.add(100 + 10 * i, 105 + 10 * i);
        }
        o.add(0, 50); // arrives after 40 later-starting kernels, 16 of which fit the window
        assertEquals(1, o.lateIntervals());
    }
}
