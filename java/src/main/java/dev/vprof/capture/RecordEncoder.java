package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.ApiRecord;
import dev.vprof.bindings.VprofRing.ArgsRecord;
import dev.vprof.bindings.VprofRing.ClockSyncRecord;
import dev.vprof.bindings.VprofRing.CpuOpRecord;
import dev.vprof.bindings.VprofRing.DeviceRecord;
import dev.vprof.bindings.VprofRing.DropsRecord;
import dev.vprof.bindings.VprofRing.KernelDescRecord;
import dev.vprof.bindings.VprofRing.KernelRecord;
import dev.vprof.bindings.VprofRing.MarkerRecord;
import dev.vprof.bindings.VprofRing.MemcpyRecord;
import dev.vprof.bindings.VprofRing.MemsetRecord;
import dev.vprof.bindings.VprofRing.RangeRecord;
import dev.vprof.bindings.VprofRing.RecordHeader;
import dev.vprof.bindings.VprofRing.StringRecord;
import dev.vprof.bindings.VprofRing.SyncRecord;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The writing side of {@link RecordDecoder}: ring records (native/include/vprof_ring.h, through
 * the generated {@link VprofRing} offsets) as an agent publishes them, for the readers that
 * translate other tools' files into a capture (PyTorch traces, nsys exports). Each record kind's
 * fields are written here once; where the bytes go is the caller's {@link Room}.
 */
public final class RecordEncoder {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    /** Bytes of an ARGS piece: what a record of {@code VPROF_RECORD_MAX} leaves after its header. */
    public static final int ARGS_PIECE = (int) (VprofRing.RECORD_MAX - ArgsRecord.SIZE);

    private RecordEncoder() {}

    /** Where records are written: a block of memory that the caller hands on when it is full. */
    public interface Room {
        /**
         * Room for one record of {@code size} bytes (header included) of {@code type}, zeroed,
         * its header written ({@link #header}): the record's offset in {@link #segment}.
         */
        long begin(long size, int type) throws IOException;

        /** The memory {@link #begin}'s offset is in; valid until the next {@link #begin}. */
        MemorySegment segment();
    }

    /** The length a record of {@code size} bytes takes in a ring: records are 8-byte aligned. */
    public static int length(long size) {
        return (int) ((size + 7) & ~7L);
    }

    /** Zeroes {@code len} bytes at {@code at} and writes a record header of that length and {@code type}. */
    public static void header(MemorySegment g, long at, int len, int type) {
        g.asSlice(at, len).fill((byte) 0);
        g.set(INT, at + RecordHeader.LENGTH, len);
        g.set(INT, at + RecordHeader.TYPE, type);
    }

    /** {@code bytes} cut to {@code VPROF_STRING_MAX} on a UTF-8 boundary; the same array when it fits. */
    public static byte[] fitString(byte[] bytes) {
        if (bytes.length <= VprofRing.STRING_MAX) {
            return bytes;
        }
        int cut = (int) VprofRing.STRING_MAX;
        while (cut > 0 && (bytes[cut] & 0xC0) == 0x80) {
            cut--; // do not split a UTF-8 sequence
        }
        return Arrays.copyOf(bytes, cut);
    }

    /** A STRING record: {@code id} names {@code bytes} (UTF-8, at most {@code VPROF_STRING_MAX}: see {@link #fitString}). */
    public static void string(Room r, int id, byte[] bytes) throws IOException {
        long at = r.begin(StringRecord.SIZE + bytes.length, VprofRing.REC_STRING);
        MemorySegment g = r.segment();
        g.set(INT, at + StringRecord.ID, id);
        g.set(INT, at + StringRecord.LEN, bytes.length);
        MemorySegment.copy(bytes, 0, g, BYTE, at + StringRecord.SIZE, bytes.length);
    }

