package dev.vprof.engine;

import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.drain.RecordSink;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * Where a capture goes. In production a {@link CaptureWriter}, or, for {@code vprof watch}, a
 * rolling set of such files (dev.vprof.watch) made by the {@link Factory} of {@link Started#output};
 * tests substitute a recorder so the session logic is checked without a file format. Called only
 * from the capture's drain thread.
 */
public interface CaptureOutput extends RecordSink, AutoCloseable {
    /** Makes the output of a capture once its agents are armed ({@link Capture#start}). */
    @FunctionalInterface
    interface Factory {
        /** The output, its metadata chunk written; {@code startEpochNs} is the metadata's window start. */
        CaptureOutput open(CaptureMetadata metadata, long startEpochNs) throws IOException;
    }

    void process(ProcessInfo info) throws IOException;

    void processEnd(int pid, AgentCounters counters) throws IOException;

    /** One chunk the capture feeds write (METRICS, SPANS, WINDOW); see {@link CaptureWriter#chunk}. */
    void chunk(int kind, byte[] payload) throws IOException;

    /**
     * Epoch ns at which the capture began (the metadata's start, recorded there as
     * {@code window_start_epoch_ns}); 0 when the output does not know it.
     */
    default long startEpochNs() {
        return 0;
    }

    /** Called every turn of the drain loop: write what has waited long enough ({@link CaptureWriter#flushIfDue}). */
    default void flushIfDue(long nowNs) throws IOException {
    }

    /** The file's writer, for sources that write records of their own (vLLM's torch traces); null in tests. */
    default CaptureWriter writer() {
        return null;
    }

    /** Bytes written to the file so far, for the sentence a write failure ends with; 0 when unknown. */
    default long bytesWritten() {
        return 0;
    }

    /**
     * Whether the output wants its next segment to begin now ({@code vprof watch}'s rolling files);
     * a single file never does. Asked every turn of the drain loop.
     */
    default boolean cutDue(long nowNs) {
        return false;
    }

    /**
     * The next segment begins: {@code sinceJoined} holds each process still in the capture with its
     * agent's counters since it joined, read just now, so that the segment that ends can carry its
     * share of them.
     */
    default void cut(Map<Integer, AgentCounters> sinceJoined) throws IOException {
    }

    @Override
    void close() throws IOException;

    static CaptureOutput of(CaptureWriter w, long startEpochNs) {
        return new CaptureOutput() {
            @Override public void process(ProcessInfo info) throws IOException { w.process(info); }
            @Override public void records(int pid, MemorySegment src, long offset, long length) throws IOException {
                w.records(pid, src, offset, length);
            }
            @Override public void processEnd(int pid, AgentCounters c) throws IOException { w.processEnd(pid, c); }
            @Override public void chunk(int kind, byte[] payload) throws IOException { w.chunk(kind, payload); }
            @Override public long startEpochNs() { return startEpochNs; }
            @Override public void flushIfDue(long nowNs) throws IOException { w.flushIfDue(nowNs); }
            @Override public CaptureWriter writer() { return w; }
            @Override public long bytesWritten() { return w.size(); }
            @Override public void close() throws IOException { w.close(); }
        };
    }
}
