package dev.vprof.trace;

import java.util.Arrays;

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

    /** Spellings by length (each a category's canonical or old one), so most lookups compare one or two. */
    private static final char[][][] BY_LENGTH = new char[32][][];
    private static final TraceCategory[][] CATEGORY_BY_LENGTH = new TraceCategory[32][];
    private static final boolean[][] CANONICAL_BY_LENGTH = new boolean[32][];

    static {
        for (TraceCategory c : values()) {
            add(c.canonical, c, true);
            add(c.old, c, false);
        }
    }

    private static void add(String spelling, TraceCategory c, boolean canonical) {
        if (spelling == null) {
            return;
        }
        int n = spelling.length();
        int k = BY_LENGTH[n] == null ? 0 : BY_LENGTH[n].length;
        BY_LENGTH[n] = Arrays.copyOf(BY_LENGTH[n] == null ? new char[0][] : BY_LENGTH[n], k + 1);
        CATEGORY_BY_LENGTH[n] = Arrays.copyOf(CATEGORY_BY_LENGTH[n] == null ? new TraceCategory[0]
                : CATEGORY_BY_LENGTH[n], k + 1);
        CANONICAL_BY_LENGTH[n] = Arrays.copyOf(CANONICAL_BY_LENGTH[n] == null ? new boolean[0]
                : CANONICAL_BY_LENGTH[n], k + 1);
        BY_LENGTH[n][k] = spelling.toCharArray();
        CATEGORY_BY_LENGTH[n][k] = c;
        CANONICAL_BY_LENGTH[n][k] = canonical;
    }

    /**
     * The category spelled {@code buf[off, off+len)} (OTHER when none), allocating nothing; sets
     * {@code e.catCanonical} to whether it was the current spelling.
     */
    static TraceCategory of(char[] buf, int off, int len, KinetoEvent e) {
        char[][] spellings = len < BY_LENGTH.length ? BY_LENGTH[len] : null;
        if (spellings != null) {
            outer:
            for (int k = 0; k < spellings.length; k++) {
                char[] sp = spellings[k];
                for (int i = 0; i < len; i++) {
                    if (sp[i] != buf[off + i]) {
                        continue outer;
                    }
                }
                e.catCanonical = CANONICAL_BY_LENGTH[len][k];
                return CATEGORY_BY_LENGTH[len][k];
            }
        }
        e.catCanonical = false;
        return OTHER;
    }
}
