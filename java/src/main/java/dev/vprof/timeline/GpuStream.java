package dev.vprof.timeline;

/**
 * One CUDA stream of a GPU in a timeline's layout: how many kernels, copies and sets it has and
 * when the first starts. The ops themselves are not kept; a walk over the source hands them out
 * ({@link TimelineSource#walk}).
 */
public final class GpuStream {
    private final GpuDevice device;
    private final long streamId;
    private int contextId = -1;
    private int count;
    private long firstStart = Long.MAX_VALUE;

    GpuStream(GpuDevice device, long streamId) {
        this.device = device;
        this.streamId = streamId;
    }

    public GpuDevice device() {
        return device;
    }

    public long streamId() {
        return streamId;
    }

    /**
     * The CUDA context the stream belongs to (CUPTI's contextId, from its first op that says), or -1
     * when no record said. A stream belongs to one context, so it is the context of every op on it.
     */
    public int contextId() {
        return contextId;
    }

    /** Notes the stream's CUDA context (the first known one stays). */
    public GpuStream context(int id) {
        if (contextId < 0 && id >= 0) {
            contextId = id;
        }
        return this;
    }

    /** Counts the op {@code op} holds, and notes its correlation id for launch links. */
    public void count(GpuOp op) {
        device.process().launchLinks().gpuOp(op.correlationId());
        firstStart = Math.min(firstStart, op.start());
        count++;
    }

    /** Ops counted. */
    public int size() {
        return count;
    }

    /** The earliest start of any op counted; {@code Long.MAX_VALUE} when none. */
    public long firstStart() {
        return firstStart;
    }
}
