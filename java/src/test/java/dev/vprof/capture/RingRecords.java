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
import dev.vprof.bindings.VprofRing.StringRecord;
import dev.vprof.bindings.VprofRing.SyncRecord;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Builds ring-encoded records (vprof_ring.h, through the generated VprofRing offsets) into
 * a MemorySegment, as an agent would publish them, for feeding a CaptureWriter in tests.
 */
public final class RingRecords {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private MemorySegment seg = Arena.ofAuto().allocate(4096, 8);
    private long pos;
    private long records;

    public RingRecords string(int id, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        long at = begin(StringRecord.SIZE + bytes.length, VprofRing.REC_STRING);
        seg.set(INT, at + StringRecord.ID, id);
        seg.set(INT, at + StringRecord.LEN, bytes.length);
        MemorySegment.copy(bytes, 0, seg, ValueLayout.JAVA_BYTE, at + StringRecord.SIZE, bytes.length);
        return this;
    }

    public RingRecords kernelDesc(int id, int nameId, int deviceId, int streamId) {
        long at = begin(KernelDescRecord.SIZE, VprofRing.REC_KERNEL_DESC);
        seg.set(INT, at + KernelDescRecord.ID, id);
        seg.set(INT, at + KernelDescRecord.NAME_ID, nameId);
        seg.set(INT, at + KernelDescRecord.DEVICE_ID, deviceId);
        seg.set(INT, at + KernelDescRecord.CONTEXT_ID, 1);
        seg.set(INT, at + KernelDescRecord.STREAM_ID, streamId);
        seg.set(INT, at + KernelDescRecord.GRID_X, 128);
        seg.set(INT, at + KernelDescRecord.GRID_Y, 1);
        seg.set(INT, at + KernelDescRecord.GRID_Z, 1);
        seg.set(INT, at + KernelDescRecord.BLOCK_X, 256);
        seg.set(INT, at + KernelDescRecord.BLOCK_Y, 1);
        seg.set(INT, at + KernelDescRecord.BLOCK_Z, 1);
        seg.set(INT, at + KernelDescRecord.SHARED_MEMORY, 4096);
        seg.set(INT, at + KernelDescRecord.REGISTERS, 64);
        return this;
    }

    /** A kernel desc of a CUDA graph node (format 2). */
    public RingRecords graphKernelDesc(int id, int nameId, int graphId, long graphNodeId) {
        kernelDesc(id, nameId, 0, 7);
        long at = pos - KernelDescRecord.SIZE;
        seg.set(INT, at + KernelDescRecord.GRAPH_ID, graphId);
        seg.set(LONG, at + KernelDescRecord.GRAPH_NODE_ID, graphNodeId);
        return this;
    }

    /** A kernel desc as ring format 1 wrote it: it ends before graph_node_id. */
    public RingRecords kernelDescV1(int id, int nameId, int deviceId, int streamId, int graphId) {
        long at = begin(KernelDescRecord.GRAPH_NODE_ID, VprofRing.REC_KERNEL_DESC);
        seg.set(INT, at + KernelDescRecord.ID, id);
        seg.set(INT, at + KernelDescRecord.NAME_ID, nameId);
        seg.set(INT, at + KernelDescRecord.DEVICE_ID, deviceId);
        seg.set(INT, at + KernelDescRecord.STREAM_ID, streamId);
        seg.set(INT, at + KernelDescRecord.GRAPH_ID, graphId);
        seg.set(INT, at + KernelDescRecord.REGISTERS, 32);
        return this;
    }

    public RingRecords kernel(long start, long end, int correlationId, int descId) {
        long at = begin(KernelRecord.SIZE, VprofRing.REC_KERNEL);
        seg.set(LONG, at + KernelRecord.START, start);
        seg.set(LONG, at + KernelRecord.END, end);
        seg.set(INT, at + KernelRecord.CORRELATION_ID, correlationId);
        seg.set(INT, at + KernelRecord.DESC_ID, descId);
        return this;
    }

    public RingRecords memcpy(long start, long end, long bytes, int copyKind, int deviceId) {
        long at = begin(MemcpyRecord.SIZE, VprofRing.REC_MEMCPY);
        seg.set(LONG, at + MemcpyRecord.START, start);
        seg.set(LONG, at + MemcpyRecord.END, end);
        seg.set(LONG, at + MemcpyRecord.BYTES, bytes);
        seg.set(INT, at + MemcpyRecord.DEVICE_ID, deviceId);
        seg.set(INT, at + MemcpyRecord.STREAM_ID, 7);
        seg.set(ValueLayout.JAVA_BYTE, at + MemcpyRecord.COPY_KIND, (byte) copyKind);
        return this;
    }

