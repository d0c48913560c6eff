package dev.vprof.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.testing.TestProducer;
import dev.vprof.testing.TestRegions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RingReaderTest {
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void close() {
        arena.close();
    }

    /** Copies every record of every run it is handed, split by the records' own headers. */
    static final class Collector implements RecordSink {
        final List<long[]> records = new ArrayList<>(); // {type, length, stamp}
        int calls;

        @Override
        public void records(int pid, MemorySegment src, long offset, long length) {
            calls++;
            long end = offset + length;
            for (long off = offset; off < end; ) {
                int len = src.get(ValueLayout.JAVA_INT, off);
                int type = src.get(ValueLayout.JAVA_INT, off + 4);
                records.add(new long[] {type, len, src.get(ValueLayout.JAVA_LONG, off + 8)});
                assertTrue(len > 0 && off + len <= end, "a run holds whole records only");
                off += len;
            }
        }
    }

    private MemorySegment[] ring(long capacity) {
        return TestRegions.inMemory(arena, capacity);
    }

    @Test
    void recordsAreHandedOverInOrderAndTheirBytesZeroedBehind() throws Exception {
        MemorySegment[] cr = ring(4096);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        for (int i = 0; i < 10; i++) {
            assertTrue(p.write(VprofRing.REC_KERNEL, 32, i));
        }
        RingReader r = new RingReader(7, cr[0], cr[1]);
        Collector c = new Collector();
        assertEquals(320, r.drain(c, Long.MAX_VALUE));
        assertEquals(10, c.records.size());
        assertEquals(1, c.calls, "contiguous records go over as one run (a copy, not per record)");
        for (int i = 0; i < 10; i++) {
            assertEquals(i, c.records.get(i)[2]);
        }
        assertEquals(320, cr[0].get(ValueLayout.JAVA_LONG, Control.HEAD));
        for (long i = 0; i < 320; i++) {
            assertEquals(0, cr[1].get(ValueLayout.JAVA_BYTE, i));
        }
        assertTrue(r.isEmpty());
        assertEquals(10, r.records(VprofRing.REC_KERNEL));
    }

    @Test
    void wrapPutsPaddingThatTheReaderSkipsAndNeverHandsOver() throws Exception {
        MemorySegment[] cr = ring(256);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        RingReader r = new RingReader(1, cr[0], cr[1]);
        Collector c = new Collector();
        long written = 0;
        for (int i = 0; i < 100; i++) {
            assertTrue(p.write(VprofRing.REC_KERNEL, 48, i)); // 48 does not divide 256: wraps with padding
            written++;
            if (i % 3 == 2) {
                r.drain(c, Long.MAX_VALUE);
            }
        }
        r.drain(c, Long.MAX_VALUE);
        assertEquals(written, c.records.size());
        for (int i = 0; i < c.records.size(); i++) {
            assertNotEquals(VprofRing.REC_PADDING, c.records.get(i)[0]);
            assertEquals(i, c.records.get(i)[2]);
        }
        assertTrue(r.head() > 100 * 48, "head also moved over the padding");
        assertTrue(r.isEmpty());
    }

    @Test
    void dropsAreCountedWhenTheRingIsFullAndNothingIsOverwritten() throws Exception {
        MemorySegment[] cr = ring(1024);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        int ok = 0;
        int dropped = 0;
        for (int i = 0; i < 100; i++) {
            if (p.write(VprofRing.REC_KERNEL, 32, i)) ok++; else dropped++;
        }
        assertEquals(32, ok);
        assertEquals(68, dropped);
        Collector c = new Collector();
        new RingReader(1, cr[0], cr[1]).drain(c, Long.MAX_VALUE);
        assertEquals(ok, c.records.size());
        for (int i = 0; i < ok; i++) {
            assertEquals(i, c.records.get(i)[2], "the first records survive, later ones were dropped");
        }
    }

    @Test
    void concurrentProducersHaveEveryRecordAccountedFor() throws Exception {
        MemorySegment[] cr = ring(64 * 1024);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        int producers = 4;
        int perProducer = 50_000;
        long[] drops = new long[producers];
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < producers; t++) {
            final int id = t;
            Thread th = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    int len = 16 + 8 * (i % 5);
                    if (!p.write(VprofRing.REC_KERNEL, len, ((long) id << 32) | i)) {
                        drops[id]++;
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        Thread joiner = new Thread(() -> {
            for (Thread th : threads) {
                try { th.join(); } catch (InterruptedException e) { return; }
            }
            done.set(true);
        });
        joiner.start();
        RingReader r = new RingReader(1, cr[0], cr[1]);
        long[] lastSeq = new long[producers];
        long[] received = new long[producers];
        java.util.Arrays.fill(lastSeq, -1);
        RecordSink check = (pid, src, off, len) -> {
            for (long o = off; o < off + len; ) {
                int l = src.get(ValueLayout.JAVA_INT, o);
                long stamp = src.get(ValueLayout.JAVA_LONG, o + 8);
                int id = (int) (stamp >>> 32);
                long seq = stamp & 0xffffffffL;
                assertTrue(seq > lastSeq[id], "a producer's records arrive in its order");
                assertEquals(16 + 8 * (seq % 5), l, "the length is the one written");
                lastSeq[id] = seq;
                received[id]++;
                o += l;
            }
        };
        while (!done.get() || !r.isEmpty()) {
            r.drain(check, 1 << 16);
        }
        for (int t = 0; t < producers; t++) {
            assertEquals(perProducer, received[t] + drops[t], "producer " + t + ": received + dropped == written");
        }
    }

    @Test
    void anUncommittedRecordStopsTheReaderUntilItIsCommitted() throws Exception {
        MemorySegment[] cr = ring(4096);
        new TestProducer(cr[0], cr[1]).write(VprofRing.REC_KERNEL, 32, 1);
        cr[1].set(ValueLayout.JAVA_INT, 0, -32); // as if the producer were between its two length stores
        RingReader r = new RingReader(1, cr[0], cr[1]);
        Collector c = new Collector();
        assertEquals(0, r.drain(c, Long.MAX_VALUE));
        cr[1].set(ValueLayout.JAVA_INT, 0, 32);
        assertEquals(32, r.drain(c, Long.MAX_VALUE));
        assertEquals(1, c.records.size());
    }

    private void assertCorrupt(int length, int type, long offsetOfBadRecord) throws Exception {
        MemorySegment[] cr = ring(4096);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        p.write(VprofRing.REC_KERNEL, 32, 1);
        p.write(VprofRing.REC_KERNEL, 32, 2);
        long off = 64;
        if (offsetOfBadRecord >= 0) {
            off = offsetOfBadRecord;
            cr[0].set(ValueLayout.JAVA_LONG, Control.HEAD, off);
            cr[0].set(ValueLayout.JAVA_LONG, Control.TAIL, off + 8);
        }
        cr[1].set(ValueLayout.JAVA_INT, off + 4, type);
        cr[1].set(ValueLayout.JAVA_INT, off, length);
        RingReader r = new RingReader(1, cr[0], cr[1]);
        Collector c = new Collector();
        RingCorruptException e = assertThrows(RingCorruptException.class, () -> r.drain(c, Long.MAX_VALUE));
        assertTrue(e.getMessage().contains("pid 1"), e.getMessage());
        if (off == 64) {
            assertEquals(2, c.records.size(), "the good records before the bad one are kept");
        }
    }

    @Test
    void aLengthThatIsNotAMultipleOfEightIsRejected() throws Exception {
        assertCorrupt(12, VprofRing.REC_KERNEL, -1);
    }

    @Test
    void aLengthLongerThanTheLargestRecordIsRejected() throws Exception {
        assertCorrupt((int) VprofRing.RECORD_MAX + 8, VprofRing.REC_KERNEL, -1);
    }

    @Test
    void aRecordReachingPastTheRingsEndIsRejected() throws Exception {
        assertCorrupt(64, VprofRing.REC_KERNEL, 4096 - 32);
    }

    @Test
    void anUnknownTypeIsRejected() throws Exception {
        assertCorrupt(32, 99, -1);
    }

    @Test
    void paddingThatDoesNotEndAtTheRingsEndIsRejected() throws Exception {
        assertCorrupt(64, VprofRing.REC_PADDING, -1);
    }

    /** Found by RegionFuzzTest: an unaligned head made the reader throw IllegalArgumentException. */
    @Test
    void aReadPositionThatIsNotAMultipleOfEightIsRejected() {
        MemorySegment[] cr = ring(4096);
        cr[0].set(ValueLayout.JAVA_LONG, Control.HEAD, 57825);
        cr[0].set(ValueLayout.JAVA_LONG, Control.TAIL, 57825 + 64);
        RingReader r = new RingReader(1, cr[0], cr[1]);
        RingCorruptException e = assertThrows(RingCorruptException.class, () -> r.drain(new Collector(), Long.MAX_VALUE));
        assertTrue(e.getMessage().contains("read position at byte 57825"), e.getMessage());
    }

    @Test
    void leftoversOfAnEarlierCaptureCanBeDiscarded() {
        MemorySegment[] cr = ring(4096);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        for (int i = 0; i < 5; i++) {
            p.write(VprofRing.REC_KERNEL, 32, i);
        }
        RingReader r = new RingReader(1, cr[0], cr[1]);
        assertEquals(160, r.discardLeftovers());
        assertTrue(r.isEmpty());
        assertEquals(160, cr[0].get(ValueLayout.JAVA_LONG, Control.HEAD));
        assertEquals(0, cr[1].get(ValueLayout.JAVA_INT, 0));
        assertFalse(r.records() > 0);
    }
}
