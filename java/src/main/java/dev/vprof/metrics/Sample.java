package dev.vprof.metrics;

/**
 * One line of an exposition: a full sample name (with its suffix, such as
 * {@code vllm:time_to_first_token_seconds_bucket}), labels, a value, and optionally the
 * exposition's own timestamp and an exemplar.
 *
 * @param timestampNs epoch nanoseconds the exposition gave for this sample (Prometheus text
 *                    gives milliseconds, OpenMetrics seconds; both are converted), or
 *                    {@link #NO_TIMESTAMP}
 * @param exemplar    null when there is none
 */
public record Sample(String name, Labels labels, double value, long timestampNs, Exemplar exemplar) {
    /** Marks an absent timestamp; no real exposition uses the year -292 million. */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    public Sample(String name, Labels labels, double value) {
        this(name, labels, value, NO_TIMESTAMP, null);
    }

    public boolean hasTimestamp() {
        return timestampNs != NO_TIMESTAMP;
    }

    @Override
    public String toString() {
        return name + labels + " " + value;
    }
}
