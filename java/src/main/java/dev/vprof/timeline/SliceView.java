package dev.vprof.timeline;

import dev.vprof.capture.EventArgs;

/**
 * What the views a walk hands out ({@link GpuOp}, {@link ApiCall}) have in common: an interned
 * name, a start and an end in epoch ns, CUPTI's correlation id, and the source's fields the
 * records do not hold ({@link #args()}, for the exports that give them back). Reused for the next
 * event: read before returning.
 */
public abstract sealed class SliceView permits GpuOp, ApiCall {
    int nameId;
    long start;
    long end;
    long correlationId;
    EventArgs args;

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

    /** The source's fields of this event that no record holds (a trace's args); null when none. */
    public final EventArgs args() {
        return args;
    }

    /** Fills what every view has for the next event, and clears the previous event's source fields. */
    final void slice(int nameId, long startNs, long endNs, long correlationId) {
        this.nameId = nameId;
        this.start = startNs;
        this.end = endNs;
        this.correlationId = correlationId;
        this.args = null;
    }
}
