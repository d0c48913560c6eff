package dev.vprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Report numbers on a synthetic capture whose every answer is known. */
class ReportTest {

    static final long T0 = 1_700_000_000_000_000_000L;
    static final long PROFILER = VprofRing.SOURCE_PROFILER;

    @TempDir
    Path dir;

    Path file;

    /**
     * pid 100: one kernel before any range; range 1 with 100 "gemm" (i * 1000 ns, device 2,
     * back to back), overlapping "attn" kernels on devices 0 and 1; range 2 with 5 "norm",
     * 2 memcpy, 1 memset and drops. pid 200: range 1 with one "gemm" of 7 ns.
     */
    @BeforeEach
    void writeCapture() throws IOException {
        file = dir.resolve("known.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("h", T0, "0.1.0", List.of(), Map.of()))) {
            w.process(new ProcessInfo(100, 1, "python serve.py", 130000, 1, 1 << 20, T0));
            w.process(new ProcessInfo(200, 100, "worker", 130000, 1, 1 << 20, T0));
            RingRecords r = new RingRecords()
                    .clockSync(T0, T0 + 1_000, 0)
                    .string(1, "gemm").string(2, "attn").string(3, "norm").string(4, "early")
                    .kernelDesc(1, 1, 2, 7).kernelDesc(2, 2, 0, 1).kernelDesc(3, 2, 0, 2).kernelDesc(4, 2, 1, 1)
                    .kernelDesc(5, 3, 0, 1).kernelDesc(6, 4, 0, 1)
                    .kernel(T0 + 5, T0 + 10, 1, 6)
                    .rangeBegin(PROFILER, 1, 1, T0 + 100);
            for (int i = 1; i <= 100; i++) {
                long start = T0 + 1_000_000L * i;
                r.kernel(start, start + 1_000L * i, i, 1);
            }
            // device 0: [200,300) then [0,100) and [50,150) on another stream: union 250 ns
            r.kernel(T0 + 200_200, T0 + 200_300, 200, 2)
                    .kernel(T0 + 200_000, T0 + 200_100, 201, 2)
                    .kernel(T0 + 200_050, T0 + 200_150, 202, 3)
                    // device 1: [1000,1100) and [1000,1050): union 100 ns
                    .kernel(T0 + 201_000, T0 + 201_100, 203, 4)
                    .kernel(T0 + 201_000, T0 + 201_050, 204, 4)
                    .rangeEnd(PROFILER, 1, 1, T0 + 200_000_100L, 0, 0, 0);
            r.writeTo(w, 100);
            new RingRecords().rangeBegin(PROFILER, 1, 1, T0).string(1, "gemm").kernelDesc(1, 1, 0, 1)
                    .kernel(T0 + 10, T0 + 17, 1, 1).rangeEnd(PROFILER, 1, 1, T0 + 1000, 0, 0, 0).writeTo(w, 200);
            RingRecords r2 = new RingRecords().rangeBegin(PROFILER, 2, 1, T0 + 300_000_000L);
            for (int i = 0; i < 5; i++) {
                long start = T0 + 300_000_000L + 1000L * i;
                r2.kernel(start, start + 500, 300 + i, 5);
            }
            r2.memcpy(T0 + 300_010_000L, T0 + 300_011_000L, 100, 1, 0)
                    .memcpy(T0 + 300_012_000L, T0 + 300_013_000L, 200, 2, 0)
                    .memset(T0 + 300_014_000L, T0 + 300_015_000L, 64, 0)
                    .drops(VprofRing.DROPS_CUPTI, 2)
                    .rangeEnd(PROFILER, 2, 1, T0 + 400_000_000L, 7, 5, 3);
            r2.writeTo(w, 100);
            w.processEnd(100, new AgentCounters(0, 0, 7, 5, 3, 2));
            w.processEnd(200, new AgentCounters(0, 0, 0, 0, 0, 1));
        }
    }

    private Report report(int top) throws IOException {
        try (CaptureReader reader = CaptureReader.open(file)) {
            return CaptureReport.build(reader, top);
        }
    }

