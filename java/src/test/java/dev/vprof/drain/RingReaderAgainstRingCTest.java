package dev.vprof.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link RingReader} against the agent's own producer: native/src/ring.c, built with its functions
 * exported into target/native/test/libvprof-ring.so (make check) and called through FFM from
 * several threads at once. No Java copy of the protocol takes part: the claims, the padding at
 * the wrap, the commits and the drop counting are ring.c's.
 */
class RingReaderAgainstRingCTest {
    /* enum vprof_ring_class */
    private static final int DATA = 0;
    private static final int CONTROL = 1;
    /* struct vprof_ring { control*, bytes*, uint64 capacity, uint64 mask } */
    private static final long RING_STRUCT = 32;

    private static Arena library;
    private static MethodHandle init;
    private static MethodHandle write;
    private static MethodHandle claim;
    private static MethodHandle commit;

    private final Arena arena = Arena.ofShared();

    @BeforeAll
    static void load() {
        Path lib = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"), "test", "libvprof-ring.so");
        assertTrue(Files.isRegularFile(lib), lib + " is built by `make -C native check` (mvn -B verify runs it)");
        library = Arena.ofShared();
        SymbolLookup ring = SymbolLookup.libraryLookup(lib, library);
        Linker linker = Linker.nativeLinker();
        init = linker.downcallHandle(ring.findOrThrow("vprof_ring_init"),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        write = linker.downcallHandle(ring.findOrThrow("vprof_ring_write"), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        claim = linker.downcallHandle(ring.findOrThrow("vprof_ring_claim"), FunctionDescriptor.of(ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        commit = linker.downcallHandle(ring.findOrThrow("vprof_ring_commit"),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    }

    @AfterAll
    static void unload() {
        library.close();
    }

    @AfterEach
    void close() {
        arena.close();
    }

    /** A region (control block + ring) and ring.c's struct bound to it. */
    private record Ring(MemorySegment control, MemorySegment bytes, MemorySegment struct) {}

    private Ring ring(long capacity) throws Throwable {
        MemorySegment region = arena.allocate(VprofRing.CONTROL_SIZE + capacity, 4096);
        MemorySegment control = region.asSlice(0, VprofRing.CONTROL_SIZE);
        control.set(ValueLayout.JAVA_LONG, Control.RING_CAPACITY, capacity);
        MemorySegment struct = arena.allocate(RING_STRUCT, 8);
        init.invokeExact(struct, region, capacity);
        return new Ring(control, region.asSlice(VprofRing.CONTROL_SIZE, capacity), struct);
    }

    /**
     * Publishes one record through ring.c: {@code length} bytes (header included, any size: ring.c
     * aligns it), the first payload long {@code stamp}, the rest of the payload its low byte.
     */
    private static boolean publish(Ring r, MemorySegment scratch, int type, int length, long stamp, int cls)
            throws Throwable {
        scratch.set(ValueLayout.JAVA_LONG, 8, stamp);
        scratch.asSlice(16, length - 16).fill((byte) stamp);
        return (int) write.invokeExact(r.struct(), type, scratch, length, cls) == 1;
    }

    private static long counter(Ring r, long offset) {
        return r.control().get(ValueLayout.JAVA_LONG, offset);
    }

    /** A sink that adds the stamp (the long at offset 8) of every record it is handed to {@code stamps}. */
    private static RecordSink stampsInto(List<Long> stamps) {
        return (pid, src, off, len) -> {
            for (long o = off; o < off + len; o += src.get(ValueLayout.JAVA_INT, o)) {
                stamps.add(src.get(ValueLayout.JAVA_LONG, o + 8));
            }
        };
    }

    @Test
    void recordsFromSeveralRingCProducerThreadsAreAllAccountedForIntactAndInOrder() throws Throwable {
        Ring r = ring(64 * 1024);
        int producers = 4;
        int perProducer = 40_000;
        long[] written = new long[producers];
        long[] dropped = new long[producers];
        AtomicInteger running = new AtomicInteger(producers);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < producers; t++) {
            final int id = t;
            threads.add(Thread.ofPlatform().name("ring.c producer " + t).start(() -> {
                try (Arena own = Arena.ofConfined()) {
                    MemorySegment scratch = own.allocate(VprofRing.RECORD_MAX, 8);
                    for (int i = 0; i < perProducer; i++) {
                        // Mostly kernel-sized records, some odd lengths, now and then a large one
                        // (a STRING), so that claims cross the ring's end and get padding.
                        int length = i % 97 == 0 ? 1000 + i % 3000 : 20 + i % 45;
                        int type = length > 100 ? VprofRing.REC_STRING : VprofRing.REC_KERNEL;
                        if (publish(r, scratch, type, length, ((long) id << 32) | i, DATA)) {
                            written[id]++;
                        } else {
                            dropped[id]++;
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    running.decrementAndGet();
                }
            }));
        }
        RingReader reader = new RingReader(1, r.control(), r.bytes());
        long[] next = new long[producers];
        long[] received = new long[producers];
        RecordSink check = (pid, src, off, len) -> {
            for (long o = off; o < off + len; ) {
                int l = src.get(ValueLayout.JAVA_INT, o);
                int type = src.get(ValueLayout.JAVA_INT, o + 4);
                long stamp = src.get(ValueLayout.JAVA_LONG, o + 8);
                int id = (int) (stamp >>> 32);
                long seq = stamp & 0xffffffffL;
                assertNotEquals(VprofRing.REC_PADDING, type, "padding is never handed over");
                assertTrue(seq >= next[id], "producer " + id + "'s records arrive in its order");
                int length = seq % 97 == 0 ? (int) (1000 + seq % 3000) : (int) (20 + seq % 45);
                assertEquals((length + 7) & ~7, l, "the aligned length ring.c wrote");
                for (long b = o + 16; b < o + length; b++) {
                    if (src.get(ValueLayout.JAVA_BYTE, b) != (byte) stamp) {
                        throw new AssertionError("payload byte " + (b - o) + " of " + id + "/" + seq + " is torn");
                    }
                }
                next[id] = seq + 1;
                received[id]++;
                o += l;
            }
        };
        while (running.get() > 0 || !reader.isEmpty()) {
            reader.drain(check, 1 << 14);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
        long drops = 0;
        for (int t = 0; t < producers; t++) {
            assertEquals(perProducer, written[t] + dropped[t]);
            assertEquals(written[t], received[t], "producer " + t + ": every record ring.c took arrives");
            drops += dropped[t];
        }
        assertEquals(drops, counter(r, Control.RING_DROPS), "ring.c counted each drop it reported");
        assertEquals(producers * (long) perProducer - drops, counter(r, Control.RECORDS));
        assertEquals(reader.records(), counter(r, Control.RECORDS), "the reader and ring.c agree on the records");
        assertTrue(reader.records(VprofRing.REC_STRING) > 0, "large records crossed the wrap");
        assertEquals(counter(r, Control.TAIL), reader.head(), "the reader caught up with every claim");
    }

    @Test
    void aRecordRingCClaimedButHasNotCommittedHoldsTheReaderBackUntilItIs() throws Throwable {
        Ring r = ring(64 * 1024);
        MemorySegment scratch = arena.allocate(VprofRing.RECORD_MAX, 8);
        assertTrue(publish(r, scratch, VprofRing.REC_KERNEL, 32, 1, DATA));
        MemorySegment held = ((MemorySegment) claim.invokeExact(r.struct(), VprofRing.REC_KERNEL, 32, DATA))
                .reinterpret(32);
        held.set(ValueLayout.JAVA_LONG, 8, 2L);
        assertTrue(publish(r, scratch, VprofRing.REC_KERNEL, 32, 3, DATA));
        List<Long> stamps = new ArrayList<>();
        RingReader reader = new RingReader(1, r.control(), r.bytes());
        reader.drain(stampsInto(stamps), Long.MAX_VALUE);
        assertEquals(List.of(1L), stamps, "nothing past the claimed record, though a later one is committed");
        commit.invokeExact(r.struct(), held);
        reader.drain(stampsInto(stamps), Long.MAX_VALUE);
        assertEquals(List.of(1L, 2L, 3L), stamps);
    }

    @Test
    void aFullRingDropsDataButKeepsItsReserveForControlRecords() throws Throwable {
        Ring r = ring(64 * 1024);
        MemorySegment scratch = arena.allocate(VprofRing.RECORD_MAX, 8);
        int kept = 0;
        while (publish(r, scratch, VprofRing.REC_KERNEL, 64, kept, DATA)) {
            kept++;
        }
        assertEquals(1, counter(r, Control.RING_DROPS));
        assertEquals(1, counter(r, Control.RING_DROPS_KERNELS), "a dropped KERNEL is counted as one");
        // RANGE and CLOCK_SYNC records may use the reserve: the end of a range is never lost to a full ring.
        assertTrue(publish(r, scratch, VprofRing.REC_RANGE, 48, -1, CONTROL));
        List<Integer> types = new ArrayList<>();
        RingReader reader = new RingReader(1, r.control(), r.bytes());
        reader.drain((pid, src, off, len) -> {
            for (long o = off; o < off + len; o += src.get(ValueLayout.JAVA_INT, o)) {
                types.add(src.get(ValueLayout.JAVA_INT, o + 4));
            }
        }, Long.MAX_VALUE);
        assertEquals(kept + 1, types.size(), "every record kept before the drop, and the control record");
        assertEquals(VprofRing.REC_RANGE, types.getLast());
        assertEquals(0, reader.discardLeftovers());
        // Drained: the room is back for ring.c's producers.
        assertTrue(publish(r, scratch, VprofRing.REC_KERNEL, 64, 0, DATA));
    }

    /** ring.c's own claim, never committed (its producer died mid-write), no longer blocks the Java reader. */
    @Test
    void aRingCClaimThatIsNeverCommittedIsUnblockedAndTheRecordsAfterItAreRead() throws Throwable {
        Ring r = ring(64 * 1024);
        MemorySegment scratch = arena.allocate(VprofRing.RECORD_MAX, 8);
        assertTrue(publish(r, scratch, VprofRing.REC_KERNEL, 64, 1, DATA));
        MemorySegment dead = (MemorySegment) claim.invokeExact(r.struct(), VprofRing.REC_KERNEL, 72, DATA);
        assertTrue(dead.address() != 0);
        assertTrue(publish(r, scratch, VprofRing.REC_KERNEL, 64, 2, DATA));
        List<Long> stamps = new ArrayList<>();
        RingReader reader = new RingReader(1, r.control(), r.bytes());
        reader.drain(stampsInto(stamps), Long.MAX_VALUE);
        assertEquals(List.of(1L), stamps, "blocked at the claim");
        assertEquals(72, reader.unblock(), "ring.c's aligned claim, consumed as padding");
        reader.drain(stampsInto(stamps), Long.MAX_VALUE);
        assertEquals(List.of(1L, 2L), stamps);
        assertTrue(reader.isEmpty());
        assertEquals(1, reader.unblockedRecords());
    }
}
