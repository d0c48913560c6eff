package dev.vprof.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void smallPopulationsGiveExactNearestRankPercentiles() {
        Durations d = new Durations();
        SampleBudget budget = new SampleBudget(1 << 20);
        for (long v : new long[] {5, 1, 4, 2, 3}) {
            d.add(v, budget);
        }
        assertTrue(d.exact());
        assertEquals(3, d.percentile(50));
        assertEquals(5, d.percentile(99));
        assertEquals(1, d.percentile(1));
    }

    @Test
    void largePopulationsMoveToAHistogramWithinAQuarterPercent() {
        Durations d = new Durations();
        SampleBudget budget = new SampleBudget(1 << 20);
        Random random = new Random(1);
        long[] values = new long[200_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (long) Math.exp(8 + 6 * random.nextDouble()); // 3 us .. 1.2 s
            d.add(values[i], budget);
        }
        assertFalse(d.exact());
        Arrays.sort(values);
        for (double p : new double[] {50, 90, 99, 99.9}) {
            long truth = values[(int) Math.ceil(p / 100 * values.length) - 1];
            assertEquals((double) truth, (double) d.percentile(p), truth * 0.004, "p" + p);
        }
    }

    @Test
    void theSharedBudgetBoundsExactSamplesAndIsReturnedOnSwitch() {
        SampleBudget budget = new SampleBudget(16);
        Durations a = new Durations();
        for (int i = 0; i < 16; i++) {
            a.add(i, budget);
        }
        assertTrue(a.exact());
        a.add(99, budget); // needs 16 more: over budget, so a histogram, and its 16 come back
        assertFalse(a.exact());
        assertTrue(budget.take(16));
    }
}