    @Test
    void kernelsMemcpysAndRangesAreCountedExactly() throws IOException {
        Report rep = report(10);
        assertEquals(new Report.Totals(2, 3, 1 + 105 + 5 + 1, 2, 300, 1, 7, 5, 3, 0), rep.totals());
        List<Report.RangeSummary> ranges = rep.ranges();
        assertEquals(4, ranges.size());
        Report.RangeSummary outside = ranges.get(0);
        assertEquals(100, outside.pid());
        assertEquals(0, outside.index());
        assertEquals("none", outside.source());
        assertEquals(1, outside.kernels());
        Report.RangeSummary first = ranges.get(1);
        assertEquals(1, first.index());
        assertEquals("profiler", first.source());
        assertEquals(105, first.kernels());
        assertEquals(0, first.memcpys());
        // The edge is on the kernels' clock: its CUPTI time mapped through the clock pair (+1000 ns),
        // as the exports place it (time.RangeEdges), not the agent's own CLOCK_REALTIME reading.
        assertEquals(T0 + 100 + 1_000, first.startNs());
        assertEquals(200_000_000L, first.durationNs());
        Report.RangeSummary second = ranges.get(2);
        assertEquals(5, second.kernels());
        assertEquals(2, second.memcpys());
        assertEquals(300, second.memcpyBytes());
        assertEquals(1, second.memsets());
        assertEquals(64, second.memsetBytes());
        Report.RangeSummary worker = ranges.get(3);
        assertEquals(200, worker.pid());
        assertEquals(1, worker.kernels());
        assertEquals(List.of(100, 200), rep.processes().stream().map(Report.ProcessSummary::pid).toList());
        assertEquals("python serve.py", rep.processes().get(0).command());
        assertEquals(2, rep.processes().get(0).ranges());
    }

    @Test
    void topKernelsHaveExactCountTotalMeanAndPercentiles() throws IOException {
        Report rep = report(10);
        Report.KernelSummary gemm = rep.ranges().get(1).topKernels().get(0);
        assertEquals(new Report.KernelSummary("gemm", 100, 5_050_000, 50_500, 1_000, 50_000, 99_000, 100_000, true),
                gemm);
        Report.KernelSummary overall = rep.topKernels().get(0);
        assertEquals("gemm", overall.name());
        assertEquals(101, overall.count());
        assertEquals(5_050_007, overall.totalNs());
        assertEquals(7, overall.minNs());
        assertEquals(List.of("gemm", "norm", "attn", "early"),
                rep.topKernels().stream().map(Report.KernelSummary::name).toList());
        assertEquals(2, report(2).topKernels().size());
    }

    @Test
    void busyTimeIsTheUnionOfOverlappingKernelsPerDeviceAsAShareOfItsSpan() throws IOException {
        Report.RangeSummary first = report(10).ranges().get(1);
        assertEquals(List.of(
                new Report.DeviceBusy(0, 250, 300, 83.3, false),
                new Report.DeviceBusy(1, 100, 100, 100.0, false),
                new Report.DeviceBusy(2, 5_050_000, 99_100_000, 5.1, false)), first.devices());
    }

    @Test
    void dropsAreCountedPerRangeAndTheWarningSaysWhatToDo() throws IOException {
        Report rep = report(10);
        Report.RangeSummary second = rep.ranges().get(2);
        assertEquals(7, second.ringDrops());
        assertEquals(5, second.ringDropsKernels());
        assertEquals(3, second.cuptiDrops()); // END says 3, DROPS records say 2: the same losses, not 5
        String text = TextReport.render(rep);
        assertTrue(text.contains("    warning: this range lost records: 5 kernels recorded + 5 kernels dropped by a full"
                + " ring (7 records in all) + 3 records dropped by CUPTI = 13; capture again with a larger --ring-size"
                + " and a larger --buffer-size to lose nothing"), text);
        assertTrue(text.strip().endsWith("warning: this capture lost records: 112 kernels recorded + 5 kernels dropped"
                + " by a full ring (7 records in all) + 3 records dropped by CUPTI = 120; capture again with a larger"
                + " --ring-size and a larger --buffer-size to lose nothing"), text);
        assertEquals(1, text.lines().filter(l -> l.contains("warning: this range")).count());
    }

    @Test
    void aCleanCaptureHasNoWarning() throws IOException {
        Path clean = dir.resolve("clean.vprof");
        try (CaptureWriter w = CaptureWriter.create(clean, new CaptureMetadata("h", T0, "0.1.0", List.of(), Map.of()))) {
            new RingRecords().rangeBegin(PROFILER, 1, 1, T0).string(1, "k").kernelDesc(1, 1, 0, 0)
                    .kernel(T0 + 1, T0 + 2, 1, 1).rangeEnd(PROFILER, 1, 1, T0 + 10, 0, 0, 0).writeTo(w, 1);
        }
        try (CaptureReader reader = CaptureReader.open(clean)) {
            Report rep = CaptureReport.build(reader, 10);
            assertFalse(rep.lostRecords());
            assertFalse(TextReport.render(rep).contains("warning:"));
        }
    }

