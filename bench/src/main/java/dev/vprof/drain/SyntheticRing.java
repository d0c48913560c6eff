package dev.vprof.drain;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A vprof ring in plain memory with one producer (the commit protocol without the CAS) and the
 * real {@link RingReader} draining it into a copying sink, as the capture writer copies. Shared
 * by the benchmarks that need a front end draining; not thread-safe (one thread publishes and drains).
 */
public final class SyntheticRing implements AutoCloseable {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Arena arena = Arena.ofShared();
    private final int capacity;
    private final int recordSize;
    private final MemorySegment control;
    private final MemorySegment ring;
    private final MemorySegment copyTarget;
    private final RingReader reader;
    private final RecordSink sink;
    private long tail;
    private long copyPos;

    public SyntheticRing(int capacity, int recordSize) {
        this.capacity = capacity;
        this.recordSize = recordSize;
        control = arena.allocate(VprofRing.CONTROL_SIZE, 4096);
        ring = arena.allocate(capacity, 4096);
        copyTarget = arena.allocate(capacity, 4096);
        reader = new RingReader(1, control, ring);
        sink = (pid, src, offset, length) -> {
            if (copyPos + length > copyTarget.byteSize()) {
                copyPos = 0;
            }
            MemorySegment.copy(src, offset, copyTarget, copyPos, length);
            copyPos += length;
        };
    }

    /** Publishes {@code n} KERNEL records (claim, type and payload, release the length; padding at the wrap). */
    public void publish(int n) {
        final long mask = capacity - 1;
        final int len = recordSize;
        for (int i = 0; i < n; i++) {
            long off = tail & mask;
            if (off + len > capacity) {
                int pad = (int) (capacity - off);
                ring.set(ValueLayout.JAVA_INT, off + 4, (int) VprofRing.REC_PADDING);
                INT.setRelease(ring, off, pad);
                tail += pad;
                off = 0;
            }
            ring.set(ValueLayout.JAVA_INT, off + 4, (int) VprofRing.REC_KERNEL);
            for (int p = 8; p < len; p += 8) {
                ring.set(ValueLayout.JAVA_LONG, off + p, tail + p);
            }
            INT.setRelease(ring, off, len);
            tail += len;
        }
        LONG.setRelease(control, Control.TAIL, tail);
    }

    /** Drains everything published; returns the bytes consumed. */
    public long drain() throws IOException, RingCorruptException {
        return reader.drain(sink, Long.MAX_VALUE);
    }

    @Override
    public void close() {
        arena.close();
    }
}
