package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.ApiRecord;
import dev.vprof.bindings.VprofRing.ClockSyncRecord;
import dev.vprof.bindings.VprofRing.DropsRecord;
import dev.vprof.bindings.VprofRing.KernelDescRecord;
import dev.vprof.bindings.VprofRing.KernelRecord;
import dev.vprof.bindings.VprofRing.MarkerRecord;
import dev.vprof.bindings.VprofRing.MemcpyRecord;
import dev.vprof.bindings.VprofRing.MemsetRecord;
import dev.vprof.bindings.VprofRing.RangeRecord;
import dev.vprof.bindings.VprofRing.StringRecord;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

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

    public RingRecords clockSync(long cuptiNs, long realtimeNs, long monotonicNs) {
        long at = begin(ClockSyncRecord.SIZE, VprofRing.REC_CLOCK_SYNC);
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
        long at = begin(DropsRecord.SIZE, VprofRing.REC_DROPS);
        seg.set(INT, at + DropsRecord.REASON, (int) reason);
        seg.set(LONG, at + DropsRecord.COUNT, count);
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
