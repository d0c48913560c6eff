package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HistogramQuantileTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void interpolatesLinearlyInsideTheBucketThatHoldsTheRank() {
        double[] le = {0.1, 0.5, 1.0, INF};
        double[] cum = {10, 30, 40, 40};
        // p50: rank 20 lies in (0.1, 0.5] holding 20; 10 of them in: 0.1 + 0.4 * 10/20
        assertEquals(0.3, HistogramQuantile.quantile(0.5, le, cum), 1e-12);
        // p99: rank 39.6 lies in (0.5, 1.0] holding 10; 9.6 of them in: 0.5 + 0.5 * 0.96
        assertEquals(0.98, HistogramQuantile.quantile(0.99, le, cum), 1e-12);
    }

    @Test
    void aRankInThePlusInfBucketGivesTheHighestFiniteBound() {
        assertEquals(2.0, HistogramQuantile.quantile(0.9, new double[] {1, 2, INF}, new double[] {5, 8, 10}));
    }

    @Test
    void theFirstBucketInterpolatesFromZero() {
        assertEquals(0.5, HistogramQuantile.quantile(0.5, new double[] {1, INF}, new double[] {10, 10}), 1e-12);
    }

    @Test
    void aNonPositiveFirstBoundIsReturnedAsIs() {
        assertEquals(-1.0, HistogramQuantile.quantile(0.1, new double[] {-1, 0, INF}, new double[] {5, 8, 10}));
    }

    @Test
    void noObservationsNoInfBucketOrTooFewBucketsGiveNaN() {
        assertTrue(Double.isNaN(HistogramQuantile.quantile(0.5, new double[] {1, INF}, new double[] {0, 0})));
        assertTrue(Double.isNaN(HistogramQuantile.quantile(0.5, new double[] {1, 2}, new double[] {1, 2})));
        assertTrue(Double.isNaN(HistogramQuantile.quantile(0.5, new double[] {INF}, new double[] {3})));
    }

    @Test
    void quantilesOutsideZeroToOneAreInfinitiesAsInPromql() {
        double[] le = {1, INF};
        double[] cum = {1, 2};
        assertEquals(Double.NEGATIVE_INFINITY, HistogramQuantile.quantile(-0.1, le, cum));
        assertEquals(INF, HistogramQuantile.quantile(1.1, le, cum));
        assertTrue(Double.isNaN(HistogramQuantile.quantile(Double.NaN, le, cum)));
    }

    @Test
    void unsortedDuplicateAndNonMonotonicBucketsAreRepairedFirst() {
        // Sorted and merged: le 1 -> 4 + 4 = 8, le 2 -> 6 raised to the running max 8, +Inf -> 10.
        double[] le = {INF, 2, 1, 1};
        double[] cum = {10, 6, 4, 4};
        // rank 7 falls in the first bucket (8 >= 7): 0 + 1 * 7/8
        double p = HistogramQuantile.quantile(0.7, le, cum);
        assertEquals(0.875, p, 1e-12);
    }
}
