package dev.vprof.merge;

import java.util.Locale;

/**
 * Which kernels are collectives whose ends are near-simultaneous on every rank they join: NCCL's
 * device kernels ({@code ncclDevKernel_AllReduce_Sum_bf16_RING_LL}, {@code ncclKernel_AllGather_…},
 * reduce-scatter, broadcast, reduce, all-to-all by send/receive are left out: a send may end
 * before its receive), vLLM's custom all-reduce ({@code cross_device_reduce_1stage},
 * {@code _2stage}) and other all-reduce or all-gather kernels by name. Names are matched as
 * recorded (mangled), case-insensitively.
 */
public final class Collectives {
    private Collectives() {}

    /** Whether a kernel of this (raw) name is a collective the merge aligns clocks on. */
    public static boolean isCollective(String rawName) {
        if (rawName == null) {
            return false;
        }
        String n = rawName.toLowerCase(Locale.ROOT);
        if (n.contains("nccl")) {
            return n.contains("allreduce") || n.contains("allgather") || n.contains("reducescatter")
                    || n.contains("broadcast");
        }
        return n.contains("cross_device_reduce") || n.contains("all_reduce") || n.contains("allreduce")
                || n.contains("all_gather") || n.contains("allgather");
    }
}
