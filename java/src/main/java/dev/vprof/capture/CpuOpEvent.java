package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;

/**
 * A CPU_OP record: one operator run on a host thread of a PyTorch profiler trace, from
 * {@code start} to {@code end} (ns on the capture's clock, as every record), of {@code kind}
 * {@code VprofRing.CPU_OP_*}. {@code name} is null when the file lacks its STRING. CPU ops nest
 * like NVTX ranges but are not NVTX markers: a view counts them as CPU ops.
 */
public record CpuOpEvent(long start, long end, int kind, String name, int tid) {

    /** Whether it is a Python frame ({@code python_function}) rather than an operator ({@code cpu_op}). */
    public boolean isPython() {
        return kind == VprofRing.CPU_OP_PYTHON;
    }

    /** The PyTorch profiler category of the kind: {@code cpu_op} or {@code python_function}. */
    public static String category(int kind) {
        return kind == VprofRing.CPU_OP_PYTHON ? "python_function" : "cpu_op";
    }
}
