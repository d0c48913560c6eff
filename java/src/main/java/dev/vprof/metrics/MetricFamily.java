package dev.vprof.metrics;

import java.util.List;

/**
 * A metric family: the name on its {@code # TYPE} line (for an OpenMetrics counter, the name
 * without {@code _total}), its type, help and unit, and its samples in exposition order.
 *
 * @param help null when the exposition gave none
 * @param unit null when the exposition gave none (OpenMetrics {@code # UNIT} only)
 */
public record MetricFamily(String name, MetricType type, String help, String unit, List<Sample> samples) {
    public MetricFamily {
        samples = List.copyOf(samples);
    }
}