    public RingRecords memset(long start, long end, long bytes, int deviceId) {
        long at = begin(MemsetRecord.SIZE, VprofRing.REC_MEMSET);
        seg.set(LONG, at + MemsetRecord.START, start);
        seg.set(LONG, at + MemsetRecord.END, end);
        seg.set(LONG, at + MemsetRecord.BYTES, bytes);
        seg.set(INT, at + MemsetRecord.DEVICE_ID, deviceId);
        return this;
    }

    public RingRecords marker(long timestamp, int id, long flags, int nameId, int domainId, int tid) {
        long at = begin(MarkerRecord.SIZE, VprofRing.REC_MARKER);
        seg.set(LONG, at + MarkerRecord.TIMESTAMP, timestamp);
        seg.set(INT, at + MarkerRecord.ID, id);
        seg.set(INT, at + MarkerRecord.FLAGS, (int) flags);
        seg.set(INT, at + MarkerRecord.NAME_ID, nameId);
        seg.set(INT, at + MarkerRecord.DOMAIN_ID, domainId);
        seg.set(INT, at + MarkerRecord.TID, tid);
        return this;
    }

    public RingRecords api(long start, long end, int correlationId, int cbid, long domain, int tid) {
        long at = begin(ApiRecord.SIZE, VprofRing.REC_API);
        seg.set(LONG, at + ApiRecord.START, start);
        seg.set(LONG, at + ApiRecord.END, end);
        seg.set(INT, at + ApiRecord.CORRELATION_ID, correlationId);
        seg.set(INT, at + ApiRecord.CBID, cbid);
        seg.set(INT, at + ApiRecord.DOMAIN, (int) domain);
        seg.set(INT, at + ApiRecord.TID, tid);
        return this;
    }

    /** A SYNC record; {@code streamId}/{@code eventId} (int) VprofRing.SYNC_NONE where the type has none. */
    public RingRecords sync(long start, long end, int correlationId, int type, int contextId, int streamId,
            int eventId) {
        long at = begin(SyncRecord.SIZE, VprofRing.REC_SYNC);
        seg.set(LONG, at + SyncRecord.START, start);
        seg.set(LONG, at + SyncRecord.END, end);
        seg.set(INT, at + SyncRecord.CORRELATION_ID, correlationId);
        seg.set(INT, at + SyncRecord.TYPE, type);
        seg.set(INT, at + SyncRecord.CONTEXT_ID, contextId);
        seg.set(INT, at + SyncRecord.STREAM_ID, streamId);
        seg.set(INT, at + SyncRecord.EVENT_ID, eventId);
        return this;
    }

    /** A CLOCK_SYNC without a boot time (boottime_ns 0). */
    public RingRecords clockSync(long cuptiNs, long realtimeNs, long monotonicNs) {
        return clockSync(cuptiNs, realtimeNs, monotonicNs, 0);
    }

    public RingRecords clockSync(long cuptiNs, long realtimeNs, long monotonicNs, long boottimeNs) {
        long at = begin(ClockSyncRecord.SIZE, VprofRing.REC_CLOCK_SYNC);
        seg.set(LONG, at + ClockSyncRecord.CUPTI_NS, cuptiNs);
        seg.set(LONG, at + ClockSyncRecord.REALTIME_NS, realtimeNs);
        seg.set(LONG, at + ClockSyncRecord.MONOTONIC_NS, monotonicNs);
        seg.set(LONG, at + ClockSyncRecord.BOOTTIME_NS, boottimeNs);
        return this;
    }

    /** A CLOCK_SYNC as agents wrote it before boottime_ns: 32 bytes, ending after monotonic_ns. */
    public RingRecords clockSyncWithoutBoottime(long cuptiNs, long realtimeNs, long monotonicNs) {
        long at = begin(ClockSyncRecord.BOOTTIME_NS, VprofRing.REC_CLOCK_SYNC);
        seg.set(LONG, at + ClockSyncRecord.CUPTI_NS, cuptiNs);
        seg.set(LONG, at + ClockSyncRecord.REALTIME_NS, realtimeNs);
        seg.set(LONG, at + ClockSyncRecord.MONOTONIC_NS, monotonicNs);
        return this;
    }

    public RingRecords rangeBegin(long source, int index, int captureId, long cuptiNs) {
        return range(VprofRing.RANGE_BEGIN, source, index, captureId, cuptiNs, 0, 0, 0);
    }

    public RingRecords rangeEnd(long source, int index, int captureId, long cuptiNs,
            long ringDrops, long ringDropsKernels, long cuptiDrops) {
        return range(VprofRing.RANGE_END, source, index, captureId, cuptiNs, ringDrops, ringDropsKernels, cuptiDrops);
    }