    /**
     * An ARGS object of {@code len} bytes ({@link ArgsCodec}'s encoding) for the record of type
     * {@code target} that follows (0: the process), in pieces of at most {@link #ARGS_PIECE}
     * bytes: the number of records written (none when {@code len} is 0).
     */
    public static int args(Room r, int target, byte[] bytes, int len) throws IOException {
        int pieces = 0;
        for (int off = 0; off < len; off += ARGS_PIECE) {
            int n = Math.min(ARGS_PIECE, len - off);
            long at = r.begin(ArgsRecord.SIZE + n, VprofRing.REC_ARGS);
            MemorySegment g = r.segment();
            g.set(SHORT, at + ArgsRecord.TARGET, (short) target);
            g.set(SHORT, at + ArgsRecord.FLAGS, (short) ((off == 0 ? VprofRing.ARGS_FIRST : 0)
                    | (off + n == len ? VprofRing.ARGS_LAST : 0)));
            g.set(INT, at + ArgsRecord.LEN, n);
            MemorySegment.copy(bytes, off, g, BYTE, at + ArgsRecord.SIZE, n);
            pieces++;
        }
        return pieces;
    }

    /** A KERNEL_DESC record: shape {@code s} interned as {@code id}. */
    public static void kernelDesc(Room r, int id, KernelShape s) throws IOException {
        long at = r.begin(KernelDescRecord.SIZE, VprofRing.REC_KERNEL_DESC);
        MemorySegment g = r.segment();
        g.set(INT, at + KernelDescRecord.ID, id);
        g.set(INT, at + KernelDescRecord.NAME_ID, s.nameId());
        g.set(INT, at + KernelDescRecord.DEVICE_ID, s.device());
        g.set(INT, at + KernelDescRecord.CONTEXT_ID, s.context());
        g.set(INT, at + KernelDescRecord.STREAM_ID, s.stream());
        g.set(INT, at + KernelDescRecord.GRAPH_ID, s.graphId());
        g.set(INT, at + KernelDescRecord.GRID_X, s.gx());
        g.set(INT, at + KernelDescRecord.GRID_Y, s.gy());
        g.set(INT, at + KernelDescRecord.GRID_Z, s.gz());
        g.set(INT, at + KernelDescRecord.BLOCK_X, s.bx());
        g.set(INT, at + KernelDescRecord.BLOCK_Y, s.by());
        g.set(INT, at + KernelDescRecord.BLOCK_Z, s.bz());
        g.set(INT, at + KernelDescRecord.SHARED_MEMORY, s.sharedMemory());
        g.set(INT, at + KernelDescRecord.REGISTERS, s.registers());
        g.set(LONG, at + KernelDescRecord.GRAPH_NODE_ID, s.graphNodeId());
    }

    /** A KERNEL record: one launch of the shape interned as {@code descId}. */
    public static void kernel(Room r, long start, long end, int correlationId, int descId) throws IOException {
        long at = r.begin(KernelRecord.SIZE, VprofRing.REC_KERNEL);
        MemorySegment g = r.segment();
        g.set(LONG, at + KernelRecord.START, start);
        g.set(LONG, at + KernelRecord.END, end);
        g.set(INT, at + KernelRecord.CORRELATION_ID, correlationId);
        g.set(INT, at + KernelRecord.DESC_ID, descId);
    }

