package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureFileTest {

    @TempDir
    Path dir;

    static final CaptureMetadata META = new CaptureMetadata("host-a", 1_700_000_000_000_000_000L, "0.1.0",
            List.of("vprof", "run", "--", "python"), Map.of("capture_range", "none"));

    /** The RangeEvent fields of ring format 2, all zero. */
    static final String NO_V2_FIELDS = ", correlationId=0, flags=0, drainedCuptiNs=0, kernelLaunches=0,"
            + " graphLaunches=0, kernels=0, graphKernels=0, kernelsMissing=0, clipped=0, rejectedZeroTs=0,"
            + " rejectedStartZero=0, rejectedEndZero=0, rejectedEndBeforeStart=0, rejectedOutsideRange=0,"
            + " late=0, rejectedBadRecord=0";
    static final ProcessInfo PROC = new ProcessInfo(4242, 1, "python serve.py", 130000, 1, 1 << 26, 17L);

    @Test
    void everyRecordTypeRoundTripsWithItsFields() throws IOException {
        Path file = dir.resolve("a.vprof");
        RingRecords r = new RingRecords()
                .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 9, 1000)
                .clockSync(1000, 1005, 77)
                .string(1, "gemm_kernel")
                .string(2, "step")
                .kernelDesc(1, 1, 0, 7)
                .kernel(1100, 1200, 55, 1)
                .memcpy(1300, 1400, 4096, 1, 0)
                .memset(1500, 1600, 512, 0)
                .marker(1700, 3, VprofRing.MARKER_START, 2, 0, 99)
                .api(1050, 1090, 55, 211, VprofRing.API_RUNTIME, 99)
                .drops(VprofRing.DROPS_CUPTI, 3)
                .rangeEnd(VprofRing.SOURCE_PROFILER, 1, 9, 2000, 4, 2, 3);
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            w.process(PROC);
            r.writeTo(w, 4242);
            w.processEnd(4242, new AgentCounters(12, 480, 4, 2, 3, 1));
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            assertTrue(c.complete());
            assertEquals(List.of(), c.warnings());
            assertEquals(META, c.metadata().orElseThrow());
            assertEquals(List.of(PROC), c.processes());
            assertEquals(new AgentCounters(12, 480, 4, 2, 3, 1), c.counters().get(4242));
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(List.of(
                    "4242 RangeEvent[edge=1, source=2, index=1, captureId=9, cuptiNs=1000, realtimeNs=1000,"
                            + " ringDrops=0, ringDropsKernels=0, cuptiDrops=0" + NO_V2_FIELDS + "]",
                    "4242 ClockSync[cuptiNs=1000, realtimeNs=1005, monotonicNs=77, boottimeNs=0]",
                    "4242 kernel 1100..1200 corr=55 gemm_kernel dev=0 stream=7",
                    "4242 MemcpyEvent[start=1300, end=1400, bytes=4096, correlationId=0, deviceId=0, contextId=0,"
                            + " streamId=7, copyKind=1, srcKind=0, dstKind=0, flags=0]",
                    "4242 MemsetEvent[start=1500, end=1600, bytes=512, correlationId=0, deviceId=0, contextId=0,"
                            + " streamId=0, value=0]",
                    "4242 MarkerEvent[timestamp=1700, id=3, flags=2, name=step, domain=null, tid=99]",
                    "4242 ApiEvent[start=1050, end=1090, correlationId=55, cbid=211, domain=1, tid=99, name=null]",
                    "4242 DropsEvent[reason=1, contextId=0, streamId=0, recordType=0, count=3]",
                    "4242 RangeEvent[edge=2, source=2, index=1, captureId=9, cuptiNs=2000, realtimeNs=2000,"
                            + " ringDrops=4, ringDropsKernels=2, cuptiDrops=3" + NO_V2_FIELDS + "]"), v.lines);
            assertEquals(1005, c.clock(4242).toEpochNs(1000));
        }
    }

    @Test
    void aCreatedFileReplacesTheOldOneReadsAtOnceAndLeavesNothingBesideIt() throws IOException {
        Path file = dir.resolve("b.vprof");
        Files.writeString(file, "an older capture's bytes");
        try (CaptureWriter _ = CaptureWriter.create(file, META)) {
            // Before any chunk or close: a front end SIGKILLed now leaves a file that reads.
            try (CaptureReader c = CaptureReader.open(file)) {
                assertEquals(META, c.metadata().orElseThrow());
                assertFalse(c.complete());
            }
            try (var siblings = Files.list(dir)) {
                assertEquals(List.of(file), siblings.toList(), "only the capture file, no starting sibling");
            }
        }
    }

    @Test
    void recordsChunksHoldTheRingBytesVerbatim() throws IOException {
        Path file = dir.resolve("verbatim.vprof");
        RingRecords r = new RingRecords().string(1, "k").kernelDesc(1, 1, 0, 0);
        for (int i = 0; i < 100; i++) {
            r.kernel(i * 10L, i * 10L + 5, i, 1);
        }
        byte[] ring = r.segment().toArray(ValueLayout.JAVA_BYTE);
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            r.writeTo(w, 7);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            List<byte[]> payloads = c.payloads(CaptureFormat.KIND_RECORDS);
            assertEquals(1, payloads.size());
            byte[] p = payloads.get(0);
            assertEquals(7, p[0]);
            assertArrayEquals(ring, java.util.Arrays.copyOfRange(p, CaptureFormat.RECORDS_HEADER_SIZE, p.length));
        }
    }

    @Test
    void longRecordRunsAreSplitIntoChunksOfWholeRecordsNearOneMebibyte() throws IOException {
        Path file = dir.resolve("split.vprof");
        RingRecords r = new RingRecords().string(1, "x".repeat(100)).kernelDesc(1, 1, 0, 0);
        int kernels = 100_000; // 3.2 MB in one records() call
        for (int i = 0; i < kernels; i++) {
            r.kernel(i, i + 1, i, 1);
            if (i % 1000 == 0) {
                r.string(2, "s".repeat(i % 300)); // odd-sized records so cuts cannot line up by chance
            }
        }
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            r.writeTo(w, 1);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            List<ChunkInfo> chunks = c.chunks(CaptureFormat.KIND_RECORDS);
            assertEquals(4, chunks.size());
            for (ChunkInfo ch : chunks.subList(0, 3)) {
                assertTrue(ch.length() > CaptureFormat.RECORDS_CHUNK_TARGET - VprofRing.RECORD_MAX, "chunk " + ch);
                assertTrue(ch.length() <= CaptureFormat.RECORDS_CHUNK_TARGET + CaptureFormat.RECORDS_HEADER_SIZE);
            }
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(kernels, v.kernels);
            assertEquals(List.of(), c.warnings());
        }
    }

    @Test
    void interleavedProcessesEachKeepTheirOwnInternedNamesAndOrder() throws IOException {
        Path file = dir.resolve("two.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            new RingRecords().string(1, "a_in_1").kernelDesc(1, 1, 0, 0).kernel(1, 2, 1, 1).writeTo(w, 1);
            new RingRecords().string(1, "b_in_2").kernelDesc(1, 1, 0, 0).kernel(3, 4, 1, 1).writeTo(w, 2);
            new RingRecords().kernel(5, 6, 2, 1).writeTo(w, 1);
            w.flush();
            new RingRecords().kernel(7, 8, 2, 1).writeTo(w, 2);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(List.of(
                    "1 kernel 1..2 corr=1 a_in_1 dev=0 stream=0",
                    "1 kernel 5..6 corr=2 a_in_1 dev=0 stream=0",
                    "2 kernel 3..4 corr=1 b_in_2 dev=0 stream=0",
                    "2 kernel 7..8 corr=2 b_in_2 dev=0 stream=0"), v.lines);
        }
    }

    @Test
    void aStringOrDescWithAnIdSeenBeforeReplacesIt() throws IOException {
        Path file = dir.resolve("rearm.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            new RingRecords().string(1, "first").kernelDesc(1, 1, 0, 3).kernel(1, 2, 1, 1)
                    // re-armed: ids restart at 1
                    .string(1, "second").kernelDesc(1, 1, 1, 4).kernel(3, 4, 1, 1)
                    .writeTo(w, 5);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(List.of("5 kernel 1..2 corr=1 first dev=0 stream=3",
                    "5 kernel 3..4 corr=1 second dev=1 stream=4"), v.lines);
        }
    }

    @Test
    void aDescThatArrivesBeforeItsNameIsResolvedLater() throws IOException {
        Path file = dir.resolve("late.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            new RingRecords().kernelDesc(1, 9, 0, 0).kernel(1, 2, 1, 1).string(9, "late_name").kernel(3, 4, 2, 1)
                    .kernel(5, 6, 3, 77).writeTo(w, 5);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(List.of("5 kernel 1..2 corr=1 <unknown kernel> dev=0 stream=0",
                    "5 kernel 3..4 corr=2 late_name dev=0 stream=0",
                    "5 kernel 5..6 corr=3 <unknown kernel>"), v.lines);
            assertTrue(c.warnings().stream().anyMatch(s -> s.contains("2 kernels refer to")), c.warnings().toString());
        }
    }

    private static final String RMS_NORM = "_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_S6_fii";

    @Test
    void kernelNamesComeOutAsCuptiReportedThemAlsoWhenResolvedLate() throws IOException {
        // Demangling is presentation (report, export: KernelNames); the file and its reader keep CUPTI's names.
        Path file = dir.resolve("mangled.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            new RingRecords().string(1, RMS_NORM).kernelDesc(1, 1, 0, 0).kernel(1, 2, 1, 1)
                    .string(2, "sm90_xmma_gemm_bf16bf16_bf16f32").kernelDesc(2, 2, 0, 0).kernel(3, 4, 2, 2)
                    // a desc before its STRING is resolved late
                    .kernelDesc(3, 3, 0, 1).string(3, RMS_NORM).kernel(5, 6, 3, 3)
                    .writeTo(w, 5);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(List.of("5 kernel 1..2 corr=1 " + RMS_NORM + " dev=0 stream=0",
                    "5 kernel 3..4 corr=2 sm90_xmma_gemm_bf16bf16_bf16f32 dev=0 stream=0",
                    "5 kernel 5..6 corr=3 " + RMS_NORM + " dev=0 stream=1"), v.lines);
        }
    }

    @Test
    void genericChunksComeBackByKindAndOthersSkipThem() throws IOException {
        Path file = dir.resolve("generic.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            w.chunk(CaptureFormat.KIND_METRICS, new byte[] {1, 2, 3});
            new RingRecords().string(1, "k").kernelDesc(1, 1, 0, 0).kernel(1, 2, 1, 1).writeTo(w, 5);
            w.chunk(CaptureFormat.KIND_EXTENSION_FIRST + 3, "hello".getBytes());
            w.chunk(CaptureFormat.KIND_METRICS, new byte[0]);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            List<byte[]> metrics = c.payloads(CaptureFormat.KIND_METRICS);
            assertEquals(2, metrics.size());
            assertArrayEquals(new byte[] {1, 2, 3}, metrics.get(0));
            assertArrayEquals(new byte[0], metrics.get(1));
            assertArrayEquals("hello".getBytes(),
                    c.payload(c.chunks(CaptureFormat.KIND_EXTENSION_FIRST + 3).get(0)).orElseThrow());
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(1, v.kernels);
        }
        assertThrows(IllegalArgumentException.class, () -> {
            try (CaptureWriter w = CaptureWriter.create(dir.resolve("x.vprof"), META)) {
                w.chunk(CaptureFormat.KIND_INDEX, new byte[0]);
            }
        });
    }

    @Test
    void clockMappingFitsOffsetAndDriftAndReportsTheResidual() throws IOException {
        Path file = dir.resolve("clock.vprof");
        RingRecords r = new RingRecords();
        long base = 1_700_000_000_000_000_000L;
        // realtime = cupti + 500 + 10 ppm drift, with +-40 ns of jitter on alternate pairs.
        for (int i = 0; i < 11; i++) {
            long cupti = base + i * 1_000_000_000L;
            long jitter = (i % 2 == 0) ? 40 : -40;
            r.clockSync(cupti, cupti + 500 + i * 10_000L + jitter, i);
        }
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            r.writeTo(w, 3);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            ClockMapping m = c.clock(3);
            assertEquals(11, m.pairs());
            assertEquals(10.0, m.driftPpm(), 0.01);
            assertTrue(Math.abs(m.offsetNs() - 500) <= 45, "offset " + m.offsetNs());
            assertTrue(m.residualMaxNs() >= 35 && m.residualMaxNs() <= 45, "residual " + m.residualMaxNs());
            long at = base + 5_500_000_000L;
            assertEquals(at + 500 + 55_000, m.toEpochNs(at), 45.0);
            assertEquals(ClockMapping.identity(), c.clock(99));
        }
    }

    @Test
    void aProcessThatLeavesTwiceHasItsCountersSummed() throws IOException {
        Path file = dir.resolve("counters.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, META)) {
            w.processEnd(8, new AgentCounters(1, 2, 3, 4, 5, 6));
            w.processEnd(8, new AgentCounters(10, 20, 30, 40, 50, 60));
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            assertEquals(new AgentCounters(11, 22, 33, 44, 55, 66), c.counters().get(8));
        }
    }

    @Test
    void writingAfterCloseFailsClearly() throws IOException {
        CaptureWriter w = CaptureWriter.create(dir.resolve("closed.vprof"), META);
        w.close();
        w.close();
        IOException e = assertThrows(IOException.class, () -> w.process(PROC));
        assertTrue(e.getMessage().contains("already closed"));
    }

    /** What bounds the loss of a front end killed with SIGKILL (docs/reliability.md). */
    @Test
    void drainedRecordsReachTheFileOnceTheyHaveWaitedHalfASecond() throws IOException {
        Path file = dir.resolve("open.vprof");
        CaptureWriter w = CaptureWriter.create(file, META);
        w.process(PROC);
        long before = w.size();
        new RingRecords().string(1, "k").kernelDesc(1, 1, 0, 0).kernel(1, 2, 3, 1).writeTo(w, PROC.pid());
        long buffered = System.nanoTime();
        w.flushIfDue(buffered);
        assertEquals(before, w.size(), "a record just drained waits for more (chunks stay large)");
        w.flushIfDue(buffered + CaptureWriter.FLUSH_AFTER_NS);
        assertTrue(w.size() > before, "half a second later it is in the file");
        long flushed = w.size();
        w.flushIfDue(buffered + 10 * CaptureWriter.FLUSH_AFTER_NS);
        assertEquals(flushed, w.size(), "nothing buffered: nothing written");
        // The writer is never closed, as after SIGKILL: the file reads without its footer.
        try (CaptureReader c = CaptureReader.open(file)) {
            assertFalse(c.complete());
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(1, v.kernels);
        }
    }

    @Test
    void anEmptyCaptureHasNoRecordsAndNoWarnings() throws IOException {
        Path file = dir.resolve("empty.vprof");
        CaptureWriter.create(file, META).close();
        try (CaptureReader c = CaptureReader.open(file)) {
            assertTrue(c.complete());
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(List.of(), v.lines);
            assertEquals(List.of(), c.warnings());
            assertFalse(c.chunks().isEmpty());
        }
    }

    static long fileSize(Path p) throws IOException {
        return Files.size(p);
    }
}
