package dev.vprof.export;

import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;

/**
 * Display names for GPU copies and sets when the capture recorded no name of its own, in the form
 * the PyTorch profiler (Kineto) writes them, so that tools keyed on Kineto's names (HTA's memory
 * kernel breakdown, TensorBoard) group vprof's copies the same way: {@code Memcpy HtoD (Pinned ->
 * Device)}, {@code Memset (Device)}.
 */
final class GpuNames {
    private GpuNames() {}

    // CUpti_ActivityMemcpyKind, in enum order (cupti_activity.h).
    private static final String[] MEMCPY_KINDS = {
        "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"
    };

    // CUpti_ActivityMemoryKind, in enum order (cupti_activity.h), spelled as Kineto spells them.
    private static final String[] MEMORY_KINDS = {
        "Unknown", "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static"
    };

    static String memcpyKind(int kind) {
        return kind >= 0 && kind < MEMCPY_KINDS.length ? MEMCPY_KINDS[kind] : "Unknown";
    }

    static String memoryKind(int kind) {
        return kind >= 0 && kind < MEMORY_KINDS.length ? MEMORY_KINDS[kind] : "Unrecognized";
    }

    /** {@code Memcpy HtoD (Pageable -> Device)}: the copy kind, then where it read and wrote. */
    static String memcpy(int copyKind, int srcKind, int dstKind) {
        return "Memcpy " + memcpyKind(copyKind) + " (" + memoryKind(srcKind) + " -> " + memoryKind(dstKind) + ")";
    }

    /**
     * {@code Memset (Device)}. The MEMSET record does not carry CUPTI's memory kind; cudaMemset and
     * cuMemsetD* write device memory, which is what Kineto names nearly every set.
     */
    static String memset() {
        return "Memset (Device)";
    }

    /** The name of {@code op} when the capture gave it none. */
    static String unnamed(GpuOp op) {
        GpuOpKind kind = op.kind();
        return kind == GpuOpKind.MEMCPY ? memcpy(op.copyKind(), op.srcMemoryKind(), op.dstMemoryKind())
                : kind == GpuOpKind.MEMSET ? memset() : "kernel";
    }
}