    /** A MEMCPY record; the kinds are CUPTI's ({@code CUpti_ActivityMemcpyKind}, {@code CUpti_ActivityMemoryKind}). */
    public static void memcpy(Room r, long start, long end, long bytes, int correlationId, int device, int context,
                              int stream, int copyKind, int srcKind, int dstKind, int flags) throws IOException {
        long at = r.begin(MemcpyRecord.SIZE, VprofRing.REC_MEMCPY);
        MemorySegment g = r.segment();
        g.set(LONG, at + MemcpyRecord.START, start);
        g.set(LONG, at + MemcpyRecord.END, end);
        g.set(LONG, at + MemcpyRecord.BYTES, bytes);
        g.set(INT, at + MemcpyRecord.CORRELATION_ID, correlationId);
        g.set(INT, at + MemcpyRecord.DEVICE_ID, device);
        g.set(INT, at + MemcpyRecord.CONTEXT_ID, context);
        g.set(INT, at + MemcpyRecord.STREAM_ID, stream);
        g.set(BYTE, at + MemcpyRecord.COPY_KIND, (byte) copyKind);
        g.set(BYTE, at + MemcpyRecord.SRC_KIND, (byte) srcKind);
        g.set(BYTE, at + MemcpyRecord.DST_KIND, (byte) dstKind);
        g.set(BYTE, at + MemcpyRecord.FLAGS, (byte) flags);
    }

    /** A MEMSET record. */
    public static void memset(Room r, long start, long end, long bytes, int correlationId, int device, int context,
                              int stream, int value) throws IOException {
        long at = r.begin(MemsetRecord.SIZE, VprofRing.REC_MEMSET);
        MemorySegment g = r.segment();
        g.set(LONG, at + MemsetRecord.START, start);
        g.set(LONG, at + MemsetRecord.END, end);
        g.set(LONG, at + MemsetRecord.BYTES, bytes);
        g.set(INT, at + MemsetRecord.CORRELATION_ID, correlationId);
        g.set(INT, at + MemsetRecord.DEVICE_ID, device);
        g.set(INT, at + MemsetRecord.CONTEXT_ID, context);
        g.set(INT, at + MemsetRecord.STREAM_ID, stream);
        g.set(INT, at + MemsetRecord.VALUE, value);
    }

    /** An API record: one runtime or driver call ({@code domain}, callback id {@code cbid}) on thread {@code tid}. */
    public static void api(Room r, long start, long end, int correlationId, int cbid, int domain, int tid)
            throws IOException {
        long at = r.begin(ApiRecord.SIZE, VprofRing.REC_API);
        MemorySegment g = r.segment();
        g.set(LONG, at + ApiRecord.START, start);
        g.set(LONG, at + ApiRecord.END, end);
        g.set(INT, at + ApiRecord.CORRELATION_ID, correlationId);
        g.set(INT, at + ApiRecord.CBID, cbid);
        g.set(INT, at + ApiRecord.DOMAIN, domain);
        g.set(INT, at + ApiRecord.TID, tid);
    }

    /** A CPU_OP record: an operator or a Python function ({@code kind}) named by STRING {@code nameId}. */
    public static void cpuOp(Room r, long start, long end, int nameId, int tid, int kind) throws IOException {
        long at = r.begin(CpuOpRecord.SIZE, VprofRing.REC_CPU_OP);
        MemorySegment g = r.segment();
        g.set(LONG, at + CpuOpRecord.START, start);
        g.set(LONG, at + CpuOpRecord.END, end);
        g.set(INT, at + CpuOpRecord.NAME_ID, nameId);
        g.set(INT, at + CpuOpRecord.TID, tid);
        g.set(INT, at + CpuOpRecord.KIND, kind);
    }

    /** A MARKER record: an instant or one edge of a range ({@code flags}: {@code MARKER_*}); ids 0 name nothing. */
    public static void marker(Room r, long timestamp, int id, int flags, int nameId, int domainId, int tid)
            throws IOException {
        long at = r.begin(MarkerRecord.SIZE, VprofRing.REC_MARKER);
        MemorySegment g = r.segment();
        g.set(LONG, at + MarkerRecord.TIMESTAMP, timestamp);
        g.set(INT, at + MarkerRecord.ID, id);
        g.set(INT, at + MarkerRecord.FLAGS, flags);
        g.set(INT, at + MarkerRecord.NAME_ID, nameId);
        g.set(INT, at + MarkerRecord.DOMAIN_ID, domainId);
        g.set(INT, at + MarkerRecord.TID, tid);
    }

