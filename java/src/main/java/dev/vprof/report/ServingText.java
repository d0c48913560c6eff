package dev.vprof.report;

import java.util.List;
import java.util.Locale;

/** The serving sections of the text report: metrics over the capture window, requests, gaps, stray spans. */
final class ServingText {
    private ServingText() {}

    static void render(StringBuilder out, Report report) {
        Report.WindowSummary w = report.window();
        if (w != null) {
            out.append('\n').append("capture window: ");
            if (w.source().equals("none")) {
                out.append("unknown (no ranges or records)\n");
            } else {
                out.append(TextReport.instantOf(w.startNs())).append(" + ").append(TextReport.duration(w.durationNs()))
                        .append(" (from the ").append(w.source()).append(")\n");
            }
        }
        Report.MetricsSummary m = report.metrics();
        if (m != null) {
            metrics(out, m);
        }
        Report.SpansSummary s = report.spans();
        if (s != null) {
            requests(out, report, s);
        }
    }

    private static void metrics(StringBuilder out, Report.MetricsSummary m) {
        out.append("metrics over the capture window (").append(m.scrapes()).append(" scrapes");
        if (m.seconds() != null) {
            out.append(String.format(Locale.ROOT, ", %.1f s between the first and last used", m.seconds()));
        }
        out.append("):\n");
        if (m.seconds() != null) {
            line(out, "requests finished", num(m.requests(), "%.0f"));
            line(out, "TTFT p50 / p99", secs(m.ttftP50S()) + " / " + secs(m.ttftP99S()));
            line(out, "queue p50 / p99", secs(m.queueP50S()) + " / " + secs(m.queueP99S()));
            line(out, "prefill p50 / p99", secs(m.prefillP50S()) + " / " + secs(m.prefillP99S()));
            line(out, "decode p50 / p99", secs(m.decodeP50S()) + " / " + secs(m.decodeP99S()));
            line(out, "queue depth mean / max", num(m.queueDepthMean(), "%.1f") + " / " + num(m.queueDepthMax(), "%.0f"));
            line(out, "KV-cache usage max", m.kvCacheUsageMax() == null ? "n/a"
                    : String.format(Locale.ROOT, "%.1f%%", 100 * m.kvCacheUsageMax()));
            line(out, "aborts / preemptions", num(m.aborts(), "%.0f") + " / " + num(m.preemptions(), "%.0f"));
            line(out, "prefix-cache hit rate", m.prefixCacheHitRate() == null ? "n/a"
                    : String.format(Locale.ROOT, "%.1f%%", 100 * m.prefixCacheHitRate()));
            line(out, "prompt / generation tokens/s", num(m.promptTokensPerS(), "%.1f") + " / "
                    + num(m.generationTokensPerS(), "%.1f"));
            if (!m.missing().isEmpty()) {
                line(out, "not exported by the server", String.join(", ", m.missing()));
            }
        }
        for (Report.MetricGap g : m.gaps()) {
            out.append("  GAP: no metrics for ").append(TextReport.duration(g.endNs() - g.startNs())).append(" from ")
                    .append(TextReport.instantOf(g.startNs())).append(": ").append(g.error()).append('\n');
        }
    }

    private static void requests(StringBuilder out, Report report, Report.SpansSummary s) {
        out.append("spans: ").append(s.spans()).append(", of which ").append(s.requests()).append(" requests\n");
        if (!s.description().isEmpty()) {
            out.append("  NOTE: ").append(s.description()).append('\n');
            for (Report.OutsideSpan o : s.outsideSpans().subList(0, Math.min(5, s.outsideSpans().size()))) {
                out.append("    ").append(o.service().isEmpty() ? "" : o.service() + "/").append(o.name())
                        .append(" trace ").append(o.traceId()).append(" at ").append(TextReport.instantOf(o.startNs()))
                        .append('\n');
            }
        }
        List<Report.RequestSummary> slowest = report.slowestRequests();
        if (slowest.isEmpty()) {
            return;
        }
        out.append("slowest ").append(slowest.size()).append(" requests (GPU: kernel busy time, all devices, during each phase)")
                .append(s.gpuOverlapApproximate() ? ", GPU times approximate (kernels arrived far out of order)" : "")
                .append(":\n");
        out.append(String.format(Locale.ROOT, "  %10s %21s %21s %21s  %-8s %s%n", "e2e", "queue (GPU)",
                "prefill (GPU)", "decode (GPU)", "most in", "request"));
        for (Report.RequestSummary r : slowest) {
            out.append(String.format(Locale.ROOT, "  %10s %21s %21s %21s  %-8s %s%s%n",
                    TextReport.duration(r.e2eNs()), pair(r.queueNs(), r.gpuNsInQueue()),
                    pair(r.prefillNs(), r.gpuNsInPrefill()), pair(r.decodeNs(), r.gpuNsInDecode()),
                    r.dominantPhase(), r.requestId(), r.inWindow() ? "" : " (outside the capture window)"));
        }
    }

    private static String pair(long ns, long gpuNs) {
        return TextReport.duration(ns) + " (" + TextReport.duration(gpuNs) + ")";
    }

    private static void line(StringBuilder out, String what, String value) {
        out.append(String.format(Locale.ROOT, "  %-30s %s%n", what, value));
    }

    private static String num(Double v, String fmt) {
        return v == null ? "n/a" : String.format(Locale.ROOT, fmt, v);
    }

    private static String secs(Double v) {
        return v == null ? "n/a" : TextReport.duration(Math.round(v * 1e9));
    }
}
