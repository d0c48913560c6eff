package dev.vprof.export;

import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
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
import java.util.function.IntFunction;

/**
 * A timeline for the export benchmarks: a layout with its slices in lists, sorted once at set-up,
 * so that a walk costs only the handing out and the benchmark measures the sink.
 */
final class BenchTimeline implements TimelineSource {
    private final Timeline layout = new Timeline();
    private final Map<GpuStream, List<GpuOp>> ops = new LinkedHashMap<>();
    private final Map<CpuThread, List<ApiCall>> calls = new LinkedHashMap<>();

    /**
     * The export benchmarks' timeline: {@code kernels} kernels on 4 streams of one GPU, 16 kernel names
     * ({@code name} of 0..15), 2-32 us kernels with 0.3-2.3 us gaps, grid and block set, and with
     * {@code launches} a runtime launch call per kernel (their correlation ids match), else no API calls.
     */
    static BenchTimeline kernels(int kernels, IntFunction<String> name, boolean launches) {
        BenchTimeline t = new BenchTimeline();
        GpuDevice gpu = t.layout().process(1, "bench", List.of("bench")).device(0);
        CpuThread host = t.layout().process(1).thread(1);
        int launch = t.layout().intern("cudaLaunchKernel");
        int[] names = new int[16];
        for (int i = 0; i < names.length; i++) {
            names[i] = t.layout().intern(name.apply(i));
        }
        long[] cursor = {T0, T0, T0, T0};
        for (int i = 0; i < kernels; i++) {
            int s = i & 3;
            long dur = 2_000 + (i * 7919L) % 30_000;
            long start = cursor[s] + 300 + (i * 104729L) % 2_000;
            t.kernel(gpu.stream(s + 7), names[(i >>> 2) & 15], start, start + dur, i + 1,
                    108 + (i & 7), 1, 1, 256, 1, 1, 64, 0);
            if (launches) {
                t.apiCall(host, ApiKind.RUNTIME, launch, start - 5_000, start - 3_000, i + 1, 211);
            }
            cursor[s] = start + dur;
        }
        return t.sorted();
    }

    /** The first kernel's start (epoch ns). */
    static final long T0 = 1_735_689_600_000_000_123L;

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
