package dev.vprof.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void kernelArgumentsSurviveColumnPackingAtTheirCudaLimits() {
        Timeline t = new Timeline();
        GpuStream s = t.process(1).device(0).stream(7);
        s.addKernel(t.intern("k"), 1, 2, 0xffff_ffffL, 0x7fff_ffff, 65535, 65535, 1024, 1024, 64, 255, 228 * 1024);
        assertEquals(0x7fff_ffff, s.gridX(0));
        assertEquals(65535, s.gridY(0));
        assertEquals(65535, s.gridZ(0));
        assertEquals(1024, s.blockX(0));
        assertEquals(1024, s.blockY(0));
        assertEquals(64, s.blockZ(0));
        assertEquals(255, s.registersPerThread(0));
        assertEquals(228 * 1024, s.sharedMemoryBytes(0));
        assertEquals(0xffff_ffffL, s.correlationId(0));
        assertEquals(GpuOpKind.KERNEL, s.kind(0));
        assertEquals("k", t.strings().get(s.nameId(0)));
    }

    @Test
    void copiesKeepBytesTheirKindAndTheMemoryKindsOfBothEnds() {
        Timeline t = new Timeline();
        GpuStream s = t.process(1).device(0).stream(7);
        s.addMemcpy(0, 5, 9, 3, 1L << 40, 8, 3, 5);
        s.addMemset(0, 10, 12, 4, 64, -1);
        assertEquals(GpuOpKind.MEMCPY, s.kind(0));
        assertEquals(1L << 40, s.bytes(0));
        assertEquals(8, s.copyKind(0));
        assertEquals(3, s.srcMemoryKind(0));
        assertEquals(5, s.dstMemoryKind(0));
        assertEquals(-1, s.memsetValue(1), "a set keeps its whole 32-bit value");
    }

    @Test
    void outOfRangeArgumentsAndBackwardsSlicesAreRejectedWithTheirName() {
        Timeline t = new Timeline();
        GpuStream s = t.process(1).device(0).stream(7);
        var e = assertThrows(IllegalArgumentException.class, () -> s.addKernel(0, 1, 2, 0, 1, 1, 1, 2048, 1, 1, 0, 0));
        assertTrue(e.getMessage().contains("blockX"), e.getMessage());
        var f = assertThrows(IllegalArgumentException.class, () -> s.addMemset(0, 5, 4, 0, 1, 0));
        assertTrue(f.getMessage().contains("stream 7"), f.getMessage());
    }

    @Test
    void sortingByStartReordersEveryColumnTogetherAndPutsParentsFirst() {
        Timeline t = new Timeline();
        GpuStream s = t.process(1).device(0).stream(7);
        s.addKernel(t.intern("late"), 300, 400, 3, 3, 1, 1, 1, 1, 1, 0, 0);
        s.addKernel(t.intern("child"), 100, 150, 2, 2, 1, 1, 1, 1, 1, 0, 0);
        s.addKernel(t.intern("parent"), 100, 200, 1, 1, 1, 1, 1, 1, 1, 0, 0);
        s.sortByStart();
        assertEquals(List.of("parent", "child", "late"), List.of(t.strings().get(s.nameId(0)), t.strings().get(s.nameId(1)), t.strings().get(s.nameId(2))));
        assertEquals(List.of(1L, 2L, 3L), List.of(s.correlationId(0), s.correlationId(1), s.correlationId(2)));
        assertEquals(List.of(1, 2, 3), List.of(s.gridX(0), s.gridX(1), s.gridX(2)));
    }

    @Test
    void sortingAManySliceStreamMatchesAReferenceSort() {
        Timeline t = new Timeline();
        GpuStream s = t.process(1).device(0).stream(7);
        java.util.Random r = new java.util.Random(42);
        for (int i = 0; i < 10_000; i++) {
            long start = r.nextInt(1_000_000);
            s.addKernel(0, start, start + r.nextInt(1000), i, 1, 1, 1, 1, 1, 1, 0, 0);
        }
        s.sortByStart();
        for (int i = 1; i < s.size(); i++) {
            assertTrue(s.start(i - 1) < s.start(i) || (s.start(i - 1) == s.start(i) && s.end(i - 1) >= s.end(i)), "order at " + i);
        }
    }

    @Test
    void earliestTimeCoversEveryKindOfRecord() {
        Timeline t = new Timeline();
        assertEquals(Long.MAX_VALUE, t.earliestNs());
        t.counter("c", CounterKind.GAUGE, "").add(50, 1);
        t.process(1).device(0).stream(1).addKernel(0, 100, 200, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        assertEquals(50, t.earliestNs());
        t.addSpan(new Span("t", "s", "", "svc", "n", 10, 20, null));
        assertEquals(10, t.earliestNs());
    }

    @Test
    void countersRefuseSamplesOutOfOrderAndAKindChange() {
        Timeline t = new Timeline();
        CounterTrack c = t.counter("q", CounterKind.GAUGE, "");
        c.add(10, 1);
        assertThrows(IllegalArgumentException.class, () -> c.add(5, 1));
        assertThrows(IllegalArgumentException.class, () -> t.counter("q", CounterKind.RATE, ""));
    }
}
