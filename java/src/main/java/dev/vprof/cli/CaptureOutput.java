package dev.vprof.cli;

import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.drain.RecordSink;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Where a capture goes. In production a {@link CaptureWriter}; tests substitute a recorder so the
 * session logic is checked without a file format.
 */
interface CaptureOutput extends RecordSink, AutoCloseable {
    void process(ProcessInfo info) throws IOException;

    void processEnd(int pid, AgentCounters counters) throws IOException;

    @Override
    void close() throws IOException;

    static CaptureOutput of(CaptureWriter w) {
        return new CaptureOutput() {
            @Override public void process(ProcessInfo info) throws IOException { w.process(info); }
            @Override public void records(int pid, MemorySegment src, long offset, long length) throws IOException {
                w.records(pid, src, offset, length);
            }
            @Override public void processEnd(int pid, AgentCounters c) throws IOException { w.processEnd(pid, c); }
            @Override public void close() throws IOException { w.close(); }
        };
    }
}
