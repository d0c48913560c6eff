package dev.vprof.demo;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.EventArgs;
import dev.vprof.export.KinetoJsonWriter;
import dev.vprof.export.KinetoRanks;
import dev.vprof.output.OutputFile;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.timeline.TimelineVisitor;
import dev.vprof.trace.TorchTraceImport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * The simulated server's torch profiler: what vLLM started with {@code --profiler-config
 * '{"profiler":"torch","torch_profiler_dir":DIR}'} does. Between {@code /start_profile} and
 * {@code /stop_profile} it notes every engine step (when, how long, its batch), and on stop it
 * writes one PyTorch profiler (Kineto) trace per worker into DIR, gzip-compressed and named as
 * PyTorch's {@code tensorboard_trace_handler} names them ({@code WORKER.MS.pt.trace.json.gz}).
 *
 * <p>Each trace has what a real one from vLLM has: {@code baseTimeNanoseconds} and {@code ts}/{@code dur}
 * in microseconds from it (3 decimals), {@code displayTimeUnit}, {@code distributedInfo} (rank, world
 * size), {@code deviceProperties}, the versions; per step a {@code user_annotation} named as vLLM
 * names its steps ({@code execute_context_N(T)_generation_M(M)}) and its {@code gpu_user_annotation};
 * per kernel a {@code cuda_runtime} launch with an {@code ac2g} flow to the kernel on stream 7 of the
 * worker's device, with correlation, grid, block, registers and shared memory; the sampled tokens
 * come back in a device-to-host {@code gpu_memcpy}. The kernels are laid out inside each step's own
 * time, so they line up with the requests' spans (the same clock). Nothing here is a GPU figure.
 *
 * <p>The files are written by vprof's own Kineto writer ({@link KinetoJsonWriter}) from a timeline
 * of the worker's events, so the demo's traces and {@code vprof export}'s have one writer.
 */
final class TorchProfilerTraces {
    /** A layer's kernels: name, weight of the step's GPU time, grid x, registers, shared memory. */
    private record KernelShape(String name, int weight, int grid, int registers, int sharedMemory) {}

