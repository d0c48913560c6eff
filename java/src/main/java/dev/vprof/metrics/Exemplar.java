package dev.vprof.metrics;

/**
 * An OpenMetrics exemplar ({@code # {trace_id="..."} 0.67 1700000000.123}) attached to a
 * counter or bucket sample: usually the trace that produced one observation.
 *
 * @param timestampNs epoch nanoseconds, or {@link Sample#NO_TIMESTAMP}
 */
public record Exemplar(Labels labels, double value, long timestampNs) {
    public boolean hasTimestamp() {
        return timestampNs != Sample.NO_TIMESTAMP;
    }
}
