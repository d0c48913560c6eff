package dev.vprof.analysis;

import java.util.Locale;

/**
 * What a piece of GPU work is for the temporal breakdown: compute, communication or memory. Copies
 * and sets are memory. A kernel is communication when its name (as recorded, case-insensitively)
 * holds {@code nccl} (every NCCL device kernel, send and receive included) or names a collective:
 * all-reduce ({@code all_reduce}, {@code allreduce}, vLLM's custom {@code cross_device_reduce}),
 * all-gather, reduce-scatter, all-to-all; every other kernel is compute. This differs from the
 * merge's clock-alignment rule on purpose: that one keeps only collectives whose ends meet on every
 * rank, while here any time the GPU spends moving data between ranks counts.
 */
public enum WorkClass {
    COMPUTE, COMMUNICATION, MEMORY;

    private static final String[] COLLECTIVES = {
        "nccl", "all_reduce", "allreduce", "cross_device_reduce", "all_gather", "allgather",
        "reduce_scatter", "reducescatter", "all_to_all", "alltoall"
    };

    /** The class of a kernel of this (raw) name. */
    public static WorkClass ofKernel(String rawName) {
        if (rawName == null) {
            return COMPUTE;
        }
        String n = rawName.toLowerCase(Locale.ROOT);
        for (String c : COLLECTIVES) {
            if (n.contains(c)) {
                return COMMUNICATION;
            }
        }
        return COMPUTE;
    }
}
