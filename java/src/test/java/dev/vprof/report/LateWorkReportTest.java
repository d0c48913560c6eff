package dev.vprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range that began while the previous one still drained: the agent closes the previous one at
 * once and sends its work that completes later between LATE edges naming it. The report counts
 * that work for the range it belongs to, not for the one open around it.
 */
class LateWorkReportTest {

    @TempDir
    Path dir;

    @Test
    void workOfARangeCutShortCountsForItEvenWhenItArrivesInTheNextRange() throws IOException {
        Path file = dir.resolve("late.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("h", 1, "0", List.of(), Map.of()))) {
            w.process(new ProcessInfo(5, 1, "server", 130001, 1, 1 << 20, 1L));
            new RingRecords()
                    .string(1, "k").kernelDesc(1, 1, 0, 7)
                    .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 3, 1000)
                    .kernel(1100, 1200, 11, 1)
                    .rangeEndCounted(VprofRing.SOURCE_PROFILER, 1, 1300, 13, VprofRing.WARN_CUT_SHORT, 3, 0, 1, 0, 0, 0, 0)
                    .rangeBegin(VprofRing.SOURCE_PROFILER, 2, 3, 1400)
                    .late(true, 1, 3)
                    .kernel(1200, 1500, 12, 1)   // range 1's, launched before its stop
                    .kernel(1500, 1600, 14, 1)   // not yet ended: the run goes on
                    .late(false, 1, 3)
                    .kernel(1600, 1700, 15, 1)   // range 2's own
                    .rangeEndCounted(VprofRing.SOURCE_PROFILER, 2, 1800, 16, 0, 1, 0, 1, 0, 0, 0, 0)
                    .writeTo(w, 5);
        }
        Report r;
        try (CaptureReader c = CaptureReader.open(file)) {
            r = CaptureReport.build(c, 5);
        }
        List<Report.RangeSummary> ranges = r.ranges().stream().filter(s -> s.index() > 0).toList();
        assertEquals(3, ranges.get(0).kernels());
        assertEquals(1, ranges.get(1).kernels());
        assertEquals(4, r.totals().kernels());
        assertTrue(ranges.get(0).fidelity().warnings().contains("cut_short"));
        assertTrue(RangeWarnings.sentences(ranges.get(0)).getFirst().contains("shown with it"));
    }

    @Test
    void recordsClippedAfterARangeClosedCountForThatRangeAndMakeNoRangeOfTheirOwn() throws IOException {
        // Seen under load: a buffer with a record of work launched after the stop completes only after
        // the range's END is written; the agent clips it (a DROPS record outside every range).
        Path file = dir.resolve("clipped.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("h", 1, "0", List.of(), Map.of()))) {
            w.process(new ProcessInfo(5, 1, "server", 130001, 1, 1 << 20, 1L));
            new RingRecords()
                    .string(1, "k").kernelDesc(1, 1, 0, 7)
                    .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 3, 1000)
                    .kernel(1100, 1200, 11, 1)
                    .drops(VprofRing.DROPS_CLIPPED, VprofRing.REC_KERNEL, 2)
                    .rangeEndCounted(VprofRing.SOURCE_PROFILER, 1, 1300, 13, 0, 1, 0, 1, 0, 0, 0, 0)
                    .drops(VprofRing.DROPS_CLIPPED, VprofRing.REC_KERNEL, 1)
                    .writeTo(w, 5);
        }
        Report r;
        try (CaptureReader c = CaptureReader.open(file)) {
            r = CaptureReport.build(c, 5);
        }
        assertEquals(1, r.ranges().size(), "no range 0 for a clipped record: " + r.ranges());
        assertEquals(3, r.ranges().getFirst().fidelity().clipped());
        assertEquals(3, r.totals().clipped());
    }
}
