package dev.vprof.timeline;

import java.util.Locale;

/**
 * What a slice on a host thread's range track is: an NVTX range (or a trace's annotation), or a
 * PyTorch profiler trace's CPU op, which nests like a range but is its own kind in every view.
 */
public enum ThreadSliceKind {
    NVTX_RANGE,
    /** {@code cpu_op}: an ATen operator or record_function. */
    CPU_OP,
    /** {@code python_function}: a Python frame of the profiler's stack tracer. */
    PYTHON_FUNCTION;

    /**
     * The PyTorch profiler category of a CPU op ({@code cpu_op}, {@code python_function}); null for
     * an NVTX range. Formats that show slices but have no kinds (Chrome, Perfetto) show it where they
     * show an NVTX domain, as a label only.
     */
    public String category() {
        return this == NVTX_RANGE ? null : name().toLowerCase(Locale.ROOT);
    }
}
