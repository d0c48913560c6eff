package dev.vprof.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.testing.TestProducer;
import dev.vprof.testing.TestRegions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A record claimed and never committed by a producer that died mid-write no longer blocks the
 * ring: {@link RingReader#unblock} consumes it as padding, counts it, and the records committed
 * after it are read.
 */
class DeadProducerUnblockTest {
    private static final int KERNEL = VprofRing.REC_KERNEL;
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    /** What a producer leaves when it dies after its CAS: the tail moved, and -len stored or not. */
    private static void claimAndDie(MemorySegment control, MemorySegment ring, int length, boolean storedLength) {
        long tail = control.get(ValueLayout.JAVA_LONG, Control.TAIL);
        control.set(ValueLayout.JAVA_LONG, Control.TAIL, tail + length);
        if (storedLength) {
            long off = tail & (ring.byteSize() - 1);
            ring.set(ValueLayout.JAVA_INT, off, -length);
            ring.set(ValueLayout.JAVA_INT, off + 4, KERNEL);
            ring.set(ValueLayout.JAVA_LONG, off + 8, 99); // half its payload
        }
    }

    private void blockedThenUnblocked(boolean storedLength) throws Exception {
        MemorySegment[] cr = TestRegions.inMemory(arena, 4096);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        assertTrue(p.write(KERNEL, 32, 1));
        claimAndDie(cr[0], cr[1], 48, storedLength);
        assertTrue(p.write(KERNEL, 32, 2));
        assertTrue(p.write(KERNEL, 40, 3));

        RingReader r = new RingReader(7, cr[0], cr[1]);
        RingReaderTest.Collector c = new RingReaderTest.Collector();
        assertEquals(32, r.drain(c, Long.MAX_VALUE));
        assertEquals(0, r.drain(c, Long.MAX_VALUE), "blocked at the claimed record");
        assertEquals(1, c.records.size());

        assertEquals(48, r.unblock(), "the claimed span, consumed as padding");
        assertEquals(72, r.drain(c, Long.MAX_VALUE));
        assertEquals(3, c.records.size());
        assertEquals(2, c.records.get(1)[2]);
        assertEquals(3, c.records.get(2)[2]);
        assertTrue(r.isEmpty());
        assertEquals(1, r.unblockedRecords());
        assertEquals(48, r.unblockedBytes());
        assertEquals(3, r.records(), "the skipped claim is not a record");
        for (long i = 0; i < 32 + 48 + 72; i++) {
            assertEquals(0, cr[1].get(ValueLayout.JAVA_BYTE, i), "zeroed behind, byte " + i);
        }
        assertEquals(0, r.unblock(), "nothing left to unblock");
    }

    @Test
    void aRecordWrittenButNeverCommittedIsSkippedByItsOwnLength() throws Exception {
        blockedThenUnblocked(true);
    }

    @Test
    void aRecordClaimedBeforeItsLengthWasStoredIsSkippedUpToTheNextHeader() throws Exception {
        blockedThenUnblocked(false);
    }

    @Test
    void aCommittedOrEmptyHeadIsNotTouched() throws Exception {
        MemorySegment[] cr = TestRegions.inMemory(arena, 4096);
        RingReader r = new RingReader(7, cr[0], cr[1]);
        assertEquals(0, r.unblock(), "empty");
        new TestProducer(cr[0], cr[1]).write(KERNEL, 32, 5);
        assertEquals(0, r.unblock(), "committed: drain's to read");
        RingReaderTest.Collector c = new RingReaderTest.Collector();
        assertEquals(32, r.drain(c, Long.MAX_VALUE));
        assertEquals(5, c.records.getFirst()[2]);
    }

    @Test
    void aClaimAtTheRingsEndIsSkippedToTheEndAndReadingGoesOnFromZero() throws Exception {
        MemorySegment[] cr = TestRegions.inMemory(arena, 256);
        TestProducer p = new TestProducer(cr[0], cr[1]);
        RingReader r = new RingReader(7, cr[0], cr[1]);
        RingReaderTest.Collector c = new RingReaderTest.Collector();
        for (int i = 0; i < 6; i++) {
            assertTrue(p.write(KERNEL, 32, i)); // 192 bytes
        }
        assertEquals(192, r.drain(c, Long.MAX_VALUE));
        // a 48-byte record would cross the end: its producer died before it wrote the padding
        claimAndDie(cr[0], cr[1], 64 + 48, false);
        // the next producer's record starts at 48 after the wrap
        long tail = cr[0].get(ValueLayout.JAVA_LONG, Control.TAIL);
        assertEquals(192 + 112, tail);
        assertTrue(p.write(KERNEL, 32, 7));
        assertEquals(0, r.drain(c, Long.MAX_VALUE));
        assertEquals(64, r.unblock(), "to the ring's end");
        assertEquals(0, r.drain(c, Long.MAX_VALUE));
        assertEquals(48, r.unblock(), "then the wrapped claim");
        assertEquals(32, r.drain(c, Long.MAX_VALUE));
        assertEquals(7, c.records.getLast()[2]);
    }
}
