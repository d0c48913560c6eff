package dev.vprof.nsys;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureWriter;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Ring records as an agent writes them, encoded into one 64 KiB block and handed to the capture
 * writer in runs of one process: rows of several processes come interleaved (they are read in
 * start order across the export), and the writer keeps a chunk per process.
 */
final class RecordOut implements AutoCloseable {
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final int BLOCK = 64 << 10;

    private final CaptureWriter writer;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment block = arena.allocate(BLOCK, 8);
    private int pid;
    private int pos;

    RecordOut(CaptureWriter writer) {
        this.writer = writer;
    }

    /** The block records are written into; valid until the next {@link #begin}. */
    MemorySegment segment() {
        return block;
    }

    /**
     * Room for a record of {@code size} bytes (header included) of {@code type} for process
     * {@code pid}, zeroed, its header written: its offset in {@link #segment}.
     */
    long begin(int pid, long size, int type) throws IOException {
        int len = (int) ((size + 7) & ~7L);
        if (pos > 0 && (pid != this.pid || pos + len > BLOCK)) {
            flush();
        }
        this.pid = pid;
        long at = pos;
        block.asSlice(at, len).fill((byte) 0);
        block.set(INT, at + VprofRing.RecordHeader.LENGTH, len);
        block.set(INT, at + VprofRing.RecordHeader.TYPE, type);
        pos += len;
        return at;
    }

    /** Hands what the block holds to the writer. */
    void flush() throws IOException {
        if (pos > 0) {
            writer.records(pid, block, 0, pos);
            pos = 0;
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
