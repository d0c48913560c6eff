package dev.vprof.report;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
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

    static Report.VerdictSummary of(WindowStats stats, boolean vllm, CaptureMetadata metadata, Triage.Held held) {
        Assessment a = Triage.assess(stats, vllm, Triage.Thresholds.DEFAULT, metricsUrl(metadata), held);
        return new Report.VerdictSummary(a.verdict().key(), a.verdict().title(), a.findings());
    }

    /**
     * What the capture holds, for the verdict's next steps: its spans and kernels, how far apart its
     * scrapes are, the queue against the GPU; the URL it scraped counts as live unless the capture
     * is the demo's (its server is gone once the demo ends) or recorded none.
     */
    static Triage.Held held(Report.QueueFacts queue, boolean kernels, Report.MetricsSummary metrics,
                            CaptureReader reader) {
        CaptureMetadata m = reader.metadata().orElse(null);
        boolean demo = m != null && m.commandLine() != null && !m.commandLine().isEmpty()
                && "demo".equals(m.commandLine().getFirst());
        boolean recorded = m != null && m.options() != null && m.options().get("metrics") != null;
        double sample = metrics == null || metrics.sampleIntervalS() == null ? Double.NaN : metrics.sampleIntervalS();
        Triage.Queue q = queue == null ? null : new Triage.Queue(queue.queuedNs() / 1e9,
                queue.gpuBusyFractionWhileQueued() == null ? Double.NaN : queue.gpuBusyFractionWhileQueued(),
                queue.waitingMax(), queue.inModelMax());
        return new Triage.Held(queue != null, kernels, recorded && !demo, sample, q);
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
