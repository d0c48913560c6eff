package dev.vprof.timeline;

/**
 * What the views a walk hands out ({@link GpuOp}, {@link ApiCall}) have in common: an interned
 * name, a start and an end in epoch ns, and CUPTI's correlation id. Reused for the next event: read
 * before returning.
 */
public abstract sealed class SliceView permits GpuOp, ApiCall {
    int nameId;
    long start;
    long end;
    long correlationId;

    SliceView() {}

    /** The interned name (0: none recorded). */
    public final int nameId() {
        return nameId;
    }

    public final long start() {
        return start;
    }

    public final long end() {
        return end;
    }

    /** CUPTI's correlation id, which ties a launch to the GPU work it caused; 0 when none. */
    public final long correlationId() {
        return correlationId;
    }
}
