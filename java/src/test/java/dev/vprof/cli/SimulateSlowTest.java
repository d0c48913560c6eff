package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.source.CaptureSources;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof simulate --slow SUBSTRING:FACTOR}: the kernels whose names hold SUBSTRING take FACTOR
 * times as long, every other kernel is untouched. The oracle is the same schedule without the switch
 * (same seed, so the same random durations): each kernel, matched by correlation id, is compared with
 * its own unslowed duration, computed in the test.
 */
@Timeout(120)
class SimulateSlowTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    private record Kernel(String name, long durationNs) {}

    /** correlation id → kernel, read from the capture file. */
    private static Map<Integer, Kernel> kernels(Path file) throws IOException {
        Map<Integer, Kernel> byCorrelation = new TreeMap<>();
        try (CaptureReader r = CaptureSources.open(file)) {
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    byCorrelation.put(correlationId, new Kernel(name, end - start));
                }
            });
        }
        return byCorrelation;
    }

    private Map<Integer, Kernel> capture(String name, String... simArgs) throws IOException {
        Path file = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("--steps", "60", "--nvtx", "--seed", "5"));
        args.addAll(List.of(simArgs));
        E2e.run(List.of("-o", file.toString()), e2e.sim(args.toArray(String[]::new)));
        return kernels(file);
    }

    @Test
    void kernelsWhoseNamesHoldTheSubstringTakeFactorTimesAsLongAndNoOtherChanges() throws IOException {
        Map<Integer, Kernel> base = capture("base.vprof");
        Map<Integer, Kernel> slow = capture("slow.vprof", "--slow", "gemm:1.3");
        assertEquals(60 * 40, base.size(), "every kernel of 60 steps of 40");
        assertEquals(base.keySet(), slow.keySet(), "the same launches");
        long gemms = 0;
        long baseGemmNs = 0;
        long slowGemmNs = 0;
        for (Map.Entry<Integer, Kernel> e : base.entrySet()) {
            Kernel b = e.getValue();
            Kernel s = slow.get(e.getKey());
            assertEquals(b.name(), s.name(), "correlation " + e.getKey());
            if (b.name().contains("gemm")) {
                gemms++;
                baseGemmNs += b.durationNs();
                slowGemmNs += s.durationNs();
                assertEquals((double) Math.round(b.durationNs() * 1.3), (double) s.durationNs(), 1.0, b.name());
            } else {
                assertEquals(b.durationNs(), s.durationNs(), b.name());
            }
        }
        // the step diff's acceptance relies on the double's step having GEMMs, and many of them
        assertTrue(gemms >= 60 * 10, "GEMM kernels: " + gemms);
        assertEquals(1.3, (double) slowGemmNs / baseGemmNs, 0.001);
    }

    @Test
    void theFactorsOfEveryMatchingRuleMultiply() throws IOException {
        Map<Integer, Kernel> base = capture("base.vprof");
        // the MLP GEMM's name holds both substrings; the other GEMMs only the first
        Map<Integer, Kernel> slow = capture("slow.vprof", "--slow", "gemm:1.5", "--slow", "tilesize256x128:2");
        int both = 0;
        for (Map.Entry<Integer, Kernel> e : base.entrySet()) {
            Kernel b = e.getValue();
            double factor = (b.name().contains("gemm") ? 1.5 : 1) * (b.name().contains("tilesize256x128") ? 2 : 1);
            if (factor == 3) {
                both++;
            }
            assertEquals((double) Math.round(b.durationNs() * factor), (double) slow.get(e.getKey()).durationNs(), 1.0, b.name());
        }
        assertTrue(both > 0, "some kernel matched both rules");
    }
}
