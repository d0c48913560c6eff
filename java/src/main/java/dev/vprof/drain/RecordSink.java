package dev.vprof.drain;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Where drained records go: whole, validated records of one process in the ring's own encoding,
 * PADDING removed. {@code CaptureWriter::records} is one; tests and benchmarks use others.
 * The bytes are valid only during the call: the ring slot is reused right after it returns.
 */
@FunctionalInterface
public interface RecordSink {
    void records(int pid, MemorySegment src, long offset, long length) throws IOException;
}
