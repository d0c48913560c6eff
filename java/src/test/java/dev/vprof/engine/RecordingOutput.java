package dev.vprof.engine;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.ProcessInfo;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A capture output that remembers what it was given, checking the order of the calls. */
final class RecordingOutput implements CaptureOutput {
    final List<ProcessInfo> processes = new ArrayList<>();
    final Map<Integer, AgentCounters> ends = new HashMap<>();
    final Map<Integer, Long> kernels = new HashMap<>();
    final List<Integer> chunkKinds = new ArrayList<>();
    final List<byte[]> chunks = new ArrayList<>();
    boolean closed;

    @Override
    public void chunk(int kind, byte[] payload) {
        if (closed) {
            throw new AssertionError("chunk after close");
        }
        chunkKinds.add(kind);
        chunks.add(payload);
    }

    @Override
    public void process(ProcessInfo info) {
        processes.add(info);
    }

    @Override
    public void records(int pid, MemorySegment src, long offset, long length) {
        if (processes.stream().noneMatch(p -> p.pid() == pid) || ends.containsKey(pid)) {
            throw new AssertionError("records of pid " + pid + " outside its PROCESS .. end");
        }
        for (long o = offset; o < offset + length; ) {
            int len = src.get(ValueLayout.JAVA_INT, o);
            int type = src.get(ValueLayout.JAVA_INT, o + 4);
            if (type == VprofRing.REC_PADDING) {
                throw new AssertionError("padding handed to the writer");
            }
            if (type == VprofRing.REC_KERNEL) {
                kernels.merge(pid, 1L, Long::sum);
            }
            o += len;
        }
    }

    @Override
    public void processEnd(int pid, AgentCounters counters) {
        if (ends.put(pid, counters) != null) {
            throw new AssertionError("two ends for pid " + pid);
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
