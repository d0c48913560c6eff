package dev.vprof.trace;

import dev.vprof.bindings.VprofRing.ApiRecord;
import dev.vprof.bindings.VprofRing.CpuOpRecord;
import dev.vprof.bindings.VprofRing.KernelRecord;
import dev.vprof.bindings.VprofRing.MarkerRecord;
import dev.vprof.bindings.VprofRing.MemcpyRecord;
import dev.vprof.bindings.VprofRing.MemsetRecord;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.RecordEncoder;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Ring records of one trace file, encoded as they are read and kept until the file's end: a
 * PyTorch profiler trace names its time base ({@code baseTimeNanoseconds}), its rank and its
 * devices anywhere in the top-level object, often after the events, so the records wait here
 * with times relative to the base, and {@link #writeTo} adds the base as it hands them to the
 * capture. One 1 MiB block lives in memory; full blocks go to a temporary file, so the heap does
 * not grow with the trace.
 */
final class RecordSpill implements Closeable, RecordEncoder.Room {
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int BLOCK = 1 << 20;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment block = arena.allocate(BLOCK, 8);
    private final Path spillDir;
    private Path spillFile;
    private FileChannel spill;
    private long spilled;
    private int pos;
    private long records;

    RecordSpill(Path spillDir) {
        this.spillDir = spillDir;
    }

    private boolean parked;

    /**
     * Moves what is held in memory to the file and frees the memory block: for a trace read while
     * others are read before any is written (a folder of ranks), so each waits on disk, not in RAM.
     * Nothing may be added afterwards.
     */
    void park() throws IOException {
        if (parked) {
            return;
        }
        if (pos > 0) {
            spillBlock();
        }
        parked = true;
        arena.close();
    }

    /** The block records are written into; valid until the next {@link #begin}. */
    @Override
    public MemorySegment segment() {
        return block;
    }

    /** Room for a record of {@code size} bytes (header included) of {@code type}: its offset in {@link #segment}. */
    @Override
    public long begin(long size, int type) throws IOException {
        if (parked) {
            throw new IllegalStateException("records added after park()");
        }
        int len = RecordEncoder.length(size);
        if (pos + len > BLOCK) {
            spillBlock();
        }
        long at = pos;
        RecordEncoder.header(block, at, len, type);
        pos += len;
        records++;
        return at;
    }

    long records() {
        return records;
    }

    /** Bytes of records held (memory and file). */
    long bytes() {
        return spilled + pos;
    }

    private void spillBlock() throws IOException {
        if (spill == null) {
            spillFile = Files.createTempFile(spillDir, "vprof-trace-", ".records");
            spill = FileChannel.open(spillFile, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.DELETE_ON_CLOSE);
        }
        var buf = block.asSlice(0, pos).asByteBuffer();
        while (buf.hasRemaining()) {
            spill.write(buf, spilled + buf.position());
        }
        spilled += pos;
        pos = 0;
    }

    /**
     * Hands every record to {@code writer} as process {@code pid}'s, in the order written, each
     * time moved by {@code baseNs} (relative trace time to epoch ns).
     */
    void writeTo(CaptureWriter writer, int pid, long baseNs) throws IOException {
        if (spill != null) {
            long at = 0;
            var buf = ByteBuffer.allocateDirect(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
            MemorySegment seg = MemorySegment.ofBuffer(buf);
            while (at < spilled) {
                buf.clear();
                // Blocks were written whole and records never cross one, so a block read back
                // from its start holds whole records.
                int want = (int) Math.min(BLOCK, spilled - at);
                buf.limit(want);
                while (buf.hasRemaining()) {
                    if (spill.read(buf, at + buf.position()) < 0) {
                        throw new IOException("the trace's spill file " + spillFile + " ended early");
                    }
                }
                int len = wholeRecords(seg, want);
                shift(seg, len, baseNs);
                writer.records(pid, seg, 0, len);
                at += len;
            }
        }
        if (!parked) {
            shift(block, pos, baseNs);
            writer.records(pid, block, 0, pos);
        }
    }

    /** The length of the whole records at the start of {@code seg[0, n)}. */
    private static int wholeRecords(MemorySegment seg, int n) {
        int at = 0;
        while (at + 8 <= n) {
            int len = seg.get(INT, at);
            if (len <= 0 || at + len > n) {
                break;
            }
            at += len;
        }
        return at;
    }

    /** Adds {@code baseNs} to every time of the records in {@code seg[0, n)}. */
    static void shift(MemorySegment seg, int n, long baseNs) {
        if (baseNs == 0) {
            return;
        }
        int at = 0;
        while (at < n) {
            int len = seg.get(INT, at);
            int type = seg.get(INT, at + 4);
            switch (type) {
                case VprofRing.REC_KERNEL -> add2(seg, at + KernelRecord.START, at + KernelRecord.END, baseNs);
                case VprofRing.REC_MEMCPY -> add2(seg, at + MemcpyRecord.START, at + MemcpyRecord.END, baseNs);
                case VprofRing.REC_MEMSET -> add2(seg, at + MemsetRecord.START, at + MemsetRecord.END, baseNs);
                case VprofRing.REC_API -> add2(seg, at + ApiRecord.START, at + ApiRecord.END, baseNs);
                case VprofRing.REC_CPU_OP -> add2(seg, at + CpuOpRecord.START, at + CpuOpRecord.END, baseNs);
                case VprofRing.REC_MARKER -> seg.set(LONG, at + MarkerRecord.TIMESTAMP,
                        seg.get(LONG, at + MarkerRecord.TIMESTAMP) + baseNs);
                default -> { }
            }
            at += len;
        }
    }

    private static void add2(MemorySegment seg, long a, long b, long baseNs) {
        seg.set(LONG, a, seg.get(LONG, a) + baseNs);
        seg.set(LONG, b, seg.get(LONG, b) + baseNs);
    }

    @Override
    public void close() throws IOException {
        try {
            if (spill != null) {
                spill.close();
            }
        } finally {
            if (!parked) {
                arena.close();
            }
            if (spillFile != null) {
                Files.deleteIfExists(spillFile);
            }
        }
    }
}
