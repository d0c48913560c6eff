package dev.vprof.drain;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The consumer side of one agent's ring (vprof_ring.h, after Agrona's ManyToOneRingBuffer).
 *
 * <p>Protocol: load the length at head with acquire; {@code <= 0} means the producer has not
 * committed it yet. Committed records are gathered into contiguous runs and handed to the sink as
 * one copy; then their bytes are zeroed (so a slot reads "uncommitted" when a producer claims it
 * again) and head is published with release, which is what lets producers reuse the space.
 *
 * <p>Every length and type is checked before it is used: a record that is not a multiple of 8,
 * shorter than a header, longer than VPROF_RECORD_MAX, reaching past the ring's end, or of an
 * unknown type makes {@link #drain} throw {@link RingCorruptException}. The reader never reads or
 * writes outside the ring, whatever the target wrote into it.
 *
 * <p>Confined to the one reader thread. No allocation per record or per call.
 */
public final class RingReader {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int HEADER = 8;
    private static final long RECORD_MAX = VprofRing.RECORD_MAX;
    private static final int TYPE_MAX = VprofRing.REC_TYPE_MAX;
    private static final int PADDING = VprofRing.REC_PADDING;
    private static final int RANGE = VprofRing.REC_RANGE;
    private static final int RANGE_BEGIN = VprofRing.RANGE_BEGIN;
    /** Zeroing source: copying from zeros avoids a slice allocation per run. */
    private static final MemorySegment ZEROS = Arena.global().allocate(64 * 1024, 8);

    private final int pid;
    private final MemorySegment control;
    private final MemorySegment ring;
    private final long mask;
    private long head;
    private final long[] recordsByType = new long[TYPE_MAX + 1];
    private long records;
    private long bytes;
    private long rangeBegins;
    private long unblockedRecords;
    private long unblockedBytes;

    /**
     * @param control the region's control block (head and tail live there)
     * @param ring    the ring bytes, a power of two long
     */
    public RingReader(int pid, MemorySegment control, MemorySegment ring) {
        long cap = ring.byteSize();
        if (Long.bitCount(cap) != 1 || cap < HEADER) {
            throw new IllegalArgumentException("ring capacity " + cap + " is not a power of two");
        }
        this.pid = pid;
        this.control = control;
        this.ring = ring;
        this.mask = cap - 1;
        this.head = (long) LONG.getAcquire(control, Control.HEAD);
    }

    public int pid() { return pid; }

    /**
     * Drains what is committed, up to about {@code maxBytes} (fairness between rings).
     *
     * @return bytes consumed, padding included; 0 when nothing was committed
     */
    public long drain(RecordSink sink, long maxBytes) throws IOException, RingCorruptException {
        final long cap = mask + 1;
        if ((head & 7) != 0) {
            // The agent only ever moves head by whole records; a region that says otherwise is damaged.
            throw new RingCorruptException("the ring of pid " + pid + " has its read position at byte " + head
                    + ", not a multiple of 8; stopped reading that process");
        }
        long consumed = 0;
        long runStart = head & mask; // start of the contiguous run not yet handed over
        long runLen = 0;
        while (consumed < maxBytes) {
            long off = (head + runLen) & mask;
            int len = (int) INT.getAcquire(ring, off);
            if (len <= 0) {
                break;
            }
            int type = ring.get(ValueLayout.JAVA_INT, off + 4);
            if ((len & 7) != 0 || len < HEADER || off + len > cap
                    || (len > RECORD_MAX && type != PADDING)) {
                flush(sink, runStart, runLen);
                throw new RingCorruptException("the ring of pid " + pid + " holds a record of length " + len
                        + " at offset " + off + " (must be a multiple of 8, 8.." + RECORD_MAX
                        + " bytes, inside the " + cap + "-byte ring); stopped reading that process");
            }
            if (type < 1 || type > TYPE_MAX) {
                flush(sink, runStart, runLen);
                throw new RingCorruptException("the ring of pid " + pid + " holds a record of unknown type "
                        + Integer.toUnsignedString(type) + " at offset " + off + "; stopped reading that process");
            }
            if (type == PADDING) {
                if (off + len != cap) {
                    flush(sink, runStart, runLen);
                    throw new RingCorruptException("the ring of pid " + pid + " holds a padding record at offset "
                            + off + " that does not end at the ring's end; stopped reading that process");
                }
                flush(sink, runStart, runLen);
                zero(off, len);
                head += len;
                LONG.setRelease(control, Control.HEAD, head);
                consumed += len;
                runStart = 0;
                runLen = 0;
                continue;
            }
            recordsByType[type]++;
            records++;
            if (type == RANGE && len >= 16 && ring.get(ValueLayout.JAVA_INT, off + 8) == RANGE_BEGIN) {
                rangeBegins++;
            }
            runLen += len;
            consumed += len;
            if (off + len == cap) {
                // A run never crosses the ring's end: hand it over and start again at 0.
                flush(sink, runStart, runLen);
                runStart = 0;
                runLen = 0;
            }
        }
        flush(sink, runStart, runLen);
        return consumed;
    }

    private void flush(RecordSink sink, long start, long len) throws IOException {
        if (len == 0) {
            return;
        }
        sink.records(pid, ring, start, len);
        bytes += len;
        zero(start, len);
        head += len;
        LONG.setRelease(control, Control.HEAD, head);
    }

    private void zero(long off, long len) {
        while (len > 0) {
            long n = Math.min(len, ZEROS.byteSize());
            MemorySegment.copy(ZEROS, 0, ring, off, n);
            off += n;
            len -= n;
        }
    }

    /** True when nothing is committed at head and the producers claimed nothing beyond it. */
    public boolean isEmpty() {
        return (long) LONG.getAcquire(control, Control.TAIL) == head;
    }

    /** How full the ring is, 0..100, from the producers' tail and this reader's head. */
    public int fillPercent() {
        long used = (long) LONG.getAcquire(control, Control.TAIL) - head;
        if (used <= 0) {
            return 0;
        }
        return (int) Math.min(100, used * 100 / (mask + 1));
    }

    /**
     * Throws away what is in the ring without reading it: records an earlier front end left behind
     * (it was killed mid-capture). Only safe while no producer writes, i.e. the agent is DORMANT.
     *
     * @return bytes discarded
     */
    public long discardLeftovers() {
        long tail = (long) LONG.getAcquire(control, Control.TAIL);
        long n = tail - head;
        if (n <= 0 || n > mask + 1) {
            return 0;
        }
        long off = head & mask;
        long first = Math.min(n, (mask + 1) - off);
        zero(off, first);
        if (n > first) {
            zero(0, n - first);
        }
        head = tail;
        LONG.setRelease(control, Control.HEAD, head);
        return n;
    }

    /**
     * Unblocks a ring whose producer is gone (its process exited, as its pidfd says): the record
     * at head was claimed and never committed, so nothing after it could ever be read. As
     * Agrona's {@code ManyToOneRingBuffer.unblock()} does, the claimed span is consumed as
     * padding: a negative length (written, not committed) gives its size; a zero length (claimed,
     * nothing written yet) spans the zeroed bytes up to the next record a producer wrote, or to
     * the ring's end or the tail. Only for a ring no producer can write any more.
     *
     * @return bytes consumed as padding; 0 when head is not blocked (empty, or committed)
     */
    public long unblock() {
        final long cap = mask + 1;
        long tail = (long) LONG.getAcquire(control, Control.TAIL);
        long pending = tail - head;
        if (pending <= 0 || pending > cap || (head & 7) != 0) {
            return 0;
        }
        long off = head & mask;
        int len = (int) INT.getAcquire(ring, off);
        if (len > 0) {
            return 0; // committed: drain reads it
        }
        long span;
        long limit = Math.min(pending, cap - off);
        if (len < 0 && (-(long) len & 7) == 0 && -(long) len >= HEADER && -(long) len <= limit) {
            span = -(long) len;
        } else {
            // Claimed before its length was stored: everything up to the next header written is ours
            // (the consumer zeroed it), so the first non-zero length word ends the span.
            span = HEADER;
            while (span < limit && (int) INT.getAcquire(ring, off + span) == 0) {
                span += HEADER;
            }
        }
        zero(off, span);
        head += span;
        LONG.setRelease(control, Control.HEAD, head);
        unblockedRecords++;
        unblockedBytes += span;
        return span;
    }

    /** Claimed-and-never-committed spans {@link #unblock} consumed, and their bytes. */
    public long unblockedRecords() { return unblockedRecords; }

    public long unblockedBytes() { return unblockedBytes; }

    public long head() { return head; }

    /** Records handed to the sink (padding not counted). */
    public long records() { return records; }

    /** Bytes handed to the sink. */
    public long bytes() { return bytes; }

    /** RANGE records that begin a capture range. */
    public long rangesBegun() { return rangeBegins; }

    /** Records of one VPROF_REC_* type handed to the sink. */
    public long records(int type) {
        return type >= 0 && type < recordsByType.length ? recordsByType[type] : 0;
    }
}