    private RingRecords range(long edge, long source, int index, int captureId, long cuptiNs,
            long ringDrops, long ringDropsKernels, long cuptiDrops) {
        long at = begin(RangeRecord.SIZE, VprofRing.REC_RANGE);
        seg.set(INT, at + RangeRecord.EDGE, (int) edge);
        seg.set(INT, at + RangeRecord.SOURCE, (int) source);
        seg.set(INT, at + RangeRecord.INDEX, index);
        seg.set(INT, at + RangeRecord.CAPTURE_ID, captureId);
        seg.set(LONG, at + RangeRecord.CUPTI_NS, cuptiNs);
        seg.set(LONG, at + RangeRecord.REALTIME_NS, cuptiNs);
        seg.set(LONG, at + RangeRecord.RING_DROPS, ringDrops);
        seg.set(LONG, at + RangeRecord.RING_DROPS_KERNELS, ringDropsKernels);
        seg.set(LONG, at + RangeRecord.CUPTI_DROPS, cuptiDrops);
        return this;
    }

    public RingRecords drops(long reason, long count) {
        return drops(reason, 0, count);
    }

    public RingRecords drops(long reason, long recordType, long count) {
        long at = begin(DropsRecord.SIZE, VprofRing.REC_DROPS);
        seg.set(INT, at + DropsRecord.REASON, (int) reason);
        seg.set(INT, at + DropsRecord.RECORD_TYPE, (int) recordType);
        seg.set(LONG, at + DropsRecord.COUNT, count);
        return this;
    }

    /** A LATE_BEGIN or LATE_END edge naming an earlier range (format 2). */
    public RingRecords late(boolean begin, int index, int captureId) {
        long at = begin(RangeRecord.SIZE, VprofRing.REC_RANGE);
        seg.set(INT, at + RangeRecord.EDGE, (begin ? VprofRing.RANGE_LATE_BEGIN : VprofRing.RANGE_LATE_END));
        seg.set(INT, at + RangeRecord.INDEX, index);
        seg.set(INT, at + RangeRecord.CAPTURE_ID, captureId);
        return this;
    }

    /**
     * Sets the ring drops of the RANGE record just written: an END's own records, or a LATE_END's
     * of the range it names, that the full ring refused.
     */
    public RingRecords ringDrops(long ringDrops, long ringDropsKernels) {
        long at = pos - RangeRecord.SIZE;
        seg.set(LONG, at + RangeRecord.RING_DROPS, ringDrops);
        seg.set(LONG, at + RangeRecord.RING_DROPS_KERNELS, ringDropsKernels);
        return this;
    }

    /** A range edge as ring format 1 wrote it: it ends after cupti_drops. */
    public RingRecords rangeV1(long edge, long source, int index, long cuptiNs, long cuptiDrops) {
        long at = begin(RangeRecord.CORRELATION_ID, VprofRing.REC_RANGE);
        seg.set(INT, at + RangeRecord.EDGE, (int) edge);
        seg.set(INT, at + RangeRecord.SOURCE, (int) source);
        seg.set(INT, at + RangeRecord.INDEX, index);
        seg.set(LONG, at + RangeRecord.CUPTI_NS, cuptiNs);
        seg.set(LONG, at + RangeRecord.CUPTI_DROPS, cuptiDrops);
        return this;
    }

    /**
     * An END of format 2 with what the agent counted: the correlation id of the stop, the warning
     * flags, launches and kernels, and the records it kept off the timeline.
     */
    public RingRecords rangeEndCounted(long source, int index, long cuptiNs, int correlationId, long flags,
            long kernelLaunches, long graphLaunches, long kernels, long graphKernels, long kernelsMissing,
            long clipped, long rejectedEndBeforeStart) {
        rangeEnd(source, index, 0, cuptiNs, 0, 0, 0);
        long at = pos - RangeRecord.SIZE;
        seg.set(INT, at + RangeRecord.CORRELATION_ID, correlationId);
        seg.set(INT, at + RangeRecord.FLAGS, (int) flags);
        seg.set(LONG, at + RangeRecord.DRAINED_CUPTI_NS, cuptiNs + 20_000_000L);
        seg.set(LONG, at + RangeRecord.KERNEL_LAUNCHES, kernelLaunches);
        seg.set(LONG, at + RangeRecord.GRAPH_LAUNCHES, graphLaunches);
        seg.set(LONG, at + RangeRecord.KERNELS, kernels);
        seg.set(LONG, at + RangeRecord.GRAPH_KERNELS, graphKernels);
        seg.set(LONG, at + RangeRecord.KERNELS_MISSING, kernelsMissing);
        seg.set(LONG, at + RangeRecord.CLIPPED, clipped);
        seg.set(LONG, at + RangeRecord.REJECTED_END_BEFORE_START, rejectedEndBeforeStart);
        return this;
    }

