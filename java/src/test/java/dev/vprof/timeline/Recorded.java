package dev.vprof.timeline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** What one walk over a source handed out, kept per track, for tests that look at single slices. */
public final class Recorded {
    /** An NVTX range as {@link TimelineVisitor#range} hands it out. */
    public record Range(int nameId, long start, long end, int domainId) {}

    private final Map<GpuStream, List<GpuOp>> ops = new IdentityHashMap<>();
    private final Map<CpuThread, List<ApiCall>> calls = new IdentityHashMap<>();
    private final Map<CpuThread, List<Range>> ranges = new IdentityHashMap<>();

    private Recorded() {}

    /** Walks {@code source} once and keeps a copy of every event. */
    public static Recorded walk(TimelineSource source) throws IOException {
        Recorded r = new Recorded();
        source.walk(new TimelineVisitor() {
            @Override
            public void gpuOp(GpuStream stream, GpuOp op) {
                GpuOp copy = new GpuOp();
                copy.load(op.nameAndKind(), op.start(), op.end(), (int) op.correlationId(), op.aux0(), op.aux1());
                copy.graphNode(op.graphNodeId());
                r.ops.computeIfAbsent(stream, s -> new ArrayList<>()).add(copy);
            }

            @Override
            public void apiCall(CpuThread thread, ApiCall call) {
                r.calls.computeIfAbsent(thread, t -> new ArrayList<>()).add(new ApiCall().set(call.kind(), call.nameId(),
                        call.start(), call.end(), call.correlationId(), call.callbackId()));
            }

            @Override
            public void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) {
                r.ranges.computeIfAbsent(thread, t -> new ArrayList<>()).add(new Range(nameId, startNs, endNs, domainId));
            }
        });
        return r;
    }

    /** The ops of {@code stream} in the order handed out (slice order). */
    public List<GpuOp> ops(GpuStream stream) {
        return ops.getOrDefault(stream, List.of());
    }

    /** The API calls of {@code thread} in the order handed out (slice order). */
    public List<ApiCall> apiCalls(CpuThread thread) {
        return calls.getOrDefault(thread, List.of());
    }

    /** The NVTX ranges of {@code thread}, each as it was complete (in the capture: as its END was read). */
    public List<Range> ranges(CpuThread thread) {
        return ranges.getOrDefault(thread, List.of());
    }
}
