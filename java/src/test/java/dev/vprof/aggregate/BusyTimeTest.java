package dev.vprof.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BusyTimeTest {

    @Test
    void overlappingAndNestedIntervalsCountOnce() {
        BusyTime b = new BusyTime();
        b.add(0, 100);
        b.add(10, 20);
        b.add(50, 150);
        b.add(300, 400);
        b.add(400, 450);
        assertEquals(150 + 150, b.busyNs());
        assertEquals(0, b.lateIntervals());
    }

    @Test
    void intervalsOutOfOrderWithinTheWindowAreExact() {
        BusyTime b = new BusyTime();
        for (int i = 999; i >= 0; i--) {
            b.add(i * 10L, i * 10L + 5);
        }
        assertEquals(5000, b.busyNs());
        assertEquals(0, b.lateIntervals());
    }

    @Test
    void intervalsLaterThanTheWindowAreCountedAsLate() {
        BusyTime b = new BusyTime();
        for (int i = 1; i <= BusyTime.WINDOW + 10; i++) {
            b.add(i * 10L, i * 10L + 5);
        }
        b.add(0, 5); // its successors have left the window already
        assertEquals((BusyTime.WINDOW + 11) * 5L, b.busyNs());
        assertEquals(1, b.lateIntervals());
    }

    @Test
    void nothingAddedIsZero() {
        assertEquals(0, new BusyTime().busyNs());
    }
}
