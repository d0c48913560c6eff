package dev.vprof.capture;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Writes a .vprof capture file (DESIGN §5). Confined to the one thread that drains
 * the rings. CONTRACT SKELETON: implemented in the capture-file work.
 */
public final class CaptureWriter implements Closeable {

    /** Creates (truncates) the file and writes the header and the metadata chunk. */
    public static CaptureWriter create(Path path, CaptureMetadata metadata) throws IOException {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** A process joined the capture: one PROCESS chunk. Call before its records. */
    public void process(ProcessInfo info) throws IOException {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Whole, already validated records of process {@code pid}, in the ring's own
     * encoding (PADDING records removed), copied from {@code src[offset, offset+length)}.
     * Buffered into RECORDS chunks; draining is a copy, not a re-encode.
     */
    public void records(int pid, MemorySegment src, long offset, long length) throws IOException {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** The agent's counters for this capture (deltas since attach) when a process leaves it. */
    public void processEnd(int pid, AgentCounters counters) throws IOException {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** Flushes the last chunk and writes the footer index. */
    @Override
    public void close() throws IOException {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
