package dev.vprof.metrics;

import java.util.Locale;

/** The two wire formats a {@code /metrics} endpoint may answer with. */
public enum ExpositionFormat {
    /** Prometheus text format 0.0.4: timestamps in integer milliseconds, no {@code # EOF}. */
    PROMETHEUS_TEXT("text/plain; version=0.0.4; charset=utf-8"),
    /** OpenMetrics 1.0: timestamps in (fractional) seconds, {@code # EOF} required. */
    OPENMETRICS("application/openmetrics-text; version=1.0.0; charset=utf-8");

    /**
     * What a scraper sends: OpenMetrics preferred, the classic text format as the fallback,
     * in the manner of the Prometheus server's own Accept header.
     */
    public static final String ACCEPT_HEADER =
            "application/openmetrics-text;version=1.0.0;q=0.9,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    private final String contentType;

    ExpositionFormat(String contentType) {
        this.contentType = contentType;
    }

    /** The Content-Type a server uses for this format. */
    public String contentType() {
        return contentType;
    }

    /**
     * The format a response declares. Anything that is not OpenMetrics (including a missing
     * header) is read as Prometheus text, which is what the Prometheus server does too.
     */
    public static ExpositionFormat fromContentType(String contentType) {
        if (contentType != null
                && contentType.toLowerCase(Locale.ROOT).strip().startsWith("application/openmetrics-text")) {
            return OPENMETRICS;
        }
        return PROMETHEUS_TEXT;
    }
}
