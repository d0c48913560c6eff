package dev.vprof.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimelineTest {

    /** An op through a track's reorder window, the packed form a streamed walk holds it in. */
    private static GpuOp throughQueue(GpuOp op) {
        TrackQueue q = new TrackQueue();
        q.add(op, 0);
        return q.takeGpuOp(new GpuOp());
    }

    @Test
    void kernelArgumentsSurvivePackingAtTheirCudaLimits() {
        ListTimeline t = new ListTimeline();
        GpuOp k = throughQueue(new GpuOp().kernel(t.intern("k"), 1, 2, 0xffff_ffffL, 0x7fff_ffff, 65535, 65535, 1024,
                1024, 64, 255, 228 * 1024));
        assertEquals(0x7fff_ffff, k.gridX());
        assertEquals(65535, k.gridY());
        assertEquals(65535, k.gridZ());
        assertEquals(1024, k.blockX());
        assertEquals(1024, k.blockY());
        assertEquals(64, k.blockZ());
        assertEquals(255, k.registersPerThread());
        assertEquals(228 * 1024, k.sharedMemoryBytes());
        assertEquals(0xffff_ffffL, k.correlationId());
        assertEquals(GpuOpKind.KERNEL, k.kind());
        assertEquals("k", t.strings().get(k.nameId()));
    }

    @Test
    void copiesKeepBytesTheirKindAndTheMemoryKindsOfBothEnds() {
        GpuOp copy = throughQueue(new GpuOp().memcpy(0, 5, 9, 3, 1L << 40, 8, 3, 5));
        GpuOp set = throughQueue(new GpuOp().memset(0, 10, 12, 4, 64, -1));
        assertEquals(GpuOpKind.MEMCPY, copy.kind());
        assertEquals(1L << 40, copy.bytes());
        assertEquals(8, copy.copyKind());
        assertEquals(3, copy.srcMemoryKind());
        assertEquals(5, copy.dstMemoryKind());
        assertEquals(-1, set.memsetValue(), "a set keeps its whole 32-bit value");
    }

    @Test
    void outOfRangeArgumentsAndBackwardsSlicesAreRejectedWithTheirName() {
        ListTimeline t = new ListTimeline();
        GpuStream s = t.process(1).device(0).stream(7);
        var e = assertThrows(IllegalArgumentException.class, () -> t.kernel(s, 0, 1, 2, 0, 1, 1, 1, 2048, 1, 1, 0, 0));
        assertTrue(e.getMessage().contains("blockX"), e.getMessage());
        var f = assertThrows(IllegalArgumentException.class, () -> t.memset(s, 0, 5, 4, 0, 1, 0));
        assertTrue(f.getMessage().contains("MEMSET ends (4 ns) before it starts (5 ns)"), f.getMessage());
    }

    @Test
    void aTrackLeavesItsWindowInSliceOrderEveryFieldTogetherAndParentsFirst() {
        TrackQueue q = new TrackQueue();
        q.add(new GpuOp().kernel(3, 300, 400, 3, 3, 1, 1, 1, 1, 1, 0, 0), 0);
        q.add(new GpuOp().kernel(2, 100, 150, 2, 2, 1, 1, 1, 1, 1, 0, 0), 1);
        q.add(new GpuOp().kernel(1, 100, 200, 1, 1, 1, 1, 1, 1, 1, 0, 0), 2);
        List<GpuOp> out = List.of(q.takeGpuOp(new GpuOp()), q.takeGpuOp(new GpuOp()), q.takeGpuOp(new GpuOp()));
        assertEquals(List.of(1, 2, 3), out.stream().map(GpuOp::nameId).toList(), "parent, child, late");
        assertEquals(List.of(1L, 2L, 3L), out.stream().map(GpuOp::correlationId).toList());
        assertEquals(List.of(1, 2, 3), out.stream().map(GpuOp::gridX).toList());
    }

    @Test
    void aManySliceTrackInNoOrderAtAllLeavesInSliceOrder() {
        TrackQueue q = new TrackQueue();
        Random r = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            long start = r.nextInt(1_000_000);
            q.add(new GpuOp().kernel(0, start, start + r.nextInt(1000), i, 1, 1, 1, 1, 1, 1, 0, 0), i);
        }
        GpuOp prev = q.takeGpuOp(new GpuOp());
        for (int i = 1; i < 10_000; i++) {
            GpuOp next = q.takeGpuOp(new GpuOp());
            assertTrue(prev.start() < next.start() || (prev.start() == next.start() && prev.end() >= next.end()),
                    "order at " + i);
            prev = next;
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void earliestTimeCoversEveryKindOfRecord() {
        Timeline t = new Timeline();
        assertEquals(Long.MAX_VALUE, t.earliestNs());
        t.counter("c", CounterKind.GAUGE, "").add(50, 1);
        t.process(1).device(0).stream(1).count(new GpuOp().kernel(0, 100, 200, 0, 1, 1, 1, 1, 1, 1, 0, 0));
        assertEquals(50, t.earliestNs());
        t.addSpan(new ServiceSpan("t", "s", "", "svc", "n", 10, 20, null));
        assertEquals(10, t.earliestNs());
        t.process(1).thread(1).countRange(5);
        assertEquals(5, t.earliestNs());
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
