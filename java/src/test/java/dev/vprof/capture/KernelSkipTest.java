package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A visitor that does not want kernels (the steps' scan) gets every other record as a full pass
 * does, in the same order, and no kernel; a visitor that says nothing gets the kernels as before.
 */
class KernelSkipTest {
    @TempDir
    Path dir;

    @Test
    void aVisitorThatWantsNoKernelsGetsEveryOtherRecordAndNoKernel() throws IOException {
        Path file = dir.resolve("k.vprof");
        RingRecords r = new RingRecords()
                .clockSync(1000, 1005, 77)
                .string(1, "gemm_kernel")
                .string(2, "step")
                .kernelDesc(1, 1, 0, 7)
                .marker(1050, 3, VprofRing.MARKER_START, 2, 0, 99)
                .api(1060, 1090, 55, 211, VprofRing.API_RUNTIME, 99)
                .kernel(1100, 1200, 55, 1)
                .kernel(1210, 1300, 56, 1)
                .memcpy(1300, 1400, 4096, 1, 0)
                .kernel(1410, 1500, 57, 1)
                .marker(1600, 3, VprofRing.MARKER_END, 0, 0, 99);
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            w.process(CaptureFileTest.PROC);
            r.writeTo(w, 4242);
        }
        CollectingVisitor all = new CollectingVisitor();
        CollectingVisitor rest = new CollectingVisitor();
        rest.takesKernels = false;
        try (CaptureReader c = CaptureReader.open(file)) {
            c.forEachRecord(all);
            c.forEachRecord(rest);
            assertEquals(List.of(), c.warnings());
        }
        assertEquals(3, all.kernels); // hand tally of the records written above
        assertEquals(0, rest.kernels);
        assertEquals(all.lines.stream().filter(l -> !l.startsWith("4242 kernel ")).toList(), rest.lines);
        assertEquals(all.lines.size() - 3, rest.lines.size());
    }
}
