package dev.vprof.timeline;

/**
 * The kernels, copies and sets of one CUDA stream. In a timeline that keeps its events they are
 * stored column by column (about 40 bytes a slice, no object per slice, packed as {@link GpuOp}
 * describes); in a layout-only timeline ({@link Timeline#layoutOnly()}) they are only counted, and
 * the slices themselves come from a walk over the capture.
 *
 * <p>Append in any order; {@link #sortByStart()} puts the kept slices in time order.
 */
public final class GpuStream extends SliceColumns {
    private final GpuDevice device;
    private final long streamId;
    private final LongColumn aux0;
    private final LongColumn aux1;
    private final GpuOp scratch = new GpuOp();
    private int contextId = -1;

    GpuStream(GpuDevice device, long streamId, boolean keep) {
        super(keep, 1024);
        this.device = device;
        this.streamId = streamId;
        int capacity = keep ? 1024 : 0;
        this.aux0 = new LongColumn(capacity);
        this.aux1 = new LongColumn(capacity);
    }

    @Override
    String what() {
        return "stream " + streamId + " of GPU " + device.deviceId();
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

    /**
     * Adds a kernel. {@code correlationId} is CUPTI's 32-bit correlation id (0 when unknown); it
     * links the kernel to the API call that launched it.
     */
    public void addKernel(int nameId, long startNs, long endNs, long correlationId,
                          int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                          int registersPerThread, int sharedMemoryBytes) {
        checkOrder(GpuOpKind.KERNEL, startNs, endNs);
        add(scratch.kernel(nameId, startNs, endNs, correlationId, gridX, gridY, gridZ, blockX, blockY, blockZ,
                registersPerThread, sharedMemoryBytes));
    }

    /**
     * Adds a memory copy: {@code copyKind} is CUPTI's CUpti_ActivityMemcpyKind (1 HtoD, 8 DtoD),
     * {@code srcKind} and {@code dstKind} its CUpti_ActivityMemoryKind (1 pageable, 2 pinned, 3 device;
     * 0 when not recorded).
     */
    public void addMemcpy(int nameId, long startNs, long endNs, long correlationId, long bytes, int copyKind,
                          int srcKind, int dstKind) {
        checkOrder(GpuOpKind.MEMCPY, startNs, endNs);
        add(scratch.memcpy(nameId, startNs, endNs, correlationId, bytes, copyKind, srcKind, dstKind));
    }

    /** Adds a memory set of {@code bytes} bytes to {@code value}. */
    public void addMemset(int nameId, long startNs, long endNs, long correlationId, long bytes, int value) {
        checkOrder(GpuOpKind.MEMSET, startNs, endNs);
        add(scratch.memset(nameId, startNs, endNs, correlationId, bytes, value));
    }

    private void checkOrder(GpuOpKind kind, long startNs, long endNs) {
        if (endNs < startNs) {
            throw new IllegalArgumentException("GPU " + kind + " on device " + device.deviceId() + " stream " + streamId
                    + " ends (" + endNs + " ns) before it starts (" + startNs + " ns)");
        }
    }

    /** Adds the op {@code op} holds (already checked when it was set); counts it in a layout-only timeline. */
    public void add(GpuOp op) {
        device.process().launchLinks().gpuOp(op.correlationId());
        if (append(op.nameAndKind(), op.start(), op.end(), op.correlationId())) {
            aux0.add(op.aux0());
            aux1.add(op.aux1());
        }
    }

    @Override
    void permuteOwn(int[] order) {
        aux0.permute(order);
        aux1.permute(order);
    }

    /** Releases the spare capacity of the columns once the stream is complete. */
    public void trim() {
        trimColumns();
        aux0.trim();
        aux1.trim();
    }

    /** Slice {@code i} into {@code into} (a kept slice). */
    public GpuOp op(int i, GpuOp into) {
        kept();
        into.load(rawNameAndKind(i), rawStart(i), rawEnd(i), rawCorrelation(i), aux0.get(i), aux1.get(i));
        return into;
    }

    public GpuOpKind kind(int i) {
        return GpuOpKind.of(nameAndKind(i) & 3);
    }

    public int gridX(int i) {
        return GpuOp.gridX(aux0(i));
    }

    public int gridY(int i) {
        return GpuOp.gridY(aux0(i));
    }

    public int gridZ(int i) {
        return GpuOp.gridZ(aux0(i));
    }

    public int blockX(int i) {
        return GpuOp.blockX(aux1(i));
    }

    public int blockY(int i) {
        return GpuOp.blockY(aux1(i));
    }

    public int blockZ(int i) {
        return GpuOp.blockZ(aux1(i));
    }

    public int registersPerThread(int i) {
        return GpuOp.registersPerThread(aux1(i));
    }

    public int sharedMemoryBytes(int i) {
        return GpuOp.sharedMemoryBytes(aux1(i));
    }

    /** Bytes copied or set (copies and sets only). */
    public long bytes(int i) {
        return aux0(i);
    }

    /** CUpti_ActivityMemcpyKind of a copy (copies only). */
    public int copyKind(int i) {
        return GpuOp.copyKind(aux1(i));
    }

    /** CUpti_ActivityMemoryKind of a copy's source, 0 when not recorded (copies only). */
    public int srcMemoryKind(int i) {
        return GpuOp.srcMemoryKind(aux1(i));
    }

    /** CUpti_ActivityMemoryKind of a copy's destination, 0 when not recorded (copies only). */
    public int dstMemoryKind(int i) {
        return GpuOp.dstMemoryKind(aux1(i));
    }

    /** The value a set wrote (sets only). */
    public int memsetValue(int i) {
        return (int) aux1(i);
    }

    private long aux0(int i) {
        kept();
        return aux0.get(i);
    }

    private long aux1(int i) {
        kept();
        return aux1.get(i);
    }
}
