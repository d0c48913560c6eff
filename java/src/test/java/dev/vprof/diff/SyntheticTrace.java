package dev.vprof.diff;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

/**
 * A PyTorch-profiler trace of a steady workload written from a seed, for measuring the diff's
 * false-alarm rate and power: {@code steps} ProfilerStep annotations, each launching the same
 * kernels (a launch call per kernel, by correlation id, as a real trace holds them). One kernel,
 * the target, holds {@code targetShare} of the GPU time; {@code slowdown} multiplies its durations.
 *
 * <p>The noise is the run-to-run noise a real server shows in three layers: a per-run factor (GPU
 * clocks: lognormal, sigma {@value #RUN_SIGMA}), a per-step factor shared by all of a step's kernels
 * (sigma {@value #STEP_SIGMA}) and a per-instance factor (sigma {@value #INSTANCE_SIGMA}).
 */
record SyntheticTrace(long seed, int steps, double targetShare, double slowdown) {
    static final double RUN_SIGMA = 0.005;
    static final double STEP_SIGMA = 0.02;
    static final double INSTANCE_SIGMA = 0.08;
    /** GPU time per step, ns. */
    static final double STEP_GPU_NS = 8e6;
    static final String TARGET = "void target_gemm_kernel<128, 64>(float const*, float*, int)";
    /** The rest of the workload: names and launches per step; their weights come from a fixed seed. */
    private static final String[] OTHERS = {
        "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, int)",
        "void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*)",
        "void vllm::reshape_and_cache_kernel<c10::BFloat16>(long const*, int)",
        "void flash::flash_fwd_kernel<128, 64, 4>(flash::Flash_fwd_params)",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64",
        "void vllm::act_and_mul_kernel<c10::BFloat16>(c10::BFloat16*)",
        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float> >(int)",
        "void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u>(float*)",
        "void at::native::index_elementwise_kernel<128, 4>(long)",
        "void vllm::fused_add_rms_norm_kernel<c10::BFloat16>(c10::BFloat16*)",
    };
    private static final int[] LAUNCHES = {4, 2, 2, 4, 4, 2, 4, 1, 3, 1, 2, 4};
    private static final int TARGET_LAUNCHES = 2;

    /** Writes the trace to {@code file} (plain JSON). */
    void write(Path file) throws IOException {
        double[] weight = new double[OTHERS.length];
        Random workload = new Random(42);
        double sum = 0;
        for (int i = 0; i < weight.length; i++) {
            weight[i] = 0.2 + workload.nextDouble();
            sum += weight[i];
        }
        // Mean ns per instance: the target holds targetShare of the step's GPU time, the rest share the remainder.
        double[] mean = new double[OTHERS.length];
        for (int i = 0; i < mean.length; i++) {
            mean[i] = STEP_GPU_NS * (1 - targetShare) * weight[i] / sum / LAUNCHES[i];
        }
        double targetMean = STEP_GPU_NS * targetShare / TARGET_LAUNCHES;
        Random r = new Random(seed);
        double run = Math.exp(RUN_SIGMA * r.nextGaussian());
        long corr = 1;
        double cpuUs = 1000;
        double gpuUs = 1000;
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\","
                    + " \"totalGlobalMem\": 85000000000, \"computeMajor\": 9, \"computeMinor\": 0}],\n"
                    + "\"traceEvents\": [\n");
            boolean first = true;
            for (int s = 0; s < steps; s++) {
                double stepFactor = run * Math.exp(STEP_SIGMA * r.nextGaussian());
                double stepStart = cpuUs;
                StringBuilder events = new StringBuilder();
                for (int k = -1; k < OTHERS.length; k++) {
                    int launches = k < 0 ? TARGET_LAUNCHES : LAUNCHES[k];
                    String name = k < 0 ? TARGET : OTHERS[k];
                    double m = k < 0 ? targetMean * slowdown : mean[k];
                    for (int j = 0; j < launches; j++) {
                        double durUs = m * stepFactor * Math.exp(INSTANCE_SIGMA * r.nextGaussian()) / 1000;
                        cpuUs += 5;
                        gpuUs = Math.max(gpuUs, cpuUs + 2);
                        events.append(String.format(Locale.ROOT, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\":"
                                + " \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": %.3f, \"dur\": 4,"
                                + " \"args\": {\"correlation\": %d}}", cpuUs, corr));
                        events.append(String.format(Locale.ROOT, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\","
                                + " \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"device\": 0,"
                                + " \"stream\": 7, \"correlation\": %d}}", name, gpuUs, durUs, corr));
                        gpuUs += durUs + 1;
                        corr++;
                    }
                }
                // The step waits for its GPU work, as a server's step does.
                cpuUs = Math.max(cpuUs, gpuUs) + 10;
                w.write((first ? "" : ",\n") + String.format(Locale.ROOT, "{\"ph\": \"X\", \"cat\": \"user_annotation\","
                        + " \"name\": \"ProfilerStep#%d\", \"pid\": 10, \"tid\": 11, \"ts\": %.3f, \"dur\": %.3f}", s,
                        stepStart, cpuUs - stepStart - 1));
                w.write(events.toString());
                first = false;
            }
            w.write("\n]}\n");
        }
    }
}