    /**
     * A DEVICE record of {@code d}, its name the STRING {@code nameId} (0: none; {@code d.name()}
     * is not written). A UUID that is not 32 hex digits is left zero.
     */
    public static void device(Room r, DeviceProperties d, int nameId) throws IOException {
        long at = r.begin(DeviceRecord.SIZE, VprofRing.REC_DEVICE);
        MemorySegment g = r.segment();
        g.set(INT, at + DeviceRecord.ID, d.id());
        g.set(INT, at + DeviceRecord.NAME_ID, nameId);
        g.set(LONG, at + DeviceRecord.GLOBAL_MEMORY_BYTES, d.globalMemoryBytes());
        g.set(LONG, at + DeviceRecord.GLOBAL_MEMORY_BANDWIDTH, d.globalMemoryBandwidthKbps());
        g.set(INT, at + DeviceRecord.SM_COUNT, d.smCount());
        g.set(INT, at + DeviceRecord.COMPUTE_MAJOR, d.computeMajor());
        g.set(INT, at + DeviceRecord.COMPUTE_MINOR, d.computeMinor());
        g.set(INT, at + DeviceRecord.CORE_CLOCK_KHZ, d.coreClockKHz());
        g.set(INT, at + DeviceRecord.L2_CACHE_BYTES, d.l2CacheBytes());
        g.set(INT, at + DeviceRecord.WARP_SIZE, d.warpSize());
        g.set(INT, at + DeviceRecord.MAX_THREADS_PER_BLOCK, d.maxThreadsPerBlock());
        g.set(INT, at + DeviceRecord.MAX_WARPS_PER_SM, d.maxWarpsPerSm());
        g.set(INT, at + DeviceRecord.MAX_BLOCKS_PER_SM, d.maxBlocksPerSm());
        g.set(INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_SM, d.maxSharedMemoryPerSm());
        g.set(INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_BLOCK, d.maxSharedMemoryPerBlock());
        g.set(INT, at + DeviceRecord.MAX_REGISTERS_PER_SM, d.maxRegistersPerSm());
        g.set(INT, at + DeviceRecord.MAX_REGISTERS_PER_BLOCK, d.maxRegistersPerBlock());
        g.set(INT, at + DeviceRecord.FLAGS, (d.eccEnabled() ? VprofRing.DEVICE_ECC : 0)
                | (d.migEnabled() ? VprofRing.DEVICE_MIG : 0));
        String uuid = d.uuid();
        if (uuid != null && uuid.length() == 2 * DeviceRecord.UUID_SIZE) {
            try {
                byte[] b = HexFormat.of().parseHex(uuid);
                MemorySegment.copy(b, 0, g, BYTE, at + DeviceRecord.UUID, b.length);
            } catch (IllegalArgumentException e) {
                // not hex: the UUID stays zero, as for a device CUPTI gave none
            }
        }
    }

    /** A CLOCK_SYNC record: one instant on CUPTI's clock and the host's (a boottime of 0: none). */
    public static void clockSync(Room r, ClockSync c) throws IOException {
        long at = r.begin(ClockSyncRecord.SIZE, VprofRing.REC_CLOCK_SYNC);
        MemorySegment g = r.segment();
        g.set(LONG, at + ClockSyncRecord.CUPTI_NS, c.cuptiNs());
        g.set(LONG, at + ClockSyncRecord.REALTIME_NS, c.realtimeNs());
        g.set(LONG, at + ClockSyncRecord.MONOTONIC_NS, c.monotonicNs());
        g.set(LONG, at + ClockSyncRecord.BOOTTIME_NS, c.boottimeNs());
    }

