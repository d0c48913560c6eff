package dev.vprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** Process 5's records (and, unless null, its agent's counters at the end) read as a report. */
    private Report report(String name, RingRecords records, AgentCounters counters) throws IOException {
        Path file = dir.resolve(name);
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("h", 1, "0", List.of(), Map.of()))) {
            w.process(new ProcessInfo(5, 1, "server", 130001, 1, 1 << 20, 1L));
            records.writeTo(w, 5);
            if (counters != null) {
                w.processEnd(5, counters);
            }
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            return CaptureReport.build(c, 5);
        }
    }

    /** Range 1 of capture 3 with kernel 11 kept, and its END at correlation id endCorr. */
    private static RingRecords rangeOne(int endCorr, long flags, long launches) {
        return new RingRecords()
                .string(1, "k").kernelDesc(1, 1, 0, 7)
                .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 3, 1000)
                .kernel(1100, 1200, 11, 1)
                .rangeEndCounted(VprofRing.SOURCE_PROFILER, 1, 1300, endCorr, flags, launches, 0, 1, 0, 0, 0, 0);
    }

    @Test
    void workOfARangeCutShortCountsForItEvenWhenItArrivesInTheNextRange() throws IOException {
        Report r = report("late.vprof", rangeOne(13, VprofRing.WARN_CUT_SHORT, 3)
                .rangeBegin(VprofRing.SOURCE_PROFILER, 2, 3, 1400)
                .late(true, 1, 3)
                .kernel(1200, 1500, 12, 1)   // range 1's, launched before its stop
                .kernel(1500, 1600, 14, 1)   // not yet ended: the run goes on
                .late(false, 1, 3)
                .kernel(1600, 1700, 15, 1)   // range 2's own
                .rangeEndCounted(VprofRing.SOURCE_PROFILER, 2, 1800, 16, 0, 1, 0, 1, 0, 0, 0, 0), null);
        List<Report.RangeSummary> ranges = r.ranges().stream().filter(s -> s.index() > 0).toList();
        assertEquals(3, ranges.get(0).kernels());
        assertEquals(1, ranges.get(1).kernels());
        assertEquals(4, r.totals().kernels());
        assertTrue(ranges.get(0).fidelity().warnings().contains("cut_short"));
        assertTrue(RangeWarnings.sentences(ranges.get(0)).getFirst().contains("shown with it"));
    }

    @Test
    void ringDropsOfALateRunCountForTheRangeItNamesAndTheRestIsOutsideAnyRange() throws IOException {
        // The agent charges a range its own records' drops: range 1's that the full ring refused
        // after its END come on the LATE_END of their run; range 2's END has only its own. The
        // process counters count every refused record (the names dropped records needed too).
        Report rep = report("late-drops.vprof", rangeOne(14, VprofRing.WARN_CUT_SHORT, 3)
                .rangeBegin(VprofRing.SOURCE_PROFILER, 2, 3, 1400)
                .late(true, 1, 3)
                .kernel(1200, 1500, 12, 1)
                .late(false, 1, 3).ringDrops(1, 1) // kernel 13 of range 1, refused
                .kernel(1600, 1700, 15, 1)
                // range 2: 2 launches, 1 kept, 1 refused with an NVTX marker of the range
                .rangeEndCounted(VprofRing.SOURCE_PROFILER, 2, 1800, 17, 0, 2, 0, 1, 0, 0, 0, 0).ringDrops(2, 1),
                new AgentCounters(0, 0, 6, 2, 0, 2));
        List<Report.RangeSummary> ranges = rep.ranges().stream().filter(s -> s.index() > 0).toList();
        assertEquals(1, ranges.get(0).ringDrops());
        assertEquals(1, ranges.get(0).ringDropsKernels());
        assertEquals(2, ranges.get(1).ringDrops(), "range 2 is charged its own, not range 1's");
        assertEquals(1, ranges.get(1).ringDropsKernels());
        assertEquals(6, rep.totals().ringDrops(), "the totals keep every refused record");
        assertEquals(2, rep.totals().ringDropsKernels());
        String warning = TextReport.dropWarnings(rep).getFirst();
        assertTrue(warning.contains("2 kernels dropped by a full ring (6 records in all, 3 of them outside any range)"),
                warning);
    }

    @Test
    void recordsClippedAfterARangeClosedCountForThatRangeAndMakeNoRangeOfTheirOwn() throws IOException {
        // Seen under load: a buffer with a record of work launched after the stop completes only after
        // the range's END is written; the agent clips it (a DROPS record outside every range).
        Report r = report("clipped.vprof", new RingRecords()
                .string(1, "k").kernelDesc(1, 1, 0, 7)
                .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 3, 1000)
                .kernel(1100, 1200, 11, 1)
                .drops(VprofRing.DROPS_CLIPPED, VprofRing.REC_KERNEL, 2)
                .rangeEndCounted(VprofRing.SOURCE_PROFILER, 1, 1300, 13, 0, 1, 0, 1, 0, 0, 0, 0)
                .drops(VprofRing.DROPS_CLIPPED, VprofRing.REC_KERNEL, 1), null);
        assertEquals(1, r.ranges().size(), "no range 0 for a clipped record: " + r.ranges());
        assertEquals(3, r.ranges().getFirst().fidelity().clipped());
        assertEquals(3, r.totals().clipped());
    }
}
