package dev.vprof.diff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.diff.DiffResult.Change;
import dev.vprof.diff.DiffResult.Figures;
import dev.vprof.diff.DiffResult.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diff's interval code and verdict rules where they live, against values worked by hand
 * (Student's t, the normal tail, Benjamini-Hochberg's step-up), and on real traces: the trace
 * against itself, with its heaviest kernel made 1.3x slower, and HTA's two-step compare pair.
 */
@Timeout(300)
class DiffStatsTest {
    private static final Path REAL = Path.of("../fixtures/real/hta/trace_diff/control/control.json.gz");
    private static final Path COMPARE = Path.of("../fixtures/real/hta/trace_compare");

    @TempDir
    Path dir;

    @Test
    void smallSamplesAreWidenedByTheTQuantile() {
        assertEquals(12.706 / 1.959964 * Math.sqrt(2), Bootstrap.widening(2), 1e-6);
        assertEquals(2.262 / 1.959964 * Math.sqrt(10 / 9.0), Bootstrap.widening(10), 1e-6);
        assertEquals(1, Bootstrap.widening(1), 0, "one value has no spread to widen");
        assertEquals(Math.sqrt(1000 / 999.0), Bootstrap.widening(1000), 1e-9);
    }

    @Test
    void theNormalTail() {
        assertEquals(0.5, Bootstrap.upperTail(0), 1e-7);
        assertEquals(0.025, Bootstrap.upperTail(1.959964), 1e-6);
        assertEquals(0.975, Bootstrap.upperTail(-1.959964), 1e-6);
        assertEquals(0.00135, Bootstrap.upperTail(3), 1e-5);
    }

    /** Worked by hand: p sorted 0.001, 0.01, 0.02, 0.04, 0.5; q_i = min over j>=i of p_j m / j. */
    @Test
    void benjaminiHochbergStepsUp() {
        double[] q = Bootstrap.adjust(new double[] {0.04, 0.001, 0.5, 0.02, 0.01});
        assertArrayEquals(new double[] {0.05, 0.005, 0.5, 0.1 / 3, 0.025}, q, 1e-12);
        assertArrayEquals(new double[0], Bootstrap.adjust(new double[0]));
    }

    @Test
    void identicalDrawsGiveAZeroWidthIntervalAndOneValueNone() {
        double[] d = new double[Bootstrap.DRAWS];
        for (int i = 0; i < d.length; i++) {
            d[i] = 100 + i % 7;
        }
        Change same = Bootstrap.change(103, 103, d, d.clone(), 0.02);
        assertEquals(0.0, same.ciLow());
        assertEquals(0.0, same.ciHigh());
        assertFalse(same.significant());
        Change one = Bootstrap.change(100, 200, d, d, 0.02, 1, 1);
        assertNull(one.ciLow(), "a single instance has no interval");
        assertFalse(one.significant(), "and is never significant");
        // A shift of every draw by +50: the interval is the observed change, width from the draws' spread.
        double[] shifted = d.clone();
        for (int i = 0; i < shifted.length; i++) {
            shifted[i] += 50;
        }
        Change up = Bootstrap.change(103, 153, d, shifted, 0.02);
        assertEquals(50, up.ciLow(), 1e-9);
        assertTrue(up.significant());
    }

    private static Row row(String name, String level, double base, double next, double lo, double hi) {
        Change c = new Change(base, next, next - base, base == 0 ? null : (next - base) / base, lo, hi, true);
        Figures f = new Figures(10, 1, 10, base, 1, 1, 1, 1, 0.1);
        return new Row(name, level, "GEMM", name, "matched", null, f, f, c, 0, null, null);
    }

    /**
     * Material size 5 (5 % of a base of 100 per unit): a row +30 (CI +28 .. +32) decides; a row +6
     * with a wide interval (-4 .. +16) does not; a row holding 3 on both sides is not tested at all.
     */
    @Test
    void aRowDecidesOnlyWhenItMovedPastTheMaterialSizeForCertain() {
        Row big = row("gemm_a", "exact", 30, 60, 28, 32);
        Row wide = row("gemm_b", "exact", 20, 26, -4, 16);
        Row tiny = row("norm", "exact", 3, 3.1, 0, 0.2);
        Row cat = row("GEMM", "category", 50, 86, 32, 40);
        Verdicts.RowTest t = Verdicts.testRows(List.of(big, wide, tiny), List.of(), List.of(cat), 5, 0.02);
        assertEquals("gemm_a", t.regressed().name(), "the most specific certain row, an exact name before its category");
        assertNull(t.improved());
        assertNull(t.kernels().get(2).qValue(), "a row under the material size on both sides is no test");
        assertNotNull(t.kernels().get(1).qValue());
        assertTrue(t.kernels().get(1).qValue() > Verdicts.FDR, "the wide row is not certain");
        // Without the exact row, its category decides.
        Verdicts.RowTest c = Verdicts.testRows(List.of(wide), List.of(), List.of(cat), 5, 0.02);
        assertEquals("GEMM", c.regressed().name());
    }

