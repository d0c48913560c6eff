package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.KernelDescRecord;
import dev.vprof.bindings.VprofRing.KernelRecord;
import dev.vprof.bindings.VprofRing.MemcpyRecord;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The record encoder against its reading side: every record kind written by {@link RecordEncoder}
 * comes back from {@link RecordDecoder} with the values it was given, and the bytes sit where the
 * C layout (vprof_ring.h, through the generated bindings) puts them.
 */
class RecordEncoderTest {
    /** A room of one block, as the trace and nsys readers keep theirs. */
    private static final class Block implements RecordEncoder.Room {
        final MemorySegment seg = Arena.ofAuto().allocate(1 << 16, 8);
        long pos;

        @Override
        public long begin(long size, int type) {
            int len = RecordEncoder.length(size);
            long at = pos;
            RecordEncoder.header(seg, at, len, type);
            pos += len;
            return at;
        }

        @Override
        public MemorySegment segment() {
            return seg;
        }
    }

    /** What the decoder hands out, in order. */
    private static final class Seen implements RecordVisitor {
        final List<Object> events = new ArrayList<>();

        @Override public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
            events.add(List.of(start, end, correlationId, desc.id(), name));
        }
        @Override public void memcpy(int pid, MemcpyEvent e) { events.add(e); }
        @Override public void memset(int pid, MemsetEvent e) { events.add(e); }
        @Override public void marker(int pid, MarkerEvent e) { events.add(e); }
        @Override public void api(int pid, ApiEvent e) { events.add(e); }
        @Override public void cpuOp(int pid, CpuOpEvent e) { events.add(e); }
        @Override public void eventArgs(int pid, EventArgs a) { events.add(a.target() + " " + a.fields()); }
        @Override public boolean wantsEventArgs() { return true; }
        @Override public void sync(int pid, SyncEvent e) { events.add(e); }
        @Override public void range(int pid, RangeEvent e) { events.add(e); }
        @Override public void drops(int pid, DropsEvent e) { events.add(e); }
        @Override public void clockSync(int pid, ClockSync e) { events.add(e); }
        @Override public void device(int pid, DeviceProperties e) { events.add(e); }
        @Override public void string(int pid, int id, String value) { events.add(id + "=" + value); }
        @Override public void kernelDesc(int pid, KernelDesc d) { events.add(d); }
    }

    @Test
    void everyRecordKindComesBackFromTheDecoderAsWritten() throws IOException {
        Block b = new Block();
        RecordEncoder.string(b, 1, "gemm".getBytes(StandardCharsets.UTF_8));
        RecordEncoder.string(b, 2, "name".getBytes(StandardCharsets.UTF_8));
        KernelShape shape = new KernelShape(1, 3, 4, 5, 64, 2, 1, 128, 4, 1, 4096, 96, 7, 1L << 40);
        RecordEncoder.kernelDesc(b, 9, shape);
        RecordEncoder.kernel(b, 1000, 2000, 11, 9);
        RecordEncoder.memcpy(b, 3000, 3500, 1L << 33, 12, 3, 4, 5, 1, 2, 3, 1);
        RecordEncoder.memset(b, 4000, 4100, 256, 13, 3, 4, 5, 0x7f);
        ArgsCodec.Encoder args = new ArgsCodec.Encoder();
        args.beginObject();
        args.key(2);
        args.string("cudaLaunchKernel");
        args.end();
        assertEquals(1, RecordEncoder.args(b, VprofRing.REC_API, args.buffer(), args.length()));
        RecordEncoder.api(b, 5000, 5200, 14, 211, 1, 77);
        RecordEncoder.cpuOp(b, 6000, 6600, 1, 78, VprofRing.CPU_OP_OPERATOR);
        RecordEncoder.marker(b, 7000, 5, VprofRing.MARKER_START, 1, 0, 79);
        DeviceProperties dev = new DeviceProperties(3, "gemm", 80L << 30, 3_352_000_000L, 132, 9, 0, 1_980_000,
                50 << 20, 32, 1024, 64, 32, 233_472, 49_152, 65_536, 65_536, true, false,
                "74e128b290b6b40907c833bee5ff6f88");
        RecordEncoder.device(b, dev, 1);
        RecordEncoder.clockSync(b, new ClockSync(100, 200, 300, 400));
        RecordEncoder.drops(b, new DropsEvent(VprofRing.DROPS_END_BEFORE_START, 4, 5, VprofRing.REC_KERNEL, 6));
        SyncEvent sync = new SyncEvent(8000, 8100, 15, VprofRing.SYNC_STREAM_SYNCHRONIZE, 4, 5, 0);
        RecordEncoder.sync(b, sync);
        RangeEvent range = new RangeEvent(VprofRing.RANGE_END, 1, 2, 3, 9000, 9001, 1, 2, 3, 16, 0, 9002, 4, 5, 6,
                7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        RecordEncoder.range(b, range);

        Seen seen = new Seen();
        RecordDecoder decoder = new RecordDecoder(42);
        assertTrue(decoder.decode(b.seg, 0, b.pos, seen), "the decoder walks what the encoder wrote");
        assertEquals(List.of(
                "1=gemm", "2=name",
                new KernelDesc(9, 1, "gemm", 3, 4, 5, 7, 64, 2, 1, 128, 4, 1, 4096, 96, 1L << 40),
                List.of(1000L, 2000L, 11, 9, "gemm"),
                new MemcpyEvent(3000, 3500, 1L << 33, 12, 3, 4, 5, 1, 2, 3, 1),
                new MemsetEvent(4000, 4100, 256, 13, 3, 4, 5, 0x7f),
                VprofRing.REC_API + " {name=cudaLaunchKernel}",
                new ApiEvent(5000, 5200, 14, 211, 1, 77, "cudaLaunchKernel"),
                new CpuOpEvent(6000, 6600, VprofRing.CPU_OP_OPERATOR, "gemm", 78),
                new MarkerEvent(7000, 5, VprofRing.MARKER_START, "gemm", null, 79),
                dev,
                new ClockSync(100, 200, 300, 400),
                new DropsEvent(VprofRing.DROPS_END_BEFORE_START, 4, 5, VprofRing.REC_KERNEL, 6),
                sync,
                range), seen.events);
    }

    @Test
    void theBytesLieWhereTheCLayoutPutsThem() throws IOException {
        Block b = new Block();
        RecordEncoder.kernelDesc(b, 9, new KernelShape(1, 3, 4, 5, 64, 2, 1, 128, 4, 1, 4096, 96, 7, 1L << 40));
        long kernelAt = b.pos;
        RecordEncoder.kernel(b, 1000, 2000, 11, 9);
        long memcpyAt = b.pos;
        RecordEncoder.memcpy(b, 3000, 3500, 1L << 33, 12, 3, 4, 5, 1, 2, 3, 1);
        ByteBuffer bytes = b.seg.asSlice(0, b.pos).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);

        // The header: a u32 length (the struct's size rounded to 8), then a u32 type.
        assertEquals((KernelDescRecord.SIZE + 7) / 8 * 8, bytes.getInt(0));
        assertEquals(VprofRing.REC_KERNEL_DESC, bytes.getInt(4));
        assertEquals(128, bytes.getInt((int) KernelDescRecord.BLOCK_X));
        assertEquals(1L << 40, bytes.getLong((int) KernelDescRecord.GRAPH_NODE_ID));
        assertEquals(kernelAt + KernelRecord.SIZE, memcpyAt, "a KERNEL record is 8-byte aligned already");
        assertEquals(VprofRing.REC_KERNEL, bytes.getInt((int) kernelAt + 4));
        assertEquals(2000, bytes.getLong((int) (kernelAt + KernelRecord.END)));
        assertEquals(9, bytes.getInt((int) (kernelAt + KernelRecord.DESC_ID)));
        assertEquals(1L << 33, bytes.getLong((int) (memcpyAt + MemcpyRecord.BYTES)));
        assertEquals(3, bytes.get((int) (memcpyAt + MemcpyRecord.DST_KIND)));
        assertEquals(1, bytes.get((int) (memcpyAt + MemcpyRecord.FLAGS)));
    }
}
