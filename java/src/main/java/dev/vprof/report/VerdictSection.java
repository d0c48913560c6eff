package dev.vprof.report;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.metrics.MetricsScraper;
import dev.vprof.metrics.WindowStats;
import dev.vprof.triage.Assessment;
import dev.vprof.triage.Triage;
import java.net.URI;

/**
 * The triage verdict over the capture window, for the top of the report: the same rules as
 * {@code vprof triage}, on the capture's scrapes, with the requests' latencies from their spans
 * when the capture has them.
 */
final class VerdictSection {
    private VerdictSection() {}

    /** The metrics URL the next steps name when the capture does not record one. */
    private static final URI UNKNOWN_URL = URI.create("http://127.0.0.1:8000/metrics");

    static Report.VerdictSummary of(WindowStats stats, boolean vllm, CaptureMetadata metadata) {
        Assessment a = Triage.assess(stats, vllm, Triage.Thresholds.DEFAULT, metricsUrl(metadata));
        return new Report.VerdictSummary(a.verdict().key(), a.verdict().title(), a.findings());
    }

    private static URI metricsUrl(CaptureMetadata metadata) {
        String url = metadata == null || metadata.options() == null ? null : metadata.options().get("metrics");
        if (url == null) {
            return UNKNOWN_URL;
        }
        try {
            return MetricsScraper.metricsUri(url);
        } catch (IllegalArgumentException e) {
            return UNKNOWN_URL;
        }
    }
}
