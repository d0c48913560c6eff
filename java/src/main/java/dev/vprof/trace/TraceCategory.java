package dev.vprof.trace;

/**
 * The PyTorch profiler event categories the trace reader maps, with the spelling of current
 * Kineto traces (the one the Kineto export writes back) and of old ones ({@code "Kernel"},
 * {@code "Runtime"}...).
 */
enum TraceCategory {
    KERNEL(true, "kernel", "Kernel"),
    MEMCPY(true, "gpu_memcpy", "Memcpy"),
    MEMSET(true, "gpu_memset", "Memset"),
    GPU_ANNOTATION(true, "gpu_user_annotation", null),
    RUNTIME(false, "cuda_runtime", "Runtime"),
    DRIVER(false, "cuda_driver", "Driver"),
    ANNOTATION(false, "user_annotation", "User Annotation"),
    CPU_OP(false, "cpu_op", "Operator"),
    PYTHON(false, "python_function", null),
    OTHER(false, null, null);

    /** Whether its events are GPU work (on a device's stream), not host work. */
    final boolean gpu;
    /** How current traces, and the Kineto export, spell it. */
    final String canonical;
    /** How old traces spell it (null: the same). */
    final String old;

    TraceCategory(boolean gpu, String canonical, String old) {
        this.gpu = gpu;
        this.canonical = canonical;
        this.old = old;
    }

    private static final TraceCategory[] VALUES = values();

    /**
     * The category spelled {@code buf[off, off+len)} (OTHER when none), allocating nothing; sets
     * {@code e.catCanonical} to whether it was the current spelling.
     */
    static TraceCategory of(char[] buf, int off, int len, KinetoEvent e) {
        for (TraceCategory c : VALUES) {
            if (c.canonical == null) {
                continue;
            }
            if (same(c.canonical, buf, off, len)) {
                e.catCanonical = true;
                return c;
            }
            if (c.old != null && same(c.old, buf, off, len)) {
                e.catCanonical = false;
                return c;
            }
        }
        e.catCanonical = false;
        return OTHER;
    }

    private static boolean same(String s, char[] buf, int off, int len) {
        if (s.length() != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != buf[off + i]) {
                return false;
            }
        }
        return true;
    }
}
