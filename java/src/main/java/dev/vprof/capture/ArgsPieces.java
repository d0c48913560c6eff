package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.ArgsRecord;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * One process's ARGS object put together from its records (vprof_ring.h): a piece names the
 * object's whole length and where it goes; the pieces of one object come in order with nothing
 * between them. Lengths are checked against the record and {@link ArgsCodec#MAX_BYTES}, so a
 * damaged or hostile file cannot make it hold more than that.
 */
final class ArgsPieces {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private byte[] buf;
    private int target;
    private int total;
    private int fill;
    // The object the last add completed.
    private MemorySegment segment;
    private long from;
    private int length;

    /**
     * Adds the ARGS record at {@code seg[pos, pos+len)}: true when it completes an object, which
     * {@link #segment()}, {@link #from()}, {@link #length()} and {@link #target()} then name.
     */
    boolean add(MemorySegment seg, long pos, int len) throws ArgsCodec.Malformed {
        if (len < ArgsRecord.SIZE) {
            throw new ArgsCodec.Malformed("an ARGS record shorter than its header");
        }
        int t = seg.get(INT, pos + ArgsRecord.TARGET);
        int whole = seg.get(INT, pos + ArgsRecord.TOTAL_LEN);
        int offset = seg.get(INT, pos + ArgsRecord.OFFSET);
        int n = seg.get(INT, pos + ArgsRecord.LEN);
        if (n < 0 || n > len - ArgsRecord.SIZE || whole <= 0 || whole > ArgsCodec.MAX_BYTES || offset < 0
                || offset > whole - n || !isTarget(t)) {
            buf = null;
            throw new ArgsCodec.Malformed("an ARGS piece out of bounds");
        }
        long at = pos + ArgsRecord.SIZE;
        if (offset == 0 && n == whole) {
            buf = null;
            return done(seg, at, whole, t);
        }
        if (offset == 0) {
            buf = new byte[whole];
            target = t;
            total = whole;
            fill = 0;
        } else if (buf == null || offset != fill || t != target || whole != total) {
            buf = null;
            throw new ArgsCodec.Malformed("an ARGS piece out of order");
        }
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, at, buf, offset, n);
        fill += n;
        if (fill < total) {
            return false;
        }
        byte[] b = buf;
        buf = null;
        return done(MemorySegment.ofArray(b), 0, b.length, t);
    }

    private boolean done(MemorySegment seg, long at, int n, int t) {
        segment = seg;
        from = at;
        length = n;
        target = t;
        return true;
    }

    MemorySegment segment() {
        return segment;
    }

    long from() {
        return from;
    }

    int length() {
        return length;
    }

    /** The record type the object belongs to (0: the process). */
    int target() {
        return target;
    }

    /** Whether an ARGS record may name {@code target}: the process (0) or a record of one event. */
    static boolean isTarget(int target) {
        return switch (target) {
            case 0, VprofRing.REC_KERNEL, VprofRing.REC_MEMCPY, VprofRing.REC_MEMSET, VprofRing.REC_MARKER,
                 VprofRing.REC_API, VprofRing.REC_SYNC, VprofRing.REC_CPU_OP -> true;
            default -> false;
        };
    }
}
