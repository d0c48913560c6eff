package dev.vprof.nsys;

import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.RecordEncoder;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Ring records as an agent writes them, encoded into one 64 KiB block and handed to the capture
 * writer in runs of one process: rows of several processes come interleaved (they are read in
 * start order across the export), and the writer keeps a chunk per process.
 */
final class RecordOut implements AutoCloseable, RecordEncoder.Room {
    private static final int BLOCK = 64 << 10;

    private final CaptureWriter writer;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment block = arena.allocate(BLOCK, 8);
    /** The process of the records in the block. */
    private int blockPid;
    /** The process the next record is of ({@link #to}). */
    private int pid;
    private int pos;

    RecordOut(CaptureWriter writer) {
        this.writer = writer;
    }

    /** Makes the records that follow process {@code pid}'s: this, to write them with {@link RecordEncoder}. */
    RecordOut to(int pid) {
        this.pid = pid;
        return this;
    }

    @Override
    public MemorySegment segment() {
        return block;
    }

    /**
     * Room for a record of {@code size} bytes (header included) of {@code type} for the process
     * named by {@link #to}, zeroed, its header written: its offset in {@link #segment}.
     */
    @Override
    public long begin(long size, int type) throws IOException {
        int len = RecordEncoder.length(size);
        if (pos > 0 && (pid != blockPid || pos + len > BLOCK)) {
            flush();
        }
        blockPid = pid;
        long at = pos;
        RecordEncoder.header(block, at, len, type);
        pos += len;
        return at;
    }

    /** Hands what the block holds to the writer. */
    void flush() throws IOException {
        if (pos > 0) {
            writer.records(blockPid, block, 0, pos);
            pos = 0;
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
