package dev.vprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** How the text report is laid out for two tensor-parallel workers, each on its own GPU. */
class ReportLayoutTest {
    static final long T0 = 1_700_000_000_000_000_000L;

    @TempDir
    Path dir;

    /**
     * Workers 101 and 102 run the same kernels on devices {@code device101} and {@code device102};
     * worker 102's last gemm takes {@code extraNs} longer.
     */
    private String report(int device101, int device102, long extraNs) throws IOException {
        Path file = dir.resolve("tp.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("h", T0, "0.1.0", List.of(), Map.of()))) {
            int[][] workers = {{101, device101}, {102, device102}};
            for (int[] wk : workers) {
                w.process(new ProcessInfo(wk[0], 100, "python -m vllm worker", 130000, 1, 1 << 20, T0));
            }
            for (int[] wk : workers) {
                RingRecords r = new RingRecords().clockSync(T0, T0, 0).string(1, "gemm").string(2, "allreduce")
                        .kernelDesc(1, 1, wk[1], 7).kernelDesc(2, 2, wk[1], 8)
                        .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 1, T0);
                for (int i = 0; i < 20; i++) {
                    long s = T0 + 1_000_000L * i;
                    long extra = wk[0] == 102 && i == 19 ? extraNs : 0;
                    r.kernel(s, s + 30_000 + extra, 2 * i + 1, 1).kernel(s + 40_000, s + 50_000, 2 * i + 2, 2);
                }
                r.rangeEnd(VprofRing.SOURCE_PROFILER, 1, 1, T0 + 30_000_000L, 0, 0, 0).writeTo(w, wk[0]);
            }
        }
        try (CaptureReader reader = CaptureReader.open(file)) {
            return TextReport.render(CaptureReport.build(reader, 10));
        }
    }

    @Test
    void eachWorkerShowsTheDeviceItsKernelsRanOn() throws IOException {
        String text = report(0, 1, 0);
        assertTrue(text.contains("  process 101: 40 kernels, device 0 busy"), text);
        assertTrue(text.contains("  process 102: 40 kernels, device 1 busy"), text);
        String worker102 = text.substring(text.indexOf("\nprocess 102"));
        assertTrue(worker102.contains("GPU busy: device 1 "), worker102);
    }

    @Test
    void identicalPerWorkerTablesAreShownOnceAndNamedAfter() throws IOException {
        String text = report(0, 1, 0);
        assertEquals(2, text.lines().filter(l -> l.strip().startsWith("total ") && l.contains("count")).count(),
                "the overall table and worker 101's; worker 102's is identical:\n" + text);
        assertTrue(text.contains("top 2 kernels by total time: identical to process 101 range 1 (same names, counts"
                + " and durations; not repeated)"), text);
    }

    @Test
    void tablesThatDifferAreAllShown() throws IOException {
        String text = report(0, 1, 5_000);
        assertEquals(3, text.lines().filter(l -> l.strip().startsWith("total ") && l.contains("count")).count(), text);
        assertFalse(text.contains("identical to"), text);
    }

    @Test
    void theColumnsAreExplainedUnderEachTable() throws IOException {
        String text = report(0, 1, 0);
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().startsWith("total ") && lines.get(i).contains("count")) {
                int j = i + 1;
                while (!lines.get(j).strip().startsWith("total: GPU time of all launches")) {
                    j++;
                    assertTrue(j < lines.size() && j < i + 20, "a legend under the table at line " + i + ":\n" + text);
                }
            }
        }
        assertFalse(text.contains("(~p50/p99)"), "no marks glued to kernel names");
    }

    @Test
    void theSummaryComesBeforeTheKernelTables() throws IOException {
        String text = report(0, 1, 0);
        assertTrue(text.indexOf("summary:") < text.indexOf("top 2 kernels"), text);
    }
}
