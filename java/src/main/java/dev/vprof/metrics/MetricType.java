package dev.vprof.metrics;

import java.util.Locale;

/**
 * The metric types of Prometheus text 0.0.4 and OpenMetrics 1.0. Prometheus' {@code untyped}
 * and OpenMetrics' {@code unknown} are the same thing and both map to {@link #UNKNOWN}.
 */
public enum MetricType {
    COUNTER,
    GAUGE,
    HISTOGRAM,
    GAUGEHISTOGRAM,
    SUMMARY,
    INFO,
    STATESET,
    UNKNOWN;

    /** The word used on a {@code # TYPE} line: the type's name in lower case. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type named on a {@code # TYPE} line, or null if the word is not a type. */
    static MetricType fromWord(String word, ExpositionFormat format) {
        return switch (word) {
            case "counter" -> COUNTER;
            case "gauge" -> GAUGE;
            case "histogram" -> HISTOGRAM;
            case "summary" -> SUMMARY;
            case "untyped" -> format == ExpositionFormat.OPENMETRICS ? null : UNKNOWN; // OpenMetrics says unknown
            case "unknown" -> format == ExpositionFormat.OPENMETRICS ? UNKNOWN : null;
            case "gaugehistogram" -> format == ExpositionFormat.OPENMETRICS ? GAUGEHISTOGRAM : null;
            case "info" -> format == ExpositionFormat.OPENMETRICS ? INFO : null;
            case "stateset" -> format == ExpositionFormat.OPENMETRICS ? STATESET : null;
            default -> null;
        };
    }

    /**
     * Whether a sample named {@code familyName + suffix} belongs to a family of this type.
     * Counters accept the bare name too, because Prometheus text puts {@code _total} in the
     * family name itself ({@code # TYPE x_total counter}).
     */
    boolean acceptsSuffix(String suffix) {
        return switch (this) {
            case COUNTER -> suffix.isEmpty() || suffix.equals("_total") || suffix.equals("_created");
            case HISTOGRAM -> suffix.equals("_bucket") || suffix.equals("_sum") || suffix.equals("_count")
                    || suffix.equals("_created");
            case GAUGEHISTOGRAM -> suffix.equals("_bucket") || suffix.equals("_gbucket") || suffix.equals("_gsum")
                    || suffix.equals("_gcount");
            case SUMMARY -> suffix.isEmpty() || suffix.equals("_sum") || suffix.equals("_count")
                    || suffix.equals("_created");
            case INFO -> suffix.isEmpty() || suffix.equals("_info");
            case GAUGE, STATESET, UNKNOWN -> suffix.isEmpty();
        };
    }
}
