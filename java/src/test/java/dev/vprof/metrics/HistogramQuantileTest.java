package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HistogramQuantileTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    private static void assertBounds(double low, double high, Quantile q) {
        assertTrue(q.known(), "known: " + q);
        assertFalse(q.exact(), "a histogram never gives an exact quantile: " + q);
        assertEquals(low, q.low(), 1e-12, "low of " + q);
        assertEquals(high, q.high(), 1e-12, "high of " + q);
    }

    @Test
    void aQuantileIsTheBucketThatHoldsItsRankNotAPointInsideIt() {
        double[] le = {0.1, 0.5, 1.0, INF};
        double[] cum = {10, 30, 40, 40};
        // p50: rank 20 lies in (0.1, 0.5]; interpolation would have said 0.3
        assertBounds(0.1, 0.5, HistogramQuantile.bounds(0.5, le, cum));
        // p99: rank 40 (ceil 39.6) lies in (0.5, 1.0]
        assertBounds(0.5, 1.0, HistogramQuantile.bounds(0.99, le, cum));
    }

    @Test
    void aRankInThePlusInfBucketHasNoUpperBound() {
        assertBounds(2, INF, HistogramQuantile.bounds(0.9, new double[] {1, 2, INF}, new double[] {5, 8, 10}));
    }

    @Test
    void theFirstBucketOfDurationsStartsAtZero() {
        Quantile q = HistogramQuantile.durationBounds(0.5, new double[] {1, INF}, new double[] {10, 10}, 5, 10);
        assertEquals(0, q.low());
        assertTrue(q.high() <= 1);
        assertBounds(Double.NEGATIVE_INFINITY, 1,
                HistogramQuantile.bounds(0.5, new double[] {1, INF}, new double[] {10, 10}));
    }

    /** The case: prefill p50 "150 ms" against a mean of 17 ms; half the requests cannot exceed 2x the mean. */
    @Test
    void theSumCapsAMedianAtTwiceTheMean() {
        double[] le = {0.3, 0.6, INF};
        double[] cum = {100, 100, 100};
        Quantile p50 = HistogramQuantile.durationBounds(0.5, le, cum, 1.7, 100); // mean 17 ms
        // rank 50: at least 51 observations are >= it, so it is at most 1.7 / 51 s
        assertBounds(0, 1.7 / 51, p50);
        assertTrue(p50.high() < 2 * 0.017 + 1e-12);
    }

    @Test
    void theSumRaisesTheLowerBoundWhenTheTopBucketCapsEveryObservation() {
        // 10 observations, all in (0, 1]; their sum is 9.5, so the smallest is at least 9.5 - 9 * 1 = 0.5,
        // and at most the mean, 0.95.
        Quantile min = HistogramQuantile.durationBounds(0, new double[] {1, INF}, new double[] {10, 10}, 9.5, 10);
        assertBounds(0.5, 0.95, min);
    }

    @Test
    void aSumThatDisagreesWithTheBucketsIsNotUsed() {
        // count 7 but 10 in the buckets: the sum describes another population.
        assertBounds(0, 1, HistogramQuantile.durationBounds(0.5, new double[] {1, INF}, new double[] {10, 10}, 0.01, 7));
    }

    @Test
    void noObservationsNoInfBucketOrAQuantileOutsideZeroToOneGiveNothing() {
        assertFalse(HistogramQuantile.bounds(0.5, new double[] {1, INF}, new double[] {0, 0}).known());
        assertFalse(HistogramQuantile.bounds(0.5, new double[] {1, 2}, new double[] {1, 2}).known());
        assertFalse(HistogramQuantile.bounds(1.1, new double[] {1, INF}, new double[] {1, 2}).known());
        assertFalse(HistogramQuantile.bounds(Double.NaN, new double[] {1, INF}, new double[] {1, 2}).known());
    }

    @Test
    void unsortedDuplicateAndNonMonotonicBucketsAreRepairedFirst() {
        // Sorted and merged: le 1 -> 4 + 4 = 8, le 2 -> 6 raised to the running max 8, +Inf -> 10.
        double[] le = {INF, 2, 1, 1};
        double[] cum = {10, 6, 4, 4};
        assertBounds(Double.NEGATIVE_INFINITY, 1, HistogramQuantile.bounds(0.7, le, cum)); // rank 7 <= 8
        assertBounds(2, INF, HistogramQuantile.bounds(0.9, le, cum)); // rank 9 > 8
    }

    @Test
    void secondsShowAValueOrItsBucketAsAPersonReadsThem() {
        assertEquals("1.32 s", Seconds.format(Quantile.exact(0.99, 1.3217)));
        assertEquals("60.1 ms", Seconds.format(Quantile.exact(0.5, 0.06012)));
        assertEquals("1-2.5 s", Seconds.format(Quantile.between(0.99, 1.0, 2.5)));
        assertEquals("250-500 ms", Seconds.format(Quantile.between(0.5, 0.25, 0.5)));
        assertEquals("<= 300 ms", Seconds.format(Quantile.between(0.5, 0, 0.3)));
        assertEquals("> 2.5 s", Seconds.format(Quantile.between(0.99, 2.5, INF)));
        assertEquals("1 s", Seconds.format(0.9996), "rounding into the next unit");
        assertEquals("n/a", Seconds.format(Quantile.none(0.5)));
    }
}