    private static final int LAYERS = 4;
    private static final List<KernelShape> LAYER = List.of(
            new KernelShape("void vllm::rms_norm_kernel<c10::BFloat16, 8, 2>(c10::BFloat16*, c10::BFloat16 const*, "
                    + "long, long, c10::BFloat16 const*, float, int, int)", 1, 64, 32, 0),
            new KernelShape("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
                    + "execute_segment_k_off_kernel__5x_cublas", 4, 132, 168, 213_248),
            new KernelShape("void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, "
                    + "c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int)", 1, 128, 40, 0),
            new KernelShape("void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, "
                    + "false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, "
                    + "false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)", 3, 96, 255,
                    49_152),
            new KernelShape("nvjet_tst_128x64_64x8_1x1_v_bz_TNT", 2, 132, 168, 196_608),
            new KernelShape("void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, "
                    + "c10::BFloat16 const*, float, int, int)", 1, 64, 32, 0),
            new KernelShape("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_"
                    + "execute_segment_k_off_kernel__5x_cublas", 6, 132, 168, 229_632),
            new KernelShape("void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel"
                    + "<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)",
                    1, 256, 24, 0),
            new KernelShape("nvjet_tst_256x128_64x4_2x1_v_bz_TNN", 4, 132, 168, 229_632));
    private static final KernelShape ALL_REDUCE = new KernelShape(
            "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 2, 24, 96, 4_224);
    private static final KernelShape SAMPLER = new KernelShape(
            "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
                    + "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
            2, 16, 38, 0);
    /** Of a step's time, the GPU is busy this share (the rest: scheduling, launch gaps). */
    private static final double BUSY = 0.8;
    private static final long LAUNCH_LEAD_NS = 30_000;
    private static final int STREAM = 7;

    /** One engine step while profiling: its start on the spans' clock (epoch ns) and its batch. */
    record Step(long startEpochNs, long durationNs, int contextRequests, int prefillTokens, int decodeSeqs) {}

    private final Path dir;
    private final List<Long> workerPids;
    private final List<Step> steps = new ArrayList<>();
    private boolean on;
    private long startedEpochNs;

    TorchProfilerTraces(Path dir, List<Long> workerPids) {
        this.dir = dir;
        this.workerPids = List.copyOf(workerPids);
    }

    synchronized void start(long nowEpochNs) {
        steps.clear();
        on = true;
        startedEpochNs = nowEpochNs;
    }

    synchronized boolean profiling() {
        return on;
    }

    synchronized void step(Step s) {
        if (on) {
            steps.add(s);
        }
    }

    /** Writes one trace per worker and returns the files; nothing when the profiler was not started. */
    synchronized List<Path> stop(long nowEpochNs) throws IOException {
        if (!on) {
            return List.of();
        }
        on = false;
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        long ms = nowEpochNs / 1_000_000;
        for (int rank = 0; rank < workerPids.size(); rank++) {
            Path file = dir.resolve("simulated-vllm_rank" + rank + "." + ms + ".pt.trace.json.gz");
            try (OutputFile part = OutputFile.create(file, true)) {
                try (OutputStream os = new GZIPOutputStream(part.stream(), 1 << 16)) {
                    write(os, rank);
                }
                part.commit();
            }
            out.add(file);
        }
        return out;
    }

    private void write(OutputStream os, int rank) throws IOException {
        int pid = workerPids.get(rank).intValue();
        long base = startedEpochNs / 1_000_000_000L * 1_000_000_000L;
        int world = workerPids.size();
        WorkerTrace trace = new WorkerTrace(pid, rank, world, base);
        new KinetoJsonWriter().write(trace, trace.process, new KinetoRanks.Rank(rank, world, KinetoRanks.Source.RANK),
                List.of(), dir.resolve("rank" + rank).toString(), os);
    }

    /**
     * One worker's profile as a timeline: the layout counts every event once (a walk with nothing
     * listening), then each walk hands the same events out in order, kernels and the copy on
     * stream {@value #STREAM}, launches on the worker's thread. What a real trace has beside the
     * records (External id, queued, occupancy; the top level) goes with them as their kept fields,
     * which the Kineto writer writes back.
     */
    private final class WorkerTrace implements TimelineSource {
        final Timeline timeline = new Timeline();
        final TimelineProcess process;
        final int rank;
        final int world;
        final long base;
        final GpuStream stream;
        final CpuThread thread;
        final CpuThread gpuAnnotations;
        final int gpuDomain;

        WorkerTrace(int pid, int rank, int world, long base) throws IOException {
            this.rank = rank;
            this.world = world;
            this.base = base;
            this.process = timeline.process(pid, "python3", List.of("python3"));
            process.device(rank).properties("NVIDIA H200 (simulated by vprof)", 150_754_820_096L, 9, 0, 132)
                    .limits(new GpuDevice.Limits(32, 1024, 2048, 65536, 0, 49152, 0));
            this.stream = process.device(rank).stream(STREAM).context(1);
            this.thread = process.thread(pid);
            this.gpuAnnotations = process.thread(STREAM); // Kineto's gpu_user_annotation: the stream's number
            this.gpuDomain = timeline.intern(TorchTraceImport.DOMAIN_GPU_ANNOTATION);
            process.sourceFields(EventArgs.of(0, topLevel(pid)));
            walk(new TimelineVisitor() {
                @Override
                public void gpuOp(GpuStream s, GpuOp op) {
                    s.count(op);
                }

                @Override
                public void apiCall(CpuThread t, ApiCall call) {
                    t.countApiCall(call);
                }

                @Override
                public void threadSlice(CpuThread t, ThreadSliceKind kind, int nameId, long startNs, long endNs,
                                        int domainId, EventArgs args) {
                    t.countRange(startNs);
                }
            });
        }

        private Map<String, Object> topLevel(int pid) {
            Map<String, Object> device = new LinkedHashMap<>();
            device.put("id", (long) rank);
            device.put("name", "NVIDIA H200 (simulated by vprof)");
            device.put("totalGlobalMem", 150_754_820_096L);
            device.put("computeMajor", 9L);
            device.put("computeMinor", 0L);
            device.put("maxThreadsPerBlock", 1024L);
            device.put("maxThreadsPerMultiprocessor", 2048L);
            device.put("regsPerBlock", 65536L);
            device.put("warpSize", 32L);
            device.put("sharedMemPerBlock", 49152L);
            device.put("numSms", 132L);
            Map<String, Object> top = new LinkedHashMap<>();
            top.put("schemaVersion", 1L);
            top.put("deviceProperties", List.of(device));
            top.put("distributedInfo", Map.of("backend", "nccl"));
            top.put("cupti_version", 26L);
            top.put("cuda_runtime_version", 12080L);
            top.put("cuda_driver_version", 12080L);
            top.put("trace_id", String.format("%016X%016X", base, (long) pid * 31 + rank));
            top.put("displayTimeUnit", "ms");
            top.put("baseTimeNanoseconds", base);
            return top;
        }

        @Override
        public Timeline layout() {
            return timeline;
        }

        @Override
        public void walk(TimelineVisitor v) throws IOException {
            GpuOp op = new GpuOp();
            ApiCall call = new ApiCall();
            int correlation = 1;
            long external = 1;
            for (Step s : steps) {
                String annotation = "execute_context_" + s.contextRequests() + "(" + s.prefillTokens() + ")_generation_"
                        + s.decodeSeqs() + "(" + s.decodeSeqs() + ")";
                int annotationId = timeline.intern(annotation);
                long stepExternal = external++;
                v.threadSlice(thread, ThreadSliceKind.NVTX_RANGE, annotationId, s.startEpochNs(),
                        s.startEpochNs() + s.durationNs(), 0, kept(VprofRing.REC_MARKER, null, "External id", stepExternal));
                List<KernelShape> kernels = new ArrayList<>();
                for (int l = 0; l < LAYERS; l++) {
                    for (KernelShape k : LAYER) {
                        kernels.add(k);
                        if (world > 1 && (k.equals(LAYER.get(4)) || k.equals(LAYER.getLast()))) {
                            kernels.add(ALL_REDUCE);
                        }
                    }
                }
                kernels.add(SAMPLER);
                int weights = kernels.stream().mapToInt(KernelShape::weight).sum();
                long busy = (long) (s.durationNs() * BUSY);
                long at = s.startEpochNs() + LAUNCH_LEAD_NS;
                long gpuStart = at;
                for (KernelShape k : kernels) {
                    long dur = Math.max(1_000, busy * k.weight() / weights);
                    long launch = at - LAUNCH_LEAD_NS + 2_000;
                    int c = correlation++;
                    long ext = external++;
                    v.apiCall(thread, call.set(ApiKind.RUNTIME, timeline.intern("cudaLaunchKernel"), launch, launch + 4_500,
                            c, 211).args(kept(VprofRing.REC_API, null, "External id", ext)));
                    Map<String, Object> args = new LinkedHashMap<>();
                    args.put("External id", ext);
                    args.put("queued", 0L);
                    args.put("blocks per SM", number(k.grid() / 132.0));
                    args.put("warps per SM", number(k.grid() * 4 / 132.0));
                    args.put("est. achieved occupancy %", 25L);
                    v.gpuOp(stream, op.kernel(timeline.intern(k.name()), at, at + dur, c, k.grid(), 1, 1, 128, 1, 1,
                            k.registers(), k.sharedMemory()).args(EventArgs.of(VprofRing.REC_KERNEL, Map.of("args", args))));
                    at += dur;
                }
                // The sampled token ids back to the host.
                int c = correlation++;
                long ext = external++;
                long bytes = 8L * Math.max(1, s.contextRequests() + s.decodeSeqs());
                v.apiCall(thread, call.set(ApiKind.RUNTIME, timeline.intern("cudaMemcpyAsync"), at - 20_000, at - 14_000,
                        c, 41).args(kept(VprofRing.REC_API, null, "External id", ext)));
                Map<String, Object> copyArgs = new LinkedHashMap<>();
                copyArgs.put("External id", ext);
                copyArgs.put("memory bandwidth (GB/s)", number(bytes / 2_300.0));
                v.gpuOp(stream, op.memcpy(0, at, at + 2_300, c, bytes, 2, 3, 2) // DtoH, Device -> Pinned
                        .args(EventArgs.of(VprofRing.REC_MEMCPY, Map.of("args", copyArgs))));
                v.threadSlice(gpuAnnotations, ThreadSliceKind.NVTX_RANGE, annotationId, gpuStart, at + 2_300, gpuDomain,
                        kept(VprofRing.REC_MARKER, (long) rank, "External id", stepExternal));
            }
        }
    }

    /** An event's kept fields: one arg, and (not null) the pid Kineto gives it. */
    private static EventArgs kept(int target, Long pid, String key, long value) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (pid != null) {
            fields.put("pid", pid);
        }
        fields.put("args", Map.of(key, value));
        return EventArgs.of(target, fields);
    }

    private static EventArgs.Number number(double v) {
        return new EventArgs.Number(Double.toString(v));
    }
}