    /** A DROPS record: {@code d.count()} records lost or kept off the timeline for {@code d.reason()}. */
    public static void drops(Room r, DropsEvent d) throws IOException {
        long at = r.begin(DropsRecord.SIZE, VprofRing.REC_DROPS);
        MemorySegment g = r.segment();
        g.set(INT, at + DropsRecord.REASON, d.reason());
        g.set(INT, at + DropsRecord.CONTEXT_ID, d.contextId());
        g.set(INT, at + DropsRecord.STREAM_ID, d.streamId());
        g.set(INT, at + DropsRecord.RECORD_TYPE, d.recordType());
        g.set(LONG, at + DropsRecord.COUNT, d.count());
    }

    /** A SYNC record: the host blocked in a synchronize call. */
    public static void sync(Room r, SyncEvent s) throws IOException {
        long at = r.begin(SyncRecord.SIZE, VprofRing.REC_SYNC);
        MemorySegment g = r.segment();
        g.set(LONG, at + SyncRecord.START, s.start());
        g.set(LONG, at + SyncRecord.END, s.end());
        g.set(INT, at + SyncRecord.CORRELATION_ID, s.correlationId());
        g.set(INT, at + SyncRecord.TYPE, s.type());
        g.set(INT, at + SyncRecord.CONTEXT_ID, s.contextId());
        g.set(INT, at + SyncRecord.STREAM_ID, s.streamId());
        g.set(INT, at + SyncRecord.EVENT_ID, s.eventId());
    }

    /** A RANGE record of the current format, every count of {@code e} in it. */
    public static void range(Room r, RangeEvent e) throws IOException {
        long at = r.begin(RangeRecord.SIZE, VprofRing.REC_RANGE);
        MemorySegment g = r.segment();
        g.set(INT, at + RangeRecord.EDGE, e.edge());
        g.set(INT, at + RangeRecord.SOURCE, e.source());
        g.set(INT, at + RangeRecord.INDEX, e.index());
        g.set(INT, at + RangeRecord.CAPTURE_ID, e.captureId());
        g.set(INT, at + RangeRecord.CORRELATION_ID, e.correlationId());
        g.set(INT, at + RangeRecord.FLAGS, e.flags());
        g.set(LONG, at + RangeRecord.CUPTI_NS, e.cuptiNs());
        g.set(LONG, at + RangeRecord.REALTIME_NS, e.realtimeNs());
        g.set(LONG, at + RangeRecord.RING_DROPS, e.ringDrops());
        g.set(LONG, at + RangeRecord.RING_DROPS_KERNELS, e.ringDropsKernels());
        g.set(LONG, at + RangeRecord.CUPTI_DROPS, e.cuptiDrops());
        g.set(LONG, at + RangeRecord.DRAINED_CUPTI_NS, e.drainedCuptiNs());
        g.set(LONG, at + RangeRecord.KERNEL_LAUNCHES, e.kernelLaunches());
        g.set(LONG, at + RangeRecord.GRAPH_LAUNCHES, e.graphLaunches());
        g.set(LONG, at + RangeRecord.KERNELS, e.kernels());
        g.set(LONG, at + RangeRecord.GRAPH_KERNELS, e.graphKernels());
        g.set(LONG, at + RangeRecord.KERNELS_MISSING, e.kernelsMissing());
        g.set(LONG, at + RangeRecord.CLIPPED, e.clipped());
        g.set(LONG, at + RangeRecord.REJECTED_ZERO_TS, e.rejectedZeroTs());
        g.set(LONG, at + RangeRecord.REJECTED_START_ZERO, e.rejectedStartZero());
        g.set(LONG, at + RangeRecord.REJECTED_END_ZERO, e.rejectedEndZero());
        g.set(LONG, at + RangeRecord.REJECTED_END_BEFORE_START, e.rejectedEndBeforeStart());
        g.set(LONG, at + RangeRecord.REJECTED_OUTSIDE_RANGE, e.rejectedOutsideRange());
        g.set(LONG, at + RangeRecord.LATE, e.late());
        g.set(LONG, at + RangeRecord.REJECTED_BAD_RECORD, e.rejectedBadRecord());
    }
}
