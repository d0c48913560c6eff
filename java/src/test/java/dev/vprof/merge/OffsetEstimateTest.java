package dev.vprof.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The offset fit against sequences built here with a known offset: the collective ends of a
 * reference rank, and the same instants on a rank whose clock is ahead, with noise, outliers and
 * a capture that began some collectives later.
 */
class OffsetEstimateTest {

    /** Ends of `n` collectives with irregular gaps (as layers of varying batches give). */
    private static long[] ends(int n, long seed) {
        Random rnd = new Random(seed);
        long[] t = new long[n];
        long now = 1_700_000_000_000_000_000L;
        for (int i = 0; i < n; i++) {
            now += 20_000 + rnd.nextInt(300_000);
            t[i] = now;
        }
        return t;
    }

    private static long[] shifted(long[] ref, long offset, int dropFirst, long noiseNs, long seed) {
        Random rnd = new Random(seed);
        long[] o = new long[ref.length - dropFirst];
        for (int i = 0; i < o.length; i++) {
            o[i] = ref[i + dropFirst] + offset + (noiseNs == 0 ? 0 : (long) (rnd.nextGaussian() * noiseNs));
        }
        return o;
    }

    @Test
    void findsTheOffsetAndSaysHowWellTheEndsAgree() {
        long[] ref = ends(500, 1);
        long[] other = shifted(ref, 3_700_000, 0, 400, 2);
        OffsetEstimate e = OffsetEstimate.fromCollectives(ref, other).orElseThrow();
        assertEquals(OffsetEstimate.COLLECTIVES, e.method());
        assertTrue(Math.abs(e.offsetNs() - 3_700_000) < 100, "offset " + e.offsetNs());
        // the residual is the noise put in (400 ns sigma), within sampling error
        assertTrue(e.uncertaintyNs() > 300 && e.uncertaintyNs() < 500, "residual " + e.uncertaintyNs());
        assertEquals(500, e.pairs());
        assertEquals(0, e.shift());
    }

    @Test
    void aCaptureThatBeganLaterIsAlignedByItsShift() {
        long[] ref = ends(400, 3);
        long[] other = shifted(ref, -12_345_678, 7, 0, 4); // other[0] is ref[7]
        OffsetEstimate e = OffsetEstimate.fromCollectives(ref, other).orElseThrow();
        assertEquals(-7, e.shift());
        assertEquals(-12_345_678, e.offsetNs());
        assertEquals(0, e.uncertaintyNs());
    }

    @Test
    void lateEndsAreOutliersAndLeaveTheOffsetAlone() {
        long[] ref = ends(300, 5);
        long[] other = shifted(ref, 250_000, 0, 200, 6);
        for (int i = 0; i < other.length; i += 10) {
            other[i] += 5_000_000; // a rank descheduled at those ends
        }
        OffsetEstimate e = OffsetEstimate.fromCollectives(ref, other).orElseThrow();
        assertTrue(Math.abs(e.offsetNs() - 250_000) < 100, "offset " + e.offsetNs());
        assertEquals(30, e.outliers());
        assertTrue(e.maxResidualNs() < 5_000, "max residual " + e.maxResidualNs());
    }

    @Test
    void tooFewCollectivesGiveNoEstimate() {
        long[] ref = ends(5, 7);
        assertFalse(OffsetEstimate.fromCollectives(ref, shifted(ref, 1000, 0, 0, 8)).isPresent());
        assertFalse(OffsetEstimate.fromCollectives(new long[0], new long[0]).isPresent());
    }

    @Test
    void periodicCollectivesAreAmbiguousAndSaySo() {
        long[] ref = new long[100];
        for (int i = 0; i < ref.length; i++) {
            ref[i] = 1_000_000_000L + i * 1_000_000L; // exactly 1 ms apart
        }
        long[] other = Arrays.stream(ref).map(t -> t + 200_000).toArray();
        OffsetEstimate e = OffsetEstimate.fromCollectives(ref, other).orElseThrow();
        assertEquals(200_000, e.offsetNs()); // the alignment nearest the wall clocks
        assertFalse(e.notes().isEmpty());
    }

    @Test
    void theNtpBoundAddsBothNodesMaximumErrorsOrIsUnbounded() {
        OffsetEstimate e = OffsetEstimate.ntpBound(12, 30, "why");
        assertEquals(42_000, e.uncertaintyNs());
        assertEquals(0, e.offsetNs());
        assertEquals(-1, OffsetEstimate.ntpBound(-1, 30, "why").uncertaintyNs());
        assertTrue(e.describe().contains("NTP bound"), e.describe());
    }

    @Test
    void collectivesAreKnownByTheirKernelNames() {
        assertTrue(Collectives.isCollective("_Z40ncclDevKernel_AllReduce_Sum_bf16_RING_LL24ncclDevKernelArgsStorageILm4096EE"));
        assertTrue(Collectives.isCollective("ncclKernel_AllGather_RING_LL_Sum_int8_t"));
        assertTrue(Collectives.isCollective("_ZN4vllm25cross_device_reduce_1stageIN3c108BFloat16ELi8EEEvPNS_8RankDataE"));
        assertFalse(Collectives.isCollective("ncclDevKernel_SendRecv"));
        assertFalse(Collectives.isCollective("_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_S6_fii"));
        assertFalse(Collectives.isCollective(null));
    }
}
