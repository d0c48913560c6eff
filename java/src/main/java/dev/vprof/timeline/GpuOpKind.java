package dev.vprof.timeline;

/** What a slice on a GPU stream is. */
public enum GpuOpKind {
    KERNEL,
    MEMCPY,
    MEMSET;

    private static final GpuOpKind[] VALUES = values();

    static GpuOpKind of(int ordinal) {
        return VALUES[ordinal];
    }
}