    @Test
    void theClockResidualIsReportedPerProcess() throws IOException {
        Report.ProcessSummary p = report(10).processes().get(0);
        assertEquals(new Report.ClockSummary(1, 1_000, 0.0, 0, 0), p.clock());
        assertEquals(0, report(10).processes().get(1).clock().pairs());
    }

    @Test
    void theJsonHasTheFieldsOtherToolsRelyOn() throws IOException {
        JsonNode json = new ObjectMapper().readTree(ReportJson.render(report(10)));
        assertEquals(100, json.at("/processes/0/pid").asInt());
        assertEquals("python serve.py", json.at("/processes/0/command").asText());
        assertEquals(4, json.at("/ranges").size());
        JsonNode range = json.at("/ranges/1");
        assertEquals(100, range.get("pid").asInt());
        assertEquals(T0 + 100 + 1_000, range.get("start_ns").asLong()); // mapped as the kernels are
        assertEquals(T0 + 200_000_100L + 1_000, range.get("end_ns").asLong());
        assertEquals("profiler", range.get("source").asText());
        assertEquals(105, range.get("kernels").asLong());
        assertEquals(112, json.at("/totals/kernels").asLong());
        assertEquals(2, json.at("/totals/memcpys").asLong());
        assertEquals(7, json.at("/totals/ring_drops").asLong());
        assertEquals(3, json.at("/totals/cupti_drops").asLong());
        assertEquals("gemm", json.at("/top_kernels/0/name").asText());
        assertEquals(101, json.at("/top_kernels/0/count").asLong());
        assertEquals(5_050_007, json.at("/top_kernels/0/total_ns").asLong());
        assertEquals(99_000, json.at("/ranges/1/top_kernels/0/p99_ns").asLong());
    }

    @Test
    void aRangeWhoseEndNeverCameEndsAtItsLastRecordAndTheNextBeginClosesIt() throws IOException {
        Path open = dir.resolve("open.vprof");
        try (CaptureWriter w = CaptureWriter.create(open, new CaptureMetadata("h", T0, "0.1.0", List.of(), Map.of()))) {
            new RingRecords().rangeBegin(PROFILER, 1, 1, T0).string(1, "k").kernelDesc(1, 1, 0, 0)
                    .kernel(T0 + 10, T0 + 20, 1, 1)
                    .rangeBegin(PROFILER, 2, 1, T0 + 100)
                    .kernel(T0 + 110, T0 + 130, 2, 1).kernel(T0 + 140, T0 + 150, 3, 9)
                    .writeTo(w, 1);
        }
        try (CaptureReader reader = CaptureReader.open(open)) {
            Report rep = CaptureReport.build(reader, 10);
            assertEquals(2, rep.ranges().size());
            Report.RangeSummary first = rep.ranges().get(0);
            assertFalse(first.ended());
            assertEquals(1, first.kernels());
            assertEquals(T0 + 20, first.endNs());
            Report.RangeSummary second = rep.ranges().get(1);
            assertFalse(second.ended());
            assertEquals(2, second.kernels());
            assertEquals(T0 + 150, second.endNs());
            assertEquals(List.of(-1, 0), second.devices().stream().map(Report.DeviceBusy::device).toList());
            String text = TextReport.render(rep);
            assertTrue(text.contains("range 2 [profiler .. not ended]"), text);
            assertTrue(text.contains("GPU busy: device unknown 10 ns"), text);
        }
    }

    @Test
    void percentilesStayCloseWhenTheSampleBudgetRunsOut() throws IOException {
        Path big = dir.resolve("budget.vprof");
        try (CaptureWriter w = CaptureWriter.create(big, new CaptureMetadata("h", T0, "0.1.0", List.of(), Map.of()))) {
            RingRecords r = new RingRecords().string(1, "k").kernelDesc(1, 1, 0, 0);
            for (int i = 1; i <= 20_000; i++) {
                r.kernel(T0 + 100_000L * i, T0 + 100_000L * i + 10L * i, i, 1);
            }
            r.writeTo(w, 1);
        }
        try (CaptureReader reader = CaptureReader.open(big)) {
            Report.KernelSummary k = CaptureReport.build(reader, 1, 100).topKernels().get(0);
            assertFalse(k.percentilesExact());
            assertEquals(20_000, k.count());
            assertEquals(100_000, k.p50Ns(), 100_000 * 0.004);
            assertEquals(198_000, k.p99Ns(), 198_000 * 0.004);
            assertEquals(200_000, k.maxNs());
        }
    }
}
