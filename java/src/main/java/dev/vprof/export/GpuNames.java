package dev.vprof.export;

import dev.vprof.capture.CopyKindNames;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;

/**
 * Display names for GPU copies and sets when the capture recorded no name of its own, in the form
 * the PyTorch profiler (Kineto) writes them, so that tools keyed on Kineto's names (HTA's memory
 * kernel breakdown, TensorBoard) group vprof's copies the same way: {@code Memcpy HtoD (Pinned ->
 * Device)}, {@code Memset (Device)} ({@link CopyKindNames}).
 */
final class GpuNames {
    private GpuNames() {}

    static String memcpyKind(int kind) {
        return CopyKindNames.memcpyKind(kind);
    }

    /** The name of {@code op} when the capture gave it none. */
    static String unnamed(GpuOp op) {
        GpuOpKind kind = op.kind();
        return kind == GpuOpKind.MEMCPY ? CopyKindNames.memcpy(op.copyKind(), op.srcMemoryKind(), op.dstMemoryKind())
                : kind == GpuOpKind.MEMSET ? CopyKindNames.MEMSET : "kernel";
    }
}
