package dev.vprof.demo;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
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
            Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
            try (OutputStream os = new GZIPOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                write(os, rank, nowEpochNs);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            out.add(file);
        }
        return out;
    }

    private void write(OutputStream os, int rank, long stopEpochNs) throws IOException {
        int pid = workerPids.get(rank).intValue();
        long base = startedEpochNs / 1_000_000_000L * 1_000_000_000L;
        int world = workerPids.size();
        try (JsonGenerator g = new JsonFactory().createGenerator(os, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeNumberField("schemaVersion", 1);
            g.writeArrayFieldStart("deviceProperties");
            g.writeStartObject();
            g.writeNumberField("id", rank);
            g.writeStringField("name", "NVIDIA H200 (simulated by vprof)");
            g.writeNumberField("totalGlobalMem", 150_754_820_096L);
            g.writeNumberField("computeMajor", 9);
            g.writeNumberField("computeMinor", 0);
            g.writeNumberField("maxThreadsPerBlock", 1024);
            g.writeNumberField("maxThreadsPerMultiprocessor", 2048);
            g.writeNumberField("regsPerBlock", 65536);
            g.writeNumberField("warpSize", 32);
            g.writeNumberField("sharedMemPerBlock", 49152);
            g.writeNumberField("numSms", 132);
            g.writeEndObject();
            g.writeEndArray();
            g.writeObjectFieldStart("distributedInfo");
            g.writeStringField("backend", "nccl");
            g.writeNumberField("rank", rank);
            g.writeNumberField("world_size", world);
            g.writeEndObject();
            g.writeNumberField("cupti_version", 26);
            g.writeNumberField("cuda_runtime_version", 12080);
            g.writeNumberField("cuda_driver_version", 12080);
            g.writeStringField("trace_id", String.format("%016X%016X", base, (long) pid * 31 + rank));
            g.writeStringField("displayTimeUnit", "ms");
            g.writeNumberField("baseTimeNanoseconds", base);
            g.writeArrayFieldStart("traceEvents");
            meta(g, "process_name", pid, 0, "python3");
            meta(g, "process_name", rank, 0, "GPU " + rank);
            meta(g, "thread_name", rank, STREAM, "stream " + STREAM);
            int correlation = 1;
            int external = 1;
            int stepNo = 0;
            for (Step s : steps) {
                stepNo++;
                String annotation = "execute_context_" + s.contextRequests() + "(" + s.prefillTokens() + ")_generation_"
                        + s.decodeSeqs() + "(" + s.decodeSeqs() + ")";
                int stepExternal = external++;
                complete(g, "user_annotation", annotation, pid, pid, base, s.startEpochNs(), s.durationNs());
                g.writeObjectFieldStart("args");
                g.writeNumberField("External id", stepExternal);
                g.writeEndObject();
                g.writeEndObject();
                List<KernelShape> kernels = new ArrayList<>();
                for (int l = 0; l < LAYERS; l++) {
                    for (KernelShape k : LAYER) {
                        kernels.add(k);
                        if (world > 1 && (k == LAYER.get(4) || k == LAYER.getLast())) {
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
                    int ext = external++;
                    complete(g, "cuda_runtime", "cudaLaunchKernel", pid, pid, base, launch, 4_500);
                    g.writeObjectFieldStart("args");
                    g.writeNumberField("External id", ext);
                    g.writeNumberField("cbid", 211);
                    g.writeNumberField("correlation", c);
                    g.writeEndObject();
                    g.writeEndObject();
                    flow(g, "s", c, pid, pid, base, launch);
                    complete(g, "kernel", k.name(), rank, STREAM, base, at, dur);
                    g.writeObjectFieldStart("args");
                    g.writeNumberField("External id", ext);
                    g.writeNumberField("queued", 0);
                    g.writeNumberField("device", rank);
                    g.writeNumberField("context", 1);
                    g.writeNumberField("stream", STREAM);
                    g.writeNumberField("correlation", c);
                    g.writeNumberField("registers per thread", k.registers());
                    g.writeNumberField("shared memory", k.sharedMemory());
                    g.writeNumberField("blocks per SM", k.grid() / 132.0);
                    g.writeNumberField("warps per SM", k.grid() * 4 / 132.0);
                    triple(g, "grid", k.grid(), 1, 1);
                    triple(g, "block", 128, 1, 1);
                    g.writeNumberField("est. achieved occupancy %", 25);
                    g.writeEndObject();
                    g.writeEndObject();
                    flow(g, "f", c, rank, STREAM, base, at);
                    at += dur;
                }
                // The sampled token ids back to the host.
                int c = correlation++;
                int ext = external++;
                long bytes = 8L * Math.max(1, s.contextRequests() + s.decodeSeqs());
                complete(g, "cuda_runtime", "cudaMemcpyAsync", pid, pid, base, at - 20_000, 6_000);
                g.writeObjectFieldStart("args");
                g.writeNumberField("External id", ext);
                g.writeNumberField("cbid", 41);
                g.writeNumberField("correlation", c);
                g.writeEndObject();
                g.writeEndObject();
                complete(g, "gpu_memcpy", "Memcpy DtoH (Device -> Pinned)", rank, STREAM, base, at, 2_300);
                g.writeObjectFieldStart("args");
                g.writeNumberField("External id", ext);
                g.writeNumberField("device", rank);
                g.writeNumberField("context", 1);
                g.writeNumberField("stream", STREAM);
                g.writeNumberField("correlation", c);
                g.writeNumberField("bytes", bytes);
                g.writeNumberField("memory bandwidth (GB/s)", bytes / 2_300.0);
                g.writeEndObject();
                g.writeEndObject();
                complete(g, "gpu_user_annotation", annotation, rank, STREAM, base, gpuStart, at + 2_300 - gpuStart);
                g.writeObjectFieldStart("args");
                g.writeNumberField("External id", stepExternal);
                g.writeEndObject();
                g.writeEndObject();
            }
            complete(g, "Trace", "PyTorch Profiler (0)", pid, pid, base, startedEpochNs,
                    Math.max(0, stopEpochNs - startedEpochNs));
            g.writeObjectFieldStart("args");
            g.writeNumberField("Op count", 0);
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndArray();
            g.writeStringField("traceName", dir.resolve("rank" + rank).toString());
            g.writeEndObject();
        }
    }

    /** Opens a complete event; the caller writes its args and closes it. */
    private static void complete(JsonGenerator g, String cat, String name, int pid, int tid, long base, long startNs,
                                 long durNs) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "X");
        g.writeStringField("cat", cat);
        g.writeStringField("name", name);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeFieldName("ts");
        g.writeNumber(micros(startNs - base));
        g.writeFieldName("dur");
        g.writeNumber(micros(durNs));
    }

    private static void flow(JsonGenerator g, String ph, int id, int pid, int tid, long base, long atNs)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", ph);
        g.writeNumberField("id", id);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeFieldName("ts");
        g.writeNumber(micros(atNs - base));
        g.writeStringField("cat", "ac2g");
        g.writeStringField("name", "ac2g");
        if (ph.equals("f")) {
            g.writeStringField("bp", "e");
        }
        g.writeEndObject();
    }

    private static void meta(JsonGenerator g, String what, int pid, int tid, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", what);
        g.writeStringField("ph", "M");
        g.writeNumberField("ts", 0);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeStringField("name", name);
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void triple(JsonGenerator g, String name, int x, int y, int z) throws IOException {
        g.writeArrayFieldStart(name);
        g.writeNumber(x);
        g.writeNumber(y);
        g.writeNumber(z);
        g.writeEndArray();
    }

    /** Nanoseconds as microseconds with three decimals, exactly (as PyTorch writes them). */
    private static BigDecimal micros(long ns) {
        return BigDecimal.valueOf(ns, 3);
    }
}