    @Test
    void aRealTraceAgainstItselfHasZeroWidthIntervalsEverywhere() throws IOException {
        DiffResult r = CaptureDiff.run(DiffOptions.of(REAL, REAL));
        assertEquals(DiffResult.NO_CHANGE, r.verdict());
        assertEquals(0.0, r.gpuTime().ciLow());
        assertEquals(0.0, r.gpuTime().ciHigh());
        assertEquals(0.0, r.stepTime().ciLow());
        assertEquals(0.0, r.stepTime().ciHigh());
        for (List<Row> rows : List.of(r.kernels(), r.baseNames(), r.categories())) {
            for (Row row : rows) {
                if (row.time().ciLow() != null) {
                    assertEquals(0.0, row.time().ciLow(), row.name());
                    assertEquals(0.0, row.time().ciHigh(), row.name());
                }
            }
        }
        assertNull(r.decidedBy());
        // Beside kernels, each kind its own rows: the trace's launch calls are runtime rows, named.
        boolean launches = false;
        for (Row row : r.cpuOps()) {
            assertTrue(List.of("cpu_op", "annotation", "runtime").contains(row.level()), row.level());
            launches |= row.level().equals("runtime") && row.name().equals("cudaLaunchKernel");
        }
        assertTrue(launches, "cudaLaunchKernel as a runtime row");
    }

    /** The oracle: the trace's own JSON, its heaviest kernel by summed duration (read with Jackson). */
    @Test
    void aRealTraceWithItsHeaviestKernelSlowedIsRegressedNamingThatKernelFirst() throws IOException {
        Map.Entry<String, Double> heavy = DiffPower.heaviest(REAL);
        Path slow = dir.resolve("slow.json");
        DiffPower.slowedCopy(DiffPower.real(REAL), heavy.getKey(), 1.3, slow);
        DiffResult r = CaptureDiff.run(DiffOptions.of(REAL, slow));
        assertEquals(DiffResult.REGRESSED, r.verdict(), r.headline());
        assertEquals(heavy.getKey(), r.kernels().getFirst().name());
        assertNotNull(r.decidedBy(), r.headline());
        assertEquals(heavy.getKey(), r.decidedBy().name());
        String first = DiffText.render(r).lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("REGRESSED: collective " + heavy.getKey() + " +30.0 %"), first);
        assertTrue(first.contains("of GPU time per step"), first);
    }

    /** HTA's compare pair holds two steps a side: the diff says its sample is small and widens its intervals. */
    @Test
    void htasTwoStepComparePairIsSaidToBeASmallSample() throws IOException {
        DiffResult r = CaptureDiff.run(DiffOptions.of(COMPARE.resolve("base"), COMPARE.resolve("test")));
        assertTrue(r.settings().smallSample());
        List<String> small = new ArrayList<>();
        for (String w : r.warnings()) {
            if (w.startsWith("small sample: 2 and 2 steps")) {
                small.add(w);
            }
        }
        assertEquals(1, small.size(), r.warnings().toString());
        assertEquals("bootstrap over steps", r.settings().ciMethod());
        // Two steps: the t quantile of one degree of freedom widens the interval about ninefold.
        assertTrue(r.gpuTime().ciHigh() - r.gpuTime().ciLow() > 0, r.gpuTime().toString());
    }

    @Test
    void aSideWithoutKernelsIsRefusedInOneSentence() throws IOException {
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\","
                + " \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5}]}");
        Path some = dir.resolve("some.json");
        new SyntheticTrace(1, 3, 0.1, 1).write(some);
        DiffException e = assertThrows(DiffException.class, () -> CaptureDiff.run(DiffOptions.of(some, empty)));
        assertTrue(e.getMessage().contains("the new side") && e.getMessage().contains("holds no kernels"), e.getMessage());
    }
}
