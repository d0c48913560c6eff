package dev.vprof.aggregate;

/**
 * How many exact durations all {@link Durations} of one report may keep together. Past it,
 * distributions switch to their histogram, so that the report's heap stays bounded (4 M
 * samples = 32 MiB) however many kernels the capture holds.
 */
public final class SampleBudget {
    public static final long DEFAULT_SAMPLES = 4L << 20;

    private long left;

    public SampleBudget(long samples) {
        this.left = samples;
    }

    /** Takes {@code n} samples of budget if there are that many left. */
    boolean take(long n) {
        if (left < n) {
            return false;
        }
        left -= n;
        return true;
    }

    void give(long n) {
        left += n;
    }
}
