package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records ring format 2 added or grew (graph node ids, device properties, what a range's
 * agent counted, typed drops, ranks), and the shorter format-1 records of older capture files,
 * which must still read.
 */
class RingFormatTwoTest {

    @TempDir
    Path dir;

    private RecordLists read(RingRecords r, ProcessInfo info) throws IOException {
        Path file = dir.resolve("f.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            w.process(info);
            r.writeTo(w, info.pid());
        }
        RecordLists seen = new RecordLists();
        try (CaptureReader c = CaptureReader.open(file)) {
            c.forEachRecord(seen);
            assertEquals(List.of(), c.warnings(), "no record is malformed");
            assertEquals(info, c.processes().getFirst());
        }
        return seen;
    }

    @Test
    void graphNodeIdsDevicesRangeCountsAndTypedDropsAreDecoded() throws IOException {
        RingRecords r = new RingRecords()
                .string(1, "fused_moe_kernel")
                .string(2, "NVIDIA H100 80GB HBM3")
                .device(0, 2, 132, 85_520_809_984L, 9, 0)
                .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 3, 1000)
                .graphKernelDesc(1, 1, 42, 0x1_0000_0007L)
                .drops(VprofRing.DROPS_END_BEFORE_START, VprofRing.REC_KERNEL, 3)
                .rangeEndCounted(VprofRing.SOURCE_PROFILER, 1, 2000, 777,
                        VprofRing.WARN_GRAPH_NOT_DELIVERED | VprofRing.WARN_DRAIN_TIMEOUT, 40, 5, 40, 0, 0, 12, 3);
        ProcessInfo info = new ProcessInfo(10, 1, "python -m sglang", 130001, 1, 1 << 20, 5L, 1, 1, 2);
        RecordLists seen = read(r, info);

        KernelDesc d = seen.kernelDescRecords.getFirst();
        assertEquals(42, d.graphId());
        assertEquals(0x1_0000_0007L, d.graphNodeId());
        assertTrue(d.fromGraph());

        DeviceProperties dev = seen.devices.getFirst();
        assertEquals("NVIDIA H100 80GB HBM3", dev.name());
        assertEquals(132, dev.smCount());
        assertEquals(85_520_809_984L, dev.globalMemoryBytes());
        assertEquals(9, dev.computeMajor());
        assertEquals(2048, dev.maxThreadsPerSm());
        assertTrue(dev.eccEnabled());
        assertTrue(dev.uuid().startsWith("ab"));

        RangeEvent end = seen.ranges.get(1);
        assertEquals(777, end.correlationId());
        assertEquals(40, end.kernelLaunches());
        assertEquals(5, end.graphLaunches());
        assertEquals(12, end.clipped());
        assertEquals(3, end.rejectedEndBeforeStart());
        assertEquals(2000 + 20_000_000L, end.drainedCuptiNs());
        assertEquals(List.of("graph_kernels_not_delivered", "drain_timeout"),
                RangeEvent.flagNames(Integer.toUnsignedLong(end.flags())));

        DropsEvent drop = seen.drops.getFirst();
        assertEquals("end_before_start", drop.reasonName());
        assertEquals(VprofRing.REC_KERNEL, drop.recordType());
    }

    @Test
    void formatOneRecordsOfOlderFilesStillRead() throws IOException {
        RingRecords r = new RingRecords()
                .string(1, "k")
                .rangeV1(VprofRing.RANGE_BEGIN, VprofRing.SOURCE_COMMAND, 1, 1000, 0)
                .kernelDescV1(1, 1, 0, 7, 9)
                .kernel(1100, 1200, 5, 1)
                .rangeV1(VprofRing.RANGE_END, VprofRing.SOURCE_COMMAND, 1, 2000, 4);
        RecordLists seen = read(r, new ProcessInfo(11, 1, "old", 130001, 1, 1 << 20, 5L));
        assertEquals(9, seen.kernelDescRecords.getFirst().graphId());
        assertEquals(0, seen.kernelDescRecords.getFirst().graphNodeId());
        RangeEvent end = seen.ranges.get(1);
        assertEquals(4, end.cuptiDrops());
        assertEquals(0, end.kernelLaunches());
        assertEquals(0, end.flags());
    }

    @Test
    void processInfoOfAnOlderFileHasNoRank() throws IOException {
        RecordLists seen = read(new RingRecords().string(1, "k"), new ProcessInfo(12, 1, "old", 130001, 1, 1 << 20, 5L));
        assertTrue(seen.kernelDescRecords.isEmpty());
        try (CaptureReader c = CaptureReader.open(dir.resolve("f.vprof"))) {
            assertNull(c.processes().getFirst().rank());
            assertNull(c.processes().getFirst().worldSize());
        }
    }
}
