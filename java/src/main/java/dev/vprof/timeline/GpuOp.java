package dev.vprof.timeline;

import dev.vprof.capture.EventArgs;

/**
 * One kernel, copy or set as a walk hands it out: a reusable view (the walk fills it for each op
 * and the sink reads it before the next), so that millions of ops cost no object each.
 *
 * <p>Per-kind arguments share two packed words, as a {@link TrackQueue} holds them: a kernel keeps
 * grid x (31 bits), grid y and z (16 bits each) in one and block x, y (11 bits), z (7 bits),
 * registers per thread (8 bits) and shared memory bytes (24 bits) in the other, which covers every
 * limit CUDA documents; a copy keeps its byte count in one and its copy kind and the memory kinds
 * of its source and destination (8 bits each) in the other; a set keeps its byte count and value.
 */
public final class GpuOp extends SliceView {
    private GpuOpKind kind = GpuOpKind.KERNEL;
    private long aux0;
    private long aux1;
    private long graphNodeId;

    /**
     * This view as a kernel. {@code correlationId} is CUPTI's 32-bit correlation id (0 when unknown);
     * it links the kernel to the API call that launched it. Throws for values outside what the
     * packed form holds.
     */
    public GpuOp kernel(int nameId, long startNs, long endNs, long correlationId,
                        int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                        int registersPerThread, int sharedMemoryBytes) {
        check("gridX", gridX, 0x7fff_ffffL);
        check("gridY", gridY, 0xffff);
        check("gridZ", gridZ, 0xffff);
        check("blockX", blockX, 0x7ff);
        check("blockY", blockY, 0x7ff);
        check("blockZ", blockZ, 0x7f);
        check("registersPerThread", registersPerThread, 0xff);
        check("sharedMemoryBytes", sharedMemoryBytes, 0xff_ffff);
        long grid = ((long) gridX << 32) | ((long) gridY << 16) | gridZ;
        long block = blockX | ((long) blockY << 11) | ((long) blockZ << 22)
                | ((long) registersPerThread << 29) | ((long) sharedMemoryBytes << 37);
        return set(GpuOpKind.KERNEL, nameId, startNs, endNs, correlationId, grid, block);
    }

    /**
     * This view as a memory copy: {@code copyKind} is CUPTI's CUpti_ActivityMemcpyKind (1 HtoD, 8
     * DtoD), {@code srcKind} and {@code dstKind} its CUpti_ActivityMemoryKind (1 pageable, 2 pinned, 3
     * device; 0 when not recorded).
     */
    public GpuOp memcpy(int nameId, long startNs, long endNs, long correlationId, long bytes, int copyKind,
                        int srcKind, int dstKind) {
        check("copyKind", copyKind, 0xff);
        check("srcKind", srcKind, 0xff);
        check("dstKind", dstKind, 0xff);
        return set(GpuOpKind.MEMCPY, nameId, startNs, endNs, correlationId, bytes, copyKind | srcKind << 8 | dstKind << 16);
    }

    /** This view as a set of {@code bytes} bytes to {@code value}. */
    public GpuOp memset(int nameId, long startNs, long endNs, long correlationId, long bytes, int value) {
        return set(GpuOpKind.MEMSET, nameId, startNs, endNs, correlationId, bytes, value);
    }

    GpuOp set(GpuOpKind kind, int nameId, long startNs, long endNs, long correlationId, long a0, long a1) {
        if (endNs < startNs) {
            throw new IllegalArgumentException("GPU " + kind + " ends (" + endNs + " ns) before it starts (" + startNs + " ns)");
        }
        if (nameId < 0 || nameId >= (1 << 29)) {
            throw new IllegalArgumentException("name id " + nameId + " out of range");
        }
        if (correlationId < 0 || correlationId > 0xffff_ffffL) {
            throw new IllegalArgumentException("correlation id " + correlationId + " is not a 32-bit CUPTI correlation id");
        }
        slice(nameId, startNs, endNs, correlationId);
        this.kind = kind;
        this.aux0 = a0;
        this.aux1 = a1;
        this.graphNodeId = 0;
        return this;
    }

    /**
     * Sets the CUDA graph node a kernel ran as (CUPTI's graphNodeId; 0: not from a graph or not
     * recorded). Set after {@link #kernel}, which clears it.
     */
    public GpuOp graphNode(long nodeId) {
        this.graphNodeId = nodeId;
        return this;
    }

    /** This view with the source's fields no record holds (null: none); set after {@link #kernel} and kin, which clear it. */
    public GpuOp args(EventArgs fields) {
        this.args = fields;
        return this;
    }

    /** The CUDA graph node id, 0 when none ({@link #graphNode}). */
    public long graphNodeId() {
        return graphNodeId;
    }

    /** Fills the view from packed columns, already checked when they were stored. */
    void load(int nameAndKind, long startNs, long endNs, int correlation, long a0, long a1) {
        slice(nameAndKind >>> 2, startNs, endNs, Integer.toUnsignedLong(correlation));
        this.kind = GpuOpKind.of(nameAndKind & 3);
        this.aux0 = a0;
        this.aux1 = a1;
        this.graphNodeId = 0;
    }

    private static void check(String what, long v, long max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(what + " = " + v + " is outside 0.." + max);
        }
    }

    /** The name id and kind in one int, as the columns store them. */
    int nameAndKind() {
        return nameId << 2 | kind.ordinal();
    }

    long aux0() {
        return aux0;
    }

    long aux1() {
        return aux1;
    }

    /** What the op is; a copy or set with name id 0 is named by its kind by the writers. */
    public GpuOpKind kind() {
        return kind;
    }

    public int gridX() {
        return (int) (aux0 >>> 32);
    }

    public int gridY() {
        return (int) (aux0 >>> 16) & 0xffff;
    }

    public int gridZ() {
        return (int) aux0 & 0xffff;
    }

    public int blockX() {
        return (int) aux1 & 0x7ff;
    }

    public int blockY() {
        return (int) (aux1 >>> 11) & 0x7ff;
    }

    public int blockZ() {
        return (int) (aux1 >>> 22) & 0x7f;
    }

    public int registersPerThread() {
        return (int) (aux1 >>> 29) & 0xff;
    }

    public int sharedMemoryBytes() {
        return (int) (aux1 >>> 37) & 0xff_ffff;
    }

    /** Bytes copied or set (copies and sets only). */
    public long bytes() {
        return aux0;
    }

    /** CUpti_ActivityMemcpyKind of a copy (copies only). */
    public int copyKind() {
        return (int) aux1 & 0xff;
    }

    /** CUpti_ActivityMemoryKind of a copy's source, 0 when not recorded (copies only). */
    public int srcMemoryKind() {
        return (int) (aux1 >>> 8) & 0xff;
    }

    /** CUpti_ActivityMemoryKind of a copy's destination, 0 when not recorded (copies only). */
    public int dstMemoryKind() {
        return (int) (aux1 >>> 16) & 0xff;
    }

    /** The value a set wrote (sets only). */
    public int memsetValue() {
        return (int) aux1;
    }
}
