package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureSizeTest {

    @TempDir
    Path dir;

    /**
     * A capture shaped like an LLM server's: 60 kernel names (long mangled C++ names) on 4
     * streams, a clock pair a second, a range per 10,000 kernels, a memcpy per step, two
     * worker processes whose drains interleave; 200,000 kernels in all.
     */
    @Test
    void aRealisticCaptureAveragesAtMost40BytesPerKernel() throws IOException {
        Path file = dir.resolve("size.vprof");
        int kernels = 0;
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            for (int pid : new int[] {11, 12}) {
                w.process(new ProcessInfo(pid, 1, "python -m vllm.worker", 130000, 1, 1 << 26, 1));
            }
            long t = 1_700_000_000_000_000_000L;
            for (int batch = 0; batch < 20; batch++) {
                for (int pid : new int[] {11, 12}) {
                    RingRecords r = new RingRecords();
                    if (batch % 4 == 0) {
                        // re-armed: names and descs are sent again
                        r.rangeBegin(VprofRing.SOURCE_PROFILER, batch / 4 + 1, 1, t);
                        for (int n = 1; n <= 60; n++) {
                            r.string(n, "_ZN5flash4cuda27flash_fwd_splitkv_kernel_" + n
                                    + "INS_17Flash_fwd_kernel_traitsILi128ELi64ELi128ELi4ELb0ELb0EN7cutlass6half_tEEE");
                            for (int s = 0; s < 4; s++) {
                                r.kernelDesc(4 * n + s, n, 0, s);
                            }
                        }
                    }
                    r.clockSync(t, t + 10, t);
                    for (int i = 0; i < 5000; i++, t += 2000) {
                        r.kernel(t, t + 1500, i, 4 + (i % 240));
                        if (i % 500 == 0) {
                            r.memcpy(t, t + 100, 4096, 1, 0);
                        }
                    }
                    kernels += 5000;
                    if (batch % 4 == 3) {
                        r.rangeEnd(VprofRing.SOURCE_PROFILER, batch / 4 + 1, 1, t, 0, 0, 0);
                    }
                    r.writeTo(w, pid);
                }
            }
            w.processEnd(11, new AgentCounters(0, 0, 0, 0, 0, 0));
            w.processEnd(12, new AgentCounters(0, 0, 0, 0, 0, 0));
        }
        double perKernel = (double) Files.size(file) / kernels;
        assertTrue(perKernel <= 40.0, "bytes per kernel: " + perKernel);
        try (CaptureReader c = CaptureReader.open(file)) {
            long[] seen = new long[1];
            RecordVisitor v = new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int corr, KernelDesc desc, String name) {
                    seen[0]++;
                }
            };
            c.forEachRecord(v);
            assertEquals(kernels, seen[0]);
        }
    }
}
