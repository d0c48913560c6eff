package dev.vprof.report;

import dev.vprof.time.Selection;
import dev.vprof.metrics.Quantile;
import dev.vprof.metrics.Seconds;
import dev.vprof.triage.TriageReport;
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
        Report.LatencySection l = report.latency();
        if (l != null) {
            latency(out, l);
        }
        Report.MetricsSummary m = report.metrics();
        if (m != null) {
            metrics(out, m, report.queue());
        }
        Report.SpansSummary s = report.spans();
        if (s != null) {
            requests(out, report, s);
        }
        if (report.slowPhaseKernels() != null) {
            slowPhaseKernels(out, report.slowPhaseKernels());
        }
    }

    /** The top kernels inside the slowest requests' prefill and decode windows. */
    private static void slowPhaseKernels(StringBuilder out, Report.SlowPhaseKernels k) {
        String who = "the slowest " + k.requests() + (k.requests() == 1 ? " request" : " requests") + " (top "
                + Selection.slowest(k.percent()).describe().replace("the slowest ", "") + " by " + k.rankedBy()
                + ", server spans)";
        phaseKernels(out, "prefill", who, k.prefillWindowNs(), k.prefill());
        phaseKernels(out, "decode", who, k.decodeWindowNs(), k.decode());
    }

    private static void phaseKernels(StringBuilder out, String phase, String who, long windowNs,
                                     List<Report.PhaseKernel> kernels) {
        out.append("top kernels in the ").append(phase).append(" of ").append(who).append(", ")
                .append(TextReport.duration(windowNs)).append(" of ").append(phase).append(" windows:\n");
        if (kernels.isEmpty()) {
            out.append("  (no kernel ran inside them)\n");
            return;
        }
        out.append(String.format(Locale.ROOT, "  %13s %9s  %s%n", "GPU inside", "kernels", "name"));
        for (Report.PhaseKernel pk : kernels) {
            out.append(String.format(Locale.ROOT, "  %13s %9d  %s%n", TextReport.duration(pk.gpuNsInside()),
                    pk.kernels(), TraceFacts.printable(pk.name())));
        }
        out.append("  GPU inside: each kernel's time clipped to those windows, summed by name\n");
    }

    private static void metrics(StringBuilder out, Report.MetricsSummary m, Report.QueueFacts queue) {
        out.append("metrics over the capture window (").append(m.scrapes()).append(" scrapes");
        if (m.seconds() != null) {
            out.append(String.format(Locale.ROOT, ", %.1f s between the first and last used", m.seconds()));
        }
        out.append("):\n");
        if (m.seconds() != null) {
            line(out, "requests finished", num(m.requests(), "%.0f"));
            line(out, "queue depth mean / max", num(m.queueDepthMean(), "%.1f") + " / " + num(m.queueDepthMax(), "%.0f")
                    + " (" + sampled(m) + ")"
                    + (queue == null ? "" : "; " + queue.waitingMax() + " waiting at once in the spans"));
            line(out, "KV-cache usage max", m.kvCacheUsageMax() == null ? "n/a"
                    : String.format(Locale.ROOT, "%.1f%% (%s)", 100 * m.kvCacheUsageMax(), sampled(m)));
            line(out, "aborts / preemptions", num(m.aborts(), "%.0f") + " / " + num(m.preemptions(), "%.0f"));
            line(out, "prefix-cache hit rate", m.prefixCacheHitRate() == null ? "n/a"
                    : String.format(Locale.ROOT, "%.1f%%", 100 * m.prefixCacheHitRate()));
            line(out, "prompt / generation tokens/s", num(m.promptTokensPerS(), "%.1f") + " / "
                    + num(m.generationTokensPerS(), "%.1f"));
            if (!m.missing().isEmpty()) {
                line(out, "not exported by the server", String.join(", ", m.missing()));
            }
            for (String bad : m.invalid()) {
                out.append("  LEFT OUT (its values break the exposition format's rules): ").append(bad).append('\n');
            }
        }
        for (Report.MetricGap g : m.gaps()) {
            out.append("  GAP: no metrics for ").append(TextReport.duration(g.endNs() - g.startNs())).append(" from ")
                    .append(TextReport.instantOf(g.startNs())).append(": ").append(g.error()).append('\n');
        }
    }

    /** How a gauge was read: at each scrape, so its max may miss a peak between two. */
    private static String sampled(Report.MetricsSummary m) {
        return m.sampleIntervalS() == null ? "sampled at each scrape"
                : "sampled every " + Seconds.format(m.sampleIntervalS());
    }

    /** The per-request latencies, each row saying where its figures come from. */
    private static void latency(StringBuilder out, Report.LatencySection l) {
        out.append("request latency over the capture window, ").append(l.note()).append(":\n");
        out.append(String.format(Locale.ROOT, "  %-12s %-14s %-14s %-10s %-14s %s%n", "", "p50", "p99", "mean", "max",
                "source"));
        boolean histogram = false;
        String[] names = {"TTFT", "queue", "prefill", "decode", "e2e", "inter-token"};
        Report.LatencySummary[] rows = {l.ttft(), l.queue(), l.prefill(), l.decode(), l.e2e(), l.interToken()};
        for (int i = 0; i < rows.length; i++) {
            Report.LatencySummary r = rows[i];
            if (r.source().equals("absent")) {
                continue;
            }
            boolean fromHistogram = r.source().equals("histogram");
            histogram |= fromHistogram;
            out.append(String.format(Locale.ROOT, "  %-12s %-14s %-14s %-10s %-14s %s%n", names[i],
                    quantile(r.p50()), quantile(r.p99()), r.meanS() == null ? "n/a" : Seconds.format(r.meanS()),
                    quantile(r.max()), fromHistogram ? "metrics histogram buckets" : "server spans, exact"));
        }
        if (histogram) {
            out.append(TriageReport.HISTOGRAM_LEGEND).append('\n');
        }
        out.append("every latency above is the server's (its llm_request spans, its /metrics histograms); a client's"
                + " (vprof bench, a load generator) TTFT and e2e are longer by the network, HTTP and tokenization"
                + " time before the engine, which the spans' before-engine phase measures\n");
    }

    /** A quantile from the report's numbers: its value, or its bounds (high_s null: no upper bound). */
    static String quantile(Report.QuantileSummary q) {
        if (q == null) {
            return "n/a";
        }
        double high = q.highS() == null ? Double.POSITIVE_INFINITY : q.highS();
        double low = q.lowS() == null ? Double.NEGATIVE_INFINITY : q.lowS();
        return Seconds.format(q.exact() ? Quantile.exact(0, low) : Quantile.between(0, low, high));
    }

    private static void requests(StringBuilder out, Report report, Report.SpansSummary s) {
        out.append("spans: ").append(s.spans()).append(", of which ").append(s.requests()).append(" requests\n");
        if (!s.description().isEmpty()) {
            out.append("  note: ").append(s.description()).append('\n');
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
        out.append("slowest ").append(slowest.size())
                .append(" requests (server spans; GPU: kernel busy time, all devices, during each phase)")
                .append(s.gpuOverlapApproximate() ? ", GPU times approximate (kernels arrived far out of order)" : "")
                .append(":\n");
        out.append(String.format(Locale.ROOT, "  %10s %21s %21s %21s %21s  %-13s %s%n", "e2e", "before engine (GPU)",
                "queue (GPU)", "prefill (GPU)", "decode (GPU)", "most in", "request"));
        String legend = "  each phase's length from the request's span, then (in brackets) the GPU busy time during it;"
                + " before engine: arrival until the engine queued it (HTTP, tokenization); most in: the longest phase";
        for (Report.RequestSummary r : slowest) {
            out.append(String.format(Locale.ROOT, "  %10s %21s %21s %21s %21s  %-13s %s%s%n",
                    TextReport.duration(r.e2eNs()), pair(r.beforeEngineNs(), r.gpuNsBeforeEngine()),
                    pair(r.queueNs(), r.gpuNsInQueue()),
                    pair(r.prefillNs(), r.gpuNsInPrefill()), pair(r.decodeNs(), r.gpuNsInDecode()),
                    r.dominantPhase(), r.requestId(), r.inWindow() ? "" : " (outside the capture window)"));
        }
        out.append(legend).append('\n');
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

}
