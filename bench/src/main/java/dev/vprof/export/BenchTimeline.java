package dev.vprof.export;

import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.timeline.TimelineVisitor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A timeline for the export benchmarks: a layout with its slices in lists, sorted once at set-up,
 * so that a walk costs only the handing out and the benchmark measures the sink.
 */
final class BenchTimeline implements TimelineSource {
    private final Timeline layout = new Timeline();
    private final Map<GpuStream, List<GpuOp>> ops = new LinkedHashMap<>();
    private final Map<CpuThread, List<ApiCall>> calls = new LinkedHashMap<>();

    @Override
    public Timeline layout() {
        return layout;
    }

    void kernel(GpuStream stream, int nameId, long startNs, long endNs, long correlationId, int gridX, int gridY,
                int gridZ, int blockX, int blockY, int blockZ, int registersPerThread, int sharedMemoryBytes) {
        GpuOp op = new GpuOp().kernel(nameId, startNs, endNs, correlationId, gridX, gridY, gridZ, blockX, blockY,
                blockZ, registersPerThread, sharedMemoryBytes);
        stream.count(op);
        ops.computeIfAbsent(stream, s -> new ArrayList<>()).add(op);
    }

    void apiCall(CpuThread thread, ApiKind kind, int nameId, long startNs, long endNs, long correlationId,
                 int callbackId) {
        ApiCall call = new ApiCall().set(kind, nameId, startNs, endNs, correlationId, callbackId);
        thread.countApiCall(call);
        calls.computeIfAbsent(thread, t -> new ArrayList<>()).add(call);
    }

    /** Puts every track in slice order (start, then the longer first); call once, after the last slice. */
    BenchTimeline sorted() {
        Comparator<GpuOp> opOrder = Comparator.comparingLong(GpuOp::start)
                .thenComparing(Comparator.comparingLong(GpuOp::end).reversed());
        Comparator<ApiCall> callOrder = Comparator.comparingLong(ApiCall::start)
                .thenComparing(Comparator.comparingLong(ApiCall::end).reversed());
        ops.values().forEach(l -> l.sort(opOrder));
        calls.values().forEach(l -> l.sort(callOrder));
        return this;
    }

    @Override
    public void walk(TimelineVisitor visitor) throws IOException {
        for (Map.Entry<GpuStream, List<GpuOp>> e : ops.entrySet()) {
            for (GpuOp op : e.getValue()) {
                visitor.gpuOp(e.getKey(), op);
            }
        }
        for (Map.Entry<CpuThread, List<ApiCall>> e : calls.entrySet()) {
            for (ApiCall call : e.getValue()) {
                visitor.apiCall(e.getKey(), call);
            }
        }
    }
}
