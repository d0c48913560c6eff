package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordVisitor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Traces folded into a capture being written, as a live capture does at its end. */
class TorchTraceIntoTest {
    @TempDir
    Path dir;

    private CaptureWriter writer(Path file) throws IOException {
        return CaptureWriter.create(file, new CaptureMetadata("host", 1, "test", List.of("vprof", "capture"), Map.of()));
    }

    @Test
    void tracesJoinAnOpenCaptureAsProcessesWithPidsNotTaken() throws IOException {
        Path trace = TraceOracle.REAL.resolve("hta/trace_compare/base/base.json.gz");
        int tracePid = TraceOracle.tree(trace).get("traceEvents").get(0).get("pid").asInt();
        Path file = dir.resolve("live.vprof");
        TorchTraceImport.Result r;
        try (CaptureWriter w = writer(file)) {
            w.process(new ProcessInfo(tracePid, 1, "an agent's process", 0, 0, 0, 1));
            r = TorchTraceImport.into(w, List.of(trace), TorchTraceOptions.defaults(), Set.of(tracePid));
        }
        int pid = r.processes().getFirst().pid();
        assertNotEquals(tracePid, pid);
        long[] kernels = new long[1];
        try (CaptureReader reader = CaptureReader.open(file)) {
            assertEquals(2, reader.processes().size());
            assertEquals(1, reader.process(pid).orElseThrow().rank());
            assertEquals(Integer.toString(tracePid), reader.process(pid).orElseThrow().facts().get("tracePid"));
            reader.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int p, long start, long end, int corr, KernelDesc d, String name) {
                    if (p == pid) {
                        kernels[0]++;
                    }
                }
            });
        }
        assertEquals(TraceOracle.kernels(trace).count(), kernels[0]);
    }

    @Test
    void filesOfTwoRunsAddNothingToTheCapture() throws IOException {
        Path file = dir.resolve("live.vprof");
        try (CaptureWriter w = writer(file)) {
            w.flush();
            long before = w.size();
            assertThrows(CaptureFormatException.class, () -> TorchTraceImport.into(w,
                    List.of(TraceOracle.REAL.resolve("hta/trace_compare/base/base.json.gz"),
                            TraceOracle.REAL.resolve("hta/trace_compare/test/test.json.gz")),
                    TorchTraceOptions.defaults()));
            assertEquals(before, w.size());
        }
        try (CaptureReader reader = CaptureReader.open(file)) {
            assertEquals(0, reader.processes().size());
        }
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no spill file left beside the capture");
        }
    }
}
