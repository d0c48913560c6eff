package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.ArgsRecord;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One process's ARGS object put together from its records (vprof_ring.h): the first piece is
 * flagged FIRST, the last LAST (one piece: both), and the pieces of one object come one after
 * another with nothing between them. Lengths are checked against the record and
 * {@link ArgsCodec#MAX_BYTES}, so a damaged or hostile file cannot make it hold more than that.
 */
final class ArgsPieces {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private byte[] buf;
    private int fill;
    private int target;
    private boolean open;

    /**
     * A completed object: its bytes are {@code segment[from, from+length)}, valid until the next
     * {@link #add}; {@code target} is the record type it belongs to (0: the process).
     */
    record Whole(MemorySegment segment, long from, int length, int target) {}

    /** Adds the ARGS record at {@code seg[pos, pos+len)}: the object it completes, or null. */
    Whole add(MemorySegment seg, long pos, int len) throws ArgsCodec.Malformed {
        if (len < ArgsRecord.SIZE) {
            throw new ArgsCodec.Malformed("an ARGS record shorter than its header");
        }
        int t = Short.toUnsignedInt(seg.get(SHORT, pos + ArgsRecord.TARGET));
        int flags = Short.toUnsignedInt(seg.get(SHORT, pos + ArgsRecord.FLAGS));
        int n = seg.get(INT, pos + ArgsRecord.LEN);
        boolean first = (flags & VprofRing.ARGS_FIRST) != 0;
        boolean last = (flags & VprofRing.ARGS_LAST) != 0;
        if (n < 0 || n > len - ArgsRecord.SIZE || !isTarget(t) || (flags & ~(VprofRing.ARGS_FIRST | VprofRing.ARGS_LAST)) != 0) {
            open = false;
            throw new ArgsCodec.Malformed("an ARGS piece out of bounds");
        }
        long at = pos + ArgsRecord.SIZE;
        if (first && last) {
            open = false;
            return new Whole(seg, at, n, t);
        }
        if (first) {
            open = true;
            target = t;
            fill = 0;
        } else if (!open || t != target) {
            open = false;
            throw new ArgsCodec.Malformed("an ARGS piece without its first");
        }
        if (fill + (long) n > ArgsCodec.MAX_BYTES) {
            open = false;
            throw new ArgsCodec.Malformed("an ARGS object over " + ArgsCodec.MAX_BYTES + " bytes");
        }
        if (buf == null || buf.length < fill + n) {
            buf = Arrays.copyOf(buf == null ? new byte[0] : buf, Math.min(ArgsCodec.MAX_BYTES,
                    Math.max(fill + n, buf == null ? 8192 : buf.length * 2)));
        }
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, at, buf, fill, n);
        fill += n;
        if (!last) {
            return null;
        }
        open = false;
        return new Whole(MemorySegment.ofArray(buf), 0, fill, t);
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
