package dev.vprof.capture;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * Maps one process's CUPTI timestamps to epoch ns, fitted by least squares to its
 * CLOCK_SYNC pairs: {@code epoch = cupti + offset + drift * (cupti - reference)}. One pair
 * gives an offset alone; two or more also give a drift. The residual (how far the pairs
 * sit from the fitted line) says how far to trust cross-process and cross-source
 * alignment. With no pairs the mapping is the identity, which is right on Linux, where
 * CUPTI's clock is CLOCK_REALTIME.
 *
 * <p>Pairs that also read CLOCK_BOOTTIME say where the host's boot lies on its wall clock
 * ({@link #bootOffsetNs()}): what a Perfetto trace needs to give BOOTTIME honestly.
 */
public final class ClockMapping {

    private static final ClockMapping IDENTITY = new ClockMapping(0, 0, 0, 0.0, 0.0, 0, 0, OptionalLong.empty());

    private final int pairs;
    private final long referenceCuptiNs;
    private final long baseOffsetNs;
    private final double offsetAdjustNs;
    private final double drift;
    private final long residualMaxNs;
    private final long residualRmsNs;
    private final OptionalLong bootOffsetNs;

    private ClockMapping(int pairs, long referenceCuptiNs, long baseOffsetNs, double offsetAdjustNs, double drift,
            long residualMaxNs, long residualRmsNs, OptionalLong bootOffsetNs) {
        this.pairs = pairs;
        this.referenceCuptiNs = referenceCuptiNs;
        this.baseOffsetNs = baseOffsetNs;
        this.offsetAdjustNs = offsetAdjustNs;
        this.drift = drift;
        this.residualMaxNs = residualMaxNs;
        this.residualRmsNs = residualRmsNs;
        this.bootOffsetNs = bootOffsetNs;
    }

    /** CUPTI time taken as epoch time, for a process without clock pairs. */
    public static ClockMapping identity() {
        return IDENTITY;
    }

    /** Fits the first {@code n} pairs of the arrays (CUPTI ns, CLOCK_REALTIME ns). */
    public static ClockMapping fit(long[] cuptiNs, long[] realtimeNs, int n) {
        if (n <= 0) {
            return IDENTITY;
        }
        long ref = cuptiNs[0];
        long base = realtimeNs[0] - cuptiNs[0];
        // Centre everything on the first pair so that doubles keep ns precision.
        double sumX = 0, sumY = 0;
        for (int i = 0; i < n; i++) {
            sumX += (double) (cuptiNs[i] - ref);
            sumY += (double) (realtimeNs[i] - cuptiNs[i] - base);
        }
        double meanX = sumX / n, meanY = sumY / n;
        double sxx = 0, sxy = 0;
        for (int i = 0; i < n; i++) {
            double dx = (cuptiNs[i] - ref) - meanX;
            double dy = (realtimeNs[i] - cuptiNs[i] - base) - meanY;
            sxx += dx * dx;
            sxy += dx * dy;
        }
        double slope = sxx > 0 ? sxy / sxx : 0.0;
        double intercept = meanY - slope * meanX;
        double maxAbs = 0, sumSq = 0;
        for (int i = 0; i < n; i++) {
            double x = cuptiNs[i] - ref;
            double r = (realtimeNs[i] - cuptiNs[i] - base) - (intercept + slope * x);
            maxAbs = Math.max(maxAbs, Math.abs(r));
            sumSq += r * r;
        }
        return new ClockMapping(n, ref, base, intercept, slope, Math.round(maxAbs), Math.round(Math.sqrt(sumSq / n)),
                OptionalLong.empty());
    }

    /**
     * This mapping with the boot offset of its process's pairs: the median of the first {@code n}
     * values of CLOCK_REALTIME − CLOCK_BOOTTIME (the two move apart only when the wall clock is
     * stepped, so the median keeps the value most of the capture had). None with {@code n} = 0.
     */
    public ClockMapping withBootOffset(long[] realtimeMinusBoottimeNs, int n) {
        if (n <= 0) {
            return this;
        }
        long[] s = Arrays.copyOf(realtimeMinusBoottimeNs, n);
        Arrays.sort(s);
        return new ClockMapping(pairs, referenceCuptiNs, baseOffsetNs, offsetAdjustNs, drift, residualMaxNs,
                residualRmsNs, OptionalLong.of(s[n / 2]));
    }

    /**
     * How far CLOCK_REALTIME was ahead of CLOCK_BOOTTIME on the process's host (the boot instant
     * in epoch ns), from its clock pairs; empty where they read no boot time (older agents, a
     * PyTorch trace).
     */
    public OptionalLong bootOffsetNs() {
        return bootOffsetNs;
    }

    /** The epoch ns of CUPTI time {@code cuptiNs}. */
    public long toEpochNs(long cuptiNs) {
        if (pairs == 0) {
            return cuptiNs;
        }
        return cuptiNs + baseOffsetNs + Math.round(offsetAdjustNs + drift * (double) (cuptiNs - referenceCuptiNs));
    }

    /** How many CLOCK_SYNC pairs the fit used. */
    public int pairs() {
        return pairs;
    }

    /** epoch − CUPTI at the first pair's CUPTI time, as fitted. */
    public long offsetNs() {
        return baseOffsetNs + Math.round(offsetAdjustNs);
    }

    /** How fast the offset changes, in parts per million (0 with fewer than two pairs). */
    public double driftPpm() {
        return drift * 1e6;
    }

    /** Largest distance of a pair from the fitted line, in ns. */
    public long residualMaxNs() {
        return residualMaxNs;
    }

    /** Root mean square distance of the pairs from the fitted line, in ns. */
    public long residualRmsNs() {
        return residualRmsNs;
    }

    @Override
    public String toString() {
        if (pairs == 0) {
            return "no clock pairs: CUPTI time taken as epoch time";
        }
        return String.format("%d clock pairs, offset %+d ns, drift %+.3f ppm, residual max %d ns (rms %d ns)",
                pairs, offsetNs(), driftPpm(), residualMaxNs, residualRmsNs);
    }
}
