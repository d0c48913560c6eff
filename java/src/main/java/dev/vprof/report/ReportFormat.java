package dev.vprof.report;

/**
 * The text report's own ways of writing a duration, a size, an instant and a histogram quantile,
 * for the other renderers of a {@link Report} (the HTML page), so a figure reads the same in both.
 */
public final class ReportFormat {
    private ReportFormat() {}

    /** "812 ns", "3.40 us", "12.50 ms", "1.250 s". */
    public static String duration(long ns) {
        return TextReport.duration(ns);
    }

    /** "512 B", "3.4 KiB", "1.2 MiB", "2.00 GiB". */
    public static String bytes(long b) {
        return TextReport.bytes(b);
    }

    /** ISO-8601 UTC. */
    public static String instant(long epochNs) {
        return TextReport.instantOf(epochNs);
    }

    /** An exact value, or the bucket a histogram quantile lies in ("100-500 ms"); "n/a" when absent. */
    public static String quantile(Report.QuantileSummary q) {
        return ServingText.quantile(q);
    }
}