    /** A DEVICE record (format 2) naming STRING nameId. */
    public RingRecords device(int id, int nameId, int smCount, long memoryBytes, int major, int minor) {
        long at = begin(DeviceRecord.SIZE, VprofRing.REC_DEVICE);
        seg.set(INT, at + DeviceRecord.ID, id);
        seg.set(INT, at + DeviceRecord.NAME_ID, nameId);
        seg.set(LONG, at + DeviceRecord.GLOBAL_MEMORY_BYTES, memoryBytes);
        seg.set(INT, at + DeviceRecord.SM_COUNT, smCount);
        seg.set(INT, at + DeviceRecord.COMPUTE_MAJOR, major);
        seg.set(INT, at + DeviceRecord.COMPUTE_MINOR, minor);
        seg.set(INT, at + DeviceRecord.WARP_SIZE, 32);
        seg.set(INT, at + DeviceRecord.MAX_THREADS_PER_BLOCK, 1024);
        seg.set(INT, at + DeviceRecord.MAX_WARPS_PER_SM, 64);
        seg.set(INT, at + DeviceRecord.MAX_REGISTERS_PER_BLOCK, 65536);
        seg.set(INT, at + DeviceRecord.MAX_REGISTERS_PER_SM, 65536);
        seg.set(INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_BLOCK, 49152);
        seg.set(INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_SM, 233472);
        seg.set(INT, at + DeviceRecord.FLAGS, VprofRing.DEVICE_ECC);
        seg.set(ValueLayout.JAVA_BYTE, at + DeviceRecord.UUID, (byte) 0xab);
        return this;
    }

    public RingRecords cpuOp(long start, long end, int nameId, int tid, int kind) {
        long at = begin(CpuOpRecord.SIZE, VprofRing.REC_CPU_OP);
        seg.set(LONG, at + CpuOpRecord.START, start);
        seg.set(LONG, at + CpuOpRecord.END, end);
        seg.set(INT, at + CpuOpRecord.NAME_ID, nameId);
        seg.set(INT, at + CpuOpRecord.TID, tid);
        seg.set(INT, at + CpuOpRecord.KIND, kind);
        return this;
    }

    /** One ARGS piece: bytes {@code [offset, offset+n)} of an encoded object, with its FIRST/LAST flags. */
    public RingRecords argsPiece(int target, int flags, byte[] object, int offset, int n) {
        long at = begin(ArgsRecord.SIZE + n, VprofRing.REC_ARGS);
        seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, at + ArgsRecord.TARGET, (short) target);
        seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, at + ArgsRecord.FLAGS, (short) flags);
        seg.set(INT, at + ArgsRecord.LEN, n);
        MemorySegment.copy(object, offset, seg, ValueLayout.JAVA_BYTE, at + ArgsRecord.SIZE, n);
        return this;
    }

    /** An ARGS object in pieces of at most {@code piece} bytes. */
    public RingRecords args(int target, byte[] object, int piece) {
        for (int off = 0; off < object.length; off += piece) {
            int n = Math.min(piece, object.length - off);
            argsPiece(target, (off == 0 ? VprofRing.ARGS_FIRST : 0) | (off + n == object.length ? VprofRing.ARGS_LAST : 0),
                    object, off, n);
        }
        return this;
    }

    /** A record of any header, zero payload: for hostile input. {@code size} bytes are reserved. */
    public RingRecords raw(int size, int lengthField, int type) {
        long at = begin(size, type);
        seg.set(INT, at, lengthField);
        return this;
    }

    /** The records built so far. */
    public MemorySegment segment() {
        return seg.asSlice(0, pos);
    }

    public long size() {
        return pos;
    }

    public long count() {
        return records;
    }

    /** Feeds everything built so far to {@code writer} as process {@code pid}'s records, and starts afresh. */
    public RingRecords writeTo(CaptureWriter writer, int pid) throws IOException {
        writer.records(pid, seg, 0, pos);
        seg.asSlice(0, pos).fill((byte) 0);
        pos = 0;
        return this;
    }

    /** A new {@code file} of one process, {@code process}, whose records are everything built so far. */
    public Path writeFile(Path file, CaptureMetadata metadata, ProcessInfo process) throws IOException {
        try (CaptureWriter w = CaptureWriter.create(file, metadata)) {
            w.process(process);
            writeTo(w, process.pid());
        }
        return file;
    }

    private long begin(long payloadAndHeader, long type) {
        long len = (payloadAndHeader + 7) & ~7L;
        if (pos + len > seg.byteSize()) {
            MemorySegment bigger = Arena.ofAuto().allocate(Math.max(seg.byteSize() * 2, pos + len), 8);
            MemorySegment.copy(seg, 0, bigger, 0, pos);
            seg = bigger;
        }
        long at = pos;
        seg.set(INT, at + VprofRing.RecordHeader.LENGTH, (int) len);
        seg.set(INT, at + VprofRing.RecordHeader.TYPE, (int) type);
        pos += len;
        records++;
        return at;
    }
}
