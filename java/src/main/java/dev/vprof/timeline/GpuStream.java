package dev.vprof.timeline;

/**
 * The kernels, copies and sets of one CUDA stream, stored column by column (about 40 bytes a slice,
 * no object per slice) so that a 10 M-kernel capture fits in memory. Append in any order;
 * {@link #sortByStart()} puts slices in time order before a writer reads them.
 *
 * <p>Per-kind arguments share two packed columns: a kernel keeps grid x (31 bits), grid y and z
 * (16 bits each) in one and block x, y (11 bits), z (7 bits), registers per thread (8 bits) and
 * shared memory bytes (24 bits) in the other, which covers every limit CUDA documents; a copy keeps
 * its byte count in one and its copy kind and the memory kinds of its source and destination (8 bits
 * each) in the other; a set keeps its byte count and its value.
 */
public final class GpuStream {
    private final GpuDevice device;
    private final long streamId;
    private final IntColumn nameAndKind = new IntColumn(1024);
    private final LongColumn start = new LongColumn(1024);
    private final LongColumn end = new LongColumn(1024);
    private final IntColumn correlation = new IntColumn(1024);
    private final LongColumn aux0 = new LongColumn(1024);
    private final LongColumn aux1 = new LongColumn(1024);
    private boolean sorted = true;

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
     * Adds a kernel. {@code correlationId} is CUPTI's 32-bit correlation id (0 when unknown); it
     * links the kernel to the API call that launched it.
     */
    public void addKernel(int nameId, long startNs, long endNs, long correlationId,
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
        append(GpuOpKind.KERNEL, nameId, startNs, endNs, correlationId, grid, block);
    }

    /**
     * Adds a memory copy: {@code copyKind} is CUPTI's CUpti_ActivityMemcpyKind (1 HtoD, 8 DtoD),
     * {@code srcKind} and {@code dstKind} its CUpti_ActivityMemoryKind (1 pageable, 2 pinned, 3 device;
     * 0 when not recorded).
     */
    public void addMemcpy(int nameId, long startNs, long endNs, long correlationId, long bytes, int copyKind,
                          int srcKind, int dstKind) {
        check("copyKind", copyKind, 0xff);
        check("srcKind", srcKind, 0xff);
        check("dstKind", dstKind, 0xff);
        append(GpuOpKind.MEMCPY, nameId, startNs, endNs, correlationId, bytes, copyKind | srcKind << 8 | dstKind << 16);
    }

    /** Adds a memory set of {@code bytes} bytes to {@code value}. */
    public void addMemset(int nameId, long startNs, long endNs, long correlationId, long bytes, int value) {
        append(GpuOpKind.MEMSET, nameId, startNs, endNs, correlationId, bytes, value);
    }

    private void append(GpuOpKind kind, int nameId, long startNs, long endNs, long correlationId, long a0, long a1) {
        if (endNs < startNs) {
            throw new IllegalArgumentException("GPU " + kind + " on device " + device.deviceId() + " stream " + streamId
                    + " ends (" + endNs + " ns) before it starts (" + startNs + " ns)");
        }
        if (nameId < 0 || nameId >= (1 << 29)) {
            throw new IllegalArgumentException("name id " + nameId + " out of range");
        }
        if (correlationId < 0 || correlationId > 0xffff_ffffL) {
            throw new IllegalArgumentException("correlation id " + correlationId + " is not a 32-bit CUPTI correlation id");
        }
        int n = start.size();
        if (n > 0 && sorted) {
            long prevStart = start.get(n - 1);
            sorted = prevStart < startNs || (prevStart == startNs && end.get(n - 1) >= endNs);
        }
        nameAndKind.add(nameId << 2 | kind.ordinal());
        start.add(startNs);
        end.add(endNs);
        correlation.add((int) correlationId);
        aux0.add(a0);
        aux1.add(a1);
    }

    private static void check(String what, long v, long max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(what + " = " + v + " is outside 0.." + max);
        }
    }

    /** Puts the slices in order of start time (ties: longer first); cheap when already in order. */
    public void sortByStart() {
        if (sorted || SliceOrder.isSorted(start, end)) {
            sorted = true;
            return;
        }
        int[] order = SliceOrder.order(start, end);
        nameAndKind.permute(order);
        start.permute(order);
        end.permute(order);
        correlation.permute(order);
        aux0.permute(order);
        aux1.permute(order);
        sorted = true;
    }

    /** Releases the spare capacity of the columns once the stream is complete. */
    public void trim() {
        nameAndKind.trim();
        start.trim();
        end.trim();
        correlation.trim();
        aux0.trim();
        aux1.trim();
    }

    public int size() {
        return start.size();
    }

    public GpuOpKind kind(int i) {
        return GpuOpKind.of(nameAndKind.get(i) & 3);
    }

    public int nameId(int i) {
        return nameAndKind.get(i) >>> 2;
    }

    public long start(int i) {
        return start.get(i);
    }

    public long end(int i) {
        return end.get(i);
    }

    /** The CUPTI correlation id, 0 when none was recorded. */
    public long correlationId(int i) {
        return Integer.toUnsignedLong(correlation.get(i));
    }

    public int gridX(int i) {
        return (int) (aux0.get(i) >>> 32);
    }

    public int gridY(int i) {
        return (int) (aux0.get(i) >>> 16) & 0xffff;
    }

    public int gridZ(int i) {
        return (int) aux0.get(i) & 0xffff;
    }

    public int blockX(int i) {
        return (int) aux1.get(i) & 0x7ff;
    }

    public int blockY(int i) {
        return (int) (aux1.get(i) >>> 11) & 0x7ff;
    }

    public int blockZ(int i) {
        return (int) (aux1.get(i) >>> 22) & 0x7f;
    }

    public int registersPerThread(int i) {
        return (int) (aux1.get(i) >>> 29) & 0xff;
    }

    public int sharedMemoryBytes(int i) {
        return (int) (aux1.get(i) >>> 37) & 0xff_ffff;
    }

    /** Bytes copied or set (copies and sets only). */
    public long bytes(int i) {
        return aux0.get(i);
    }

    /** CUpti_ActivityMemcpyKind of a copy (copies only). */
    public int copyKind(int i) {
        return (int) aux1.get(i) & 0xff;
    }

    /** CUpti_ActivityMemoryKind of a copy's source, 0 when not recorded (copies only). */
    public int srcMemoryKind(int i) {
        return (int) (aux1.get(i) >>> 8) & 0xff;
    }

    /** CUpti_ActivityMemoryKind of a copy's destination, 0 when not recorded (copies only). */
    public int dstMemoryKind(int i) {
        return (int) (aux1.get(i) >>> 16) & 0xff;
    }

    /** The value a set wrote (sets only). */
    public int memsetValue(int i) {
        return (int) aux1.get(i);
    }
}
