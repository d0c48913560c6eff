package dev.vprof.watch;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.DeviceRecord;
import dev.vprof.bindings.VprofRing.KernelDescRecord;
import dev.vprof.bindings.VprofRing.RangeRecord;
import dev.vprof.bindings.VprofRing.StringRecord;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one process's records refer back to, kept so that every segment decodes on its own. The
 * agent sends each name (STRING) and launch shape (KERNEL_DESC) once per arming and then refers to
 * it by id; a DEVICE record once per device and arming; a CLOCK_SYNC pair each second; a RANGE
 * BEGIN when a capture range opens. A segment
 * that begins after them would show its kernels as {@code <unknown kernel>}, its devices unnamed
 * and its clock unfitted, and once the segment that held them is deleted nothing would. So each
 * segment begins with the latest of each, as the ring encoded them (the file's decoder takes an id
 * seen again as a replacement, the same content here), and a dump made of several segments keeps
 * only the first segment's copy ({@link Segment#bodyOffset}).
 *
 * <p>Bounded: at most {@link #MAX_BYTES} of records per process (a server with tens of thousands of
 * distinct kernels holds a few MiB); past that new entries are not kept and counted, and segments
 * begun later may name some kernels {@code <unknown kernel>}, which their report says.
 */
final class Prelude {
    static final long MAX_BYTES = 16L << 20;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** type << 32 | id (CLOCK_SYNC: the type alone, only the latest) to the record's bytes, in first-seen order. */
    private final Map<Long, byte[]> records = new LinkedHashMap<>();
    private long bytes;
    private long notKept;

    /** Looks at one whole record at {@code pos}; keeps it when it is one a later segment needs. */
    void see(MemorySegment src, long pos, int len, int type) {
        long key;
        if (type == VprofRing.REC_STRING && len >= StringRecord.SIZE) {
            key = key(type, src.get(INT, pos + StringRecord.ID));
        } else if (type == VprofRing.REC_KERNEL_DESC && len >= KernelDescRecord.ID + 4) {
            key = key(type, src.get(INT, pos + KernelDescRecord.ID));
        } else if (type == VprofRing.REC_DEVICE && len >= DeviceRecord.ID + 4) {
            key = key(type, src.get(INT, pos + DeviceRecord.ID));
        } else if (type == VprofRing.REC_CLOCK_SYNC) {
            key = key(type, 0);
        } else if (type == VprofRing.REC_RANGE && len >= RangeRecord.EDGE + 4) {
            // The open range's BEGIN, so that a segment's records belong to the range they were
            // recorded in and a dump that holds the END holds its BEGIN too; gone at the END.
            int edge = src.get(INT, pos + RangeRecord.EDGE);
            key = key(type, 0);
            if (edge == VprofRing.RANGE_END) {
                byte[] begin = records.remove(key);
                bytes -= begin == null ? 0 : begin.length;
                return;
            }
            if (edge != VprofRing.RANGE_BEGIN) {
                return;
            }
        } else {
            return;
        }
        byte[] old = records.get(key);
        long grow = (long) len - (old == null ? 0 : old.length);
        if (bytes + grow > MAX_BYTES) {
            notKept++;
            return;
        }
        byte[] copy = old != null && old.length == len ? old : new byte[len];
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, pos, copy, 0, len);
        records.put(key, copy);
        bytes += grow;
    }

    private static long key(int type, int id) {
        return ((long) type << 32) | Integer.toUnsignedLong(id);
    }

    /** The kept records, one after another, in the ring's encoding. */
    byte[] bytes() {
        byte[] out = new byte[(int) bytes];
        int at = 0;
        for (byte[] r : records.values()) {
            System.arraycopy(r, 0, out, at, r.length);
            at += r.length;
        }
        return out;
    }

    long size() {
        return bytes;
    }

    /** Entries not kept because the bound was reached. */
    long notKept() {
        return notKept;
    }
}
