package dev.vprof.testing;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A Java producer following the ring's commit protocol (vprof_ring.h), as the agent does in C:
 * CAS the tail forward (claiming a PADDING record too when the record would cross the end),
 * store -len, write type and payload, store +len with release. A full ring drops, never waits.
 * Thread safe: many producers may share one.
 */
public final class TestProducer {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment control;
    private final MemorySegment ring;
    private final long cap;

    public TestProducer(MemorySegment control, MemorySegment ring) {
        this.control = control;
        this.ring = ring;
        this.cap = ring.byteSize();
    }

    /**
     * Publishes one record of {@code length} bytes (header included, a multiple of 8, >= 16) whose
     * first payload long is {@code stamp}; the rest of the payload repeats its low byte.
     *
     * @return false when the ring had no room (the record is dropped)
     */
    public boolean write(int type, int length, long stamp) {
        long tail;
        long off;
        long padding;
        while (true) {
            tail = (long) LONG.getAcquire(control, Control.TAIL);
            long head = (long) LONG.getAcquire(control, Control.HEAD);
            off = tail & (cap - 1);
            padding = off + length > cap ? cap - off : 0;
            long needed = padding + length;
            if (needed > cap - (tail - head)) {
                return false;
            }
            if (LONG.compareAndSet(control, Control.TAIL, tail, tail + needed)) {
                break;
            }
        }
        if (padding > 0) {
            INT.setOpaque(ring, off, (int) -padding);
            ring.set(ValueLayout.JAVA_INT, off + 4, VprofRing.REC_PADDING);
            INT.setRelease(ring, off, (int) padding);
            off = 0;
        }
        INT.setOpaque(ring, off, -length);
        ring.set(ValueLayout.JAVA_INT, off + 4, type);
        ring.set(ValueLayout.JAVA_LONG, off + 8, stamp);
        for (long i = 16; i < length; i++) {
            ring.set(ValueLayout.JAVA_BYTE, off + i, (byte) stamp);
        }
        INT.setRelease(ring, off, length);
        return true;
    }
}
