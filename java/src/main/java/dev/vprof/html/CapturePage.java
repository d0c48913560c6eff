package dev.vprof.html;

import static dev.vprof.html.Html.fmt;
import static dev.vprof.html.Html.n;
import static dev.vprof.html.Html.text;

import dev.vprof.analysis.Analyses;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.ReadStats;
import dev.vprof.report.Report;
import dev.vprof.report.ReportFormat;
import dev.vprof.report.TextReport;
import dev.vprof.triage.Finding;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The page of one capture: a renderer of what {@code vprof report} computes ({@link Report}) and of
 * the page's own aggregates ({@link PageData}), never one element per kernel. Sections: the verdict
 * banner with the capture's health, the timeline (busy fraction per GPU, the capture ranges and
 * the metric gauges, zoomable), the slowest requests' waterfall, the top kernels with their
 * duration distributions, time per step, the requests' latencies and the process and device
 * facts. Each chart has its numbers in a table beside or under it.
 */
public final class CapturePage {
    private CapturePage() {}

    /** Slowest requests drawn in the waterfall. */
    static final int WATERFALL_ROWS = 30;
    /** Warnings listed in the banner; the rest are counted. */
    static final int MAX_WARNINGS = 40;
    /** GPU lanes drawn (all are in the table, up to MAX_ROWS); ranges, kernels and processes listed. */
    static final int MAX_LANES = 128;
    static final int MAX_ROWS = 512;

    /** The rows a table shows: the first {@value #MAX_ROWS}. */
    static <T> List<T> firstRows(List<T> rows) {
        return rows.subList(0, Math.min(MAX_ROWS, rows.size()));
    }
    static final int MAX_KERNELS = 100;
    /** Longest string shown (a kernel name, a command line): the page stays small whatever the capture. */
    static final int MAX_STRING = 4096;
    private static final double LABEL_W = 190;
    private static final double PLOT_W = 1000;

    /** The page of {@code report}, {@code data} its charts, {@code health} how its capture was read. */
    public static String render(Report report, PageData data, ReadStats health) {
        return render(report, data, health, null);
    }

    /** With the analyses of the whole input ({@code analyses}; null for a window or a request, which they do not cut). */
    public static String render(Report report, PageData data, ReadStats health, Analyses.Result analyses) {
        StringBuilder b = new StringBuilder(64 * 1024);
        String file = report.file() == null ? "capture" : report.file();
        b.append("<header><h1>vprof report: ").append(text(file)).append("</h1>\n<p class=\"meta\">");
        CaptureMetadata m = report.metadata();
        List<String> meta = new ArrayList<>();
        if (m != null) {
            meta.add("host " + m.host());
            meta.add("vprof " + m.vprofVersion());
            if (m.commandLine() != null && !m.commandLine().isEmpty()) {
                meta.add(clip(String.join(" ", m.commandLine()), MAX_STRING));
            }
        }
        if (report.window() != null && report.window().durationNs() > 0) {
            meta.add("window " + ReportFormat.instant(report.window().startNs()) + ", "
                    + ReportFormat.duration(report.window().durationNs()) + " (" + report.window().source() + ")");
        }
        b.append(text(String.join(" · ", meta))).append("</p></header>\n");
        verdict(b, report, health);
        timeline(b, report, data);
        requests(b, report);
        AnalysisSections.queue(b, report);
        kernels(b, report, data);
        steps(b, data);
        AnalysisSections.stepTable(b, report);
        if (analyses != null) {
            AnalysisSections.breakdown(b, analyses);
            AnalysisSections.ranks(b, analyses);
            AnalysisSections.launchQueue(b, analyses);
            AnalysisSections.summaries(b, analyses);
        }
        latency(b, report);
        processes(b, report);
        b.append("<footer class=\"note\"><p>Written by vprof from the capture alone: this file loads nothing "
                + "from the network.</p></footer>\n");
        return Html.page("vprof report: " + file, b.toString());
    }

    // ---- the verdict and the capture's health ----

    static void verdict(StringBuilder b, Report report, ReadStats stats) {
        List<ReadStats.Sentence> health = health(report, stats);
        boolean bad = stats.readPartly() || report.lostRecords()
                || health.stream().anyMatch(h -> h.severity() != ReadStats.Severity.INFO);
        Report.VerdictSummary v = report.verdict();
        String cls = v == null ? (bad ? "bad" : "ok") : ("healthy".equals(v.verdict()) && !bad ? "ok" : bad ? "bad" : "");
        b.append("<section id=\"verdict\" class=\"banner ").append(cls).append("\">\n");
        if (v != null) {
            b.append("<p class=\"verdict-title\">").append(text(v.title()));
            if (!v.title().equalsIgnoreCase(v.verdict())) {
                b.append(" <span class=\"verdict-key\">").append(text(v.verdict())).append("</span>");
            }
            b.append("</p>\n");
            if (!v.findings().isEmpty()) {
                b.append("<ul class=\"findings\">");
                for (Finding f : v.findings()) {
                    b.append("<li><b>").append(text(f.verdict().title())).append("</b>: ").append(text(f.summary()));
                    Html.list(b, "<ul>", f.evidence(), "</ul>");
                    Html.list(b, "<p class=\"next\">Next:</p><ul class=\"next\">", f.nextSteps(), "</ul>");
                    b.append("</li>");
                }
                b.append("</ul>\n");
            }
        } else {
            b.append("<p class=\"verdict-title\">No triage verdict</p>\n<p class=\"note\">The capture holds no "
                    + "metric scrapes over its window (run the capture with --metrics URL for the verdict).</p>\n");
        }
        Report.Totals t = report.totals();
        b.append("<div class=\"health\"><p><b>Capture health:</b> ")
                .append(stats.readPartly() ? "<span class=\"bad\">read only partly</span>"
                        : stats.live() ? "<span>live capture, still being written</span>"
                        : "<span class=\"ok\">file read whole</span>")
                .append(text(fmt(" · %d process%s, %d range%s, %d kernels · %d ring drops, %d CUPTI drops, "
                                + "%d without timestamps, %d invalid records kept off the timeline",
                        t.processes(), t.processes() == 1 ? "" : "es", t.ranges(), t.ranges() == 1 ? "" : "s",
                        t.kernels(), t.ringDrops(), t.cuptiDrops(), t.zeroTimestampKernels(), t.rejectedTotal())));
        if (t.unverifiedRecords() > 0) {
            b.append(text(fmt(" · %d records from a chunk cut short (unverified)", t.unverifiedRecords())));
        }
        b.append("</p>\n");
        if (!health.isEmpty()) {
            b.append("<ul>");
            int shown = 0;
            for (ReadStats.Sentence h : health) {
                if (shown++ == MAX_WARNINGS) {
                    b.append("<li>").append(health.size() - MAX_WARNINGS).append(" more (vprof report ")
                            .append(text(report.file())).append(" lists them)</li>");
                    break;
                }
                boolean loss = h.severity() != ReadStats.Severity.INFO;
                b.append("<li").append(loss ? " class=\"bad\"" : "").append(" data-severity=\"")
                        .append(h.severity().key()).append("\">").append(text(h.text())).append("</li>");
            }
            b.append("</ul>\n");
        }
        b.append("</div></section>\n");
    }

    /**
     * The health list, as data: the reader's sentences with their severities (the summary of a
     * capture read partly first), the report's own notes (info), lost records (data loss) and
     * missing ranks (info).
     */
    static List<ReadStats.Sentence> health(Report report, ReadStats stats) {
        List<ReadStats.Sentence> out = new ArrayList<>();
        if (stats.readPartly()) {
            out.add(new ReadStats.Sentence(ReadStats.Severity.DATA_LOSS, stats.summary()));
        }
        out.addAll(stats.sentences());
        Set<String> said = new HashSet<>(stats.texts());
        for (String w : report.warnings()) {
            if (said.add(w)) {
                out.add(new ReadStats.Sentence(ReadStats.Severity.INFO, w));
            }
        }
        for (String w : TextReport.dropWarnings(report)) {
            out.add(new ReadStats.Sentence(ReadStats.Severity.DATA_LOSS, w));
        }
        Integer world = null;
        Set<Integer> ranks = new TreeSet<>();
        for (Report.ProcessSummary p : report.processes()) {
            if (p.worldSize() != null) {
                world = world == null ? p.worldSize() : Math.max(world, p.worldSize());
            }
            if (p.rank() != null) {
                ranks.add(p.rank());
            }
        }
        if (world != null && ranks.size() < world) {
            List<Integer> missing = new ArrayList<>();
            for (int r = 0; r < world && missing.size() < 64; r++) {
                if (!ranks.contains(r)) {
                    missing.add(r);
                }
            }
            out.add(new ReadStats.Sentence(ReadStats.Severity.INFO,
                    fmt("%d of %d ranks are in this capture; missing: %s", ranks.size(), world, missing)));
        }
        return out;
    }

    // ---- the timeline ----

    static void timeline(StringBuilder b, Report report, PageData data) {
        b.append("<section id=\"timeline\"><h2>Timeline: GPU busy fraction, capture ranges, metrics</h2>\n");
        List<PageData.GpuLane> drawn = data.gpus().subList(0, Math.min(MAX_LANES, data.gpus().size()));
        int lanes = drawn.size() + data.metrics().size();
        if (lanes == 0) {
            b.append("<p class=\"note\">No kernels and no metrics in this capture: nothing to draw.</p></section>\n");
            return;
        }
        double laneH = 36;
        double gap = 8;
        double top = 6;
        double plotH = top + lanes * (laneH + gap);
        double axisH = 20;
        double width = LABEL_W + PLOT_W + 20;
        long span = data.toNs() - data.fromNs();
        b.append("<figure><div class=\"controls\"><button type=\"button\" id=\"tl-reset\">reset zoom</button> "
                + "drag across the chart to zoom · <span id=\"tl-range\"></span></div>\n");
        b.append("<svg class=\"chart timeline\" role=\"img\" aria-label=\"GPU busy fraction over time\" viewBox=\"0 0 ")
                .append(n(width)).append(' ').append(n(plotH + axisH)).append("\" data-span-ns=\"").append(span)
                .append("\" data-readout=\"tl-range\" data-reset=\"tl-reset\">\n");
        // Labels, outside the zoomed plot.
        int lane = 0;
        for (PageData.GpuLane g : drawn) {
            double y = top + lane++ * (laneH + gap);
            b.append("<text class=\"lane\" x=\"4\" y=\"").append(n(y + laneH / 2 + 4)).append("\">")
                    .append(text(g.label())).append("</text>");
        }
        for (PageData.MetricSeries s : data.metrics()) {
            double y = top + lane++ * (laneH + gap);
            double max = max(s.v());
            b.append("<text class=\"lane\" x=\"4\" y=\"").append(n(y + laneH / 2)).append("\">").append(text(s.name()))
                    .append("</text><text x=\"4\" y=\"").append(n(y + laneH / 2 + 13)).append("\">max ")
                    .append(text(metricValue(s, max))).append("</text>");
        }
        b.append('\n');
        // The plot: x in 0..1000 over [from, to); the script zooms it by its viewBox.
        b.append("<svg class=\"plot\" x=\"").append(n(LABEL_W)).append("\" y=\"0\" width=\"").append(n(PLOT_W))
                .append("\" height=\"").append(n(plotH)).append("\" viewBox=\"0 0 1000 ").append(n(plotH))
                .append("\" preserveAspectRatio=\"none\">\n");
        for (Report.RangeSummary r : shownRanges(report)) {
            if ("none".equals(r.source()) && r.index() == 0) {
                continue;
            }
            double x0 = x(r.startNs(), data);
            double x1 = x(r.endNs(), data);
            b.append("<rect class=\"rangeband mark\" x=\"").append(n(x0)).append("\" y=\"0\" width=\"")
                    .append(n(Math.max(0.5, x1 - x0))).append("\" height=\"").append(n(plotH)).append("\"><title>")
                    .append(text(fmt("pid %d range %d (%s): %s", r.pid(), r.index(), r.source(),
                            ReportFormat.duration(r.durationNs()))))
                    .append("</title></rect>\n");
        }
        lane = 0;
        for (PageData.GpuLane g : drawn) {
            double y = top + lane++ * (laneH + gap);
            double base = y + laneH;
            b.append("<line class=\"grid\" x1=\"0\" x2=\"1000\" y1=\"").append(n(base)).append("\" y2=\"").append(n(base))
                    .append("\" vector-effect=\"non-scaling-stroke\"/>");
            StringBuilder d = new StringBuilder(g.busy().length * 16);
            d.append("M0 ").append(n(base));
            double[] f = g.busy();
            for (int i = 0; i < f.length; i++) {
                double yy = base - f[i] * laneH;
                d.append('L').append(n(1000.0 * i / f.length)).append(' ').append(n(yy))
                        .append('L').append(n(1000.0 * (i + 1) / f.length)).append(' ').append(n(yy));
            }
            d.append("L1000 ").append(n(base)).append('Z');
            b.append("<path class=\"busy mark\" d=\"").append(d).append("\"/>\n");
        }
        for (PageData.MetricSeries s : data.metrics()) {
            double y = top + lane++ * (laneH + gap);
            double base = y + laneH;
            double max = Math.max(max(s.v()), 1e-12);
            b.append("<line class=\"grid\" x1=\"0\" x2=\"1000\" y1=\"").append(n(base)).append("\" y2=\"").append(n(base))
                    .append("\" vector-effect=\"non-scaling-stroke\"/>");
            StringBuilder d = new StringBuilder(s.t().length * 16);
            boolean pen = false;
            for (int i = 0; i < s.t().length; i++) {
                if (!Double.isFinite(s.v()[i])) {
                    pen = false;
                    continue;
                }
                double xx = Math.clamp(x(s.t()[i], data), 0, 1000);
                double yy = base - s.v()[i] / max * laneH;
                d.append(pen ? 'L' : 'M').append(n(xx)).append(' ').append(n(yy));
                pen = true;
            }
            if (d.isEmpty()) {
                d.append("M0 ").append(n(base));
            }
            b.append("<path class=\"metric mark\" vector-effect=\"non-scaling-stroke\" d=\"").append(d).append("\"/>\n");
        }
        b.append("</svg>\n");
        b.append("<rect class=\"hit\" x=\"").append(n(LABEL_W)).append("\" y=\"0\" width=\"").append(n(PLOT_W))
                .append("\" height=\"").append(n(plotH)).append("\" fill=\"transparent\"/>");
        b.append("<rect class=\"sel\" x=\"").append(n(LABEL_W)).append("\" y=\"0\" width=\"0\" height=\"")
                .append(n(plotH)).append("\"/>\n");
        int ticks = 6;
        for (int i = 0; i < ticks; i++) {
            double x = LABEL_W + PLOT_W * i / (ticks - 1);
            String anchor = i == 0 ? "start" : i == ticks - 1 ? "end" : "middle";
            b.append("<text class=\"tick\" x=\"").append(n(x)).append("\" y=\"").append(n(plotH + 14))
                    .append("\" text-anchor=\"").append(anchor).append("\">+")
                    .append(text(ReportFormat.duration(span * i / (ticks - 1)))).append("</text>");
        }
        b.append("\n</svg>\n<p class=\"legend note\"><span><i class=\"busy\"></i>GPU busy fraction (union of its "
                + "kernels per bin)</span><span><i class=\"rangeband\"></i>capture range</span><span><i "
                + "class=\"metric\"></i>metric gauge (scaled to its max)</span> · time from ")
                .append(text(ReportFormat.instant(data.fromNs())));
        if (drawn.size() < data.gpus().size()) {
            b.append(" · the first ").append(drawn.size()).append(" of ").append(data.gpus().size())
                    .append(" GPU lanes drawn");
        }
        b.append("</p></figure>\n");
        // The numbers.
        b.append("<table class=\"sortable\" id=\"timeline-numbers\"><thead><tr><th data-sort=\"t\">lane</th>"
                + "<th class=\"n\" data-sort=\"n\">mean busy</th><th class=\"n\" data-sort=\"n\">peak bin</th>"
                + "<th class=\"n\" data-sort=\"n\">busy outside the span</th><th class=\"n\">bin width</th></tr></thead><tbody>");
        for (PageData.GpuLane g : firstRows(data.gpus())) {
            double mean = mean(g.busy());
            double peak = max(g.busy());
            b.append("<tr><td>").append(text(g.label())).append("</td><td class=\"n\" data-v=\"").append(mean)
                    .append("\">").append(fmt("%.1f%%", 100 * mean)).append("</td><td class=\"n\" data-v=\"")
                    .append(peak).append("\">").append(fmt("%.1f%%", 100 * peak)).append("</td><td class=\"n\" data-v=\"")
                    .append(g.outsideNs()).append("\">").append(text(ReportFormat.duration(g.outsideNs())))
                    .append("</td><td class=\"n\">").append(text(ReportFormat.duration(span / Math.max(1, g.busy().length))))
                    .append("</td></tr>");
        }
        for (PageData.MetricSeries s : data.metrics()) {
            b.append("<tr><td>").append(text(s.name())).append("</td><td class=\"n\" data-v=\"").append(mean(s.v()))
                    .append("\">").append(text(metricValue(s, mean(s.v())))).append("</td><td class=\"n\" data-v=\"")
                    .append(max(s.v())).append("\">").append(text(metricValue(s, max(s.v()))))
                    .append("</td><td class=\"n\">-</td><td class=\"n\">").append(s.t().length).append(" scrapes</td></tr>");
        }
        b.append("</tbody></table>\n");
        b.append("<table><thead><tr><th>range</th><th>source</th><th class=\"n\">start</th><th class=\"n\">duration"
                + "</th><th class=\"n\">kernels</th><th>GPU busy</th></tr></thead><tbody>");
        for (Report.RangeSummary r : shownRanges(report)) {
            List<String> busy = new ArrayList<>();
            for (Report.DeviceBusy d : r.devices()) {
                busy.add(fmt("GPU %d %.1f%%%s", d.device(), d.busyPercent(), d.approximate() ? " (approx.)" : ""));
            }
            b.append("<tr><td>").append(text(fmt("pid %d #%d", r.pid(), r.index()))).append("</td><td>")
                    .append(text(r.source())).append("</td><td class=\"n\">+")
                    .append(text(ReportFormat.duration(Math.max(0, r.startNs() - data.fromNs()))))
                    .append("</td><td class=\"n\">").append(text(ReportFormat.duration(r.durationNs())))
                    .append("</td><td class=\"n\">").append(r.kernels()).append("</td><td>")
                    .append(text(String.join(", ", busy))).append("</td></tr>");
        }
        b.append("</tbody></table></section>\n");
    }

    private static List<Report.RangeSummary> shownRanges(Report report) {
        return firstRows(report.ranges());
    }

    private static String metricValue(PageData.MetricSeries s, double v) {
        return "fraction".equals(s.unit()) ? fmt("%.1f%%", 100 * v) : fmt("%.2f", v);
    }

    private static double x(long t, PageData data) {
        return 1000.0 * (t - data.fromNs()) / Math.max(1, data.toNs() - data.fromNs());
    }

    // ---- requests ----

    static void requests(StringBuilder b, Report report) {
        b.append("<section id=\"requests\"><h2>Slowest requests</h2>\n");
        List<Report.RequestSummary> rows = report.slowestRequests().stream().limit(WATERFALL_ROWS).toList();
        if (rows.isEmpty()) {
            b.append("<p class=\"note\">").append(report.spans() == null
                    ? "The capture holds no request spans (capture with --otlp to see each request's phases)."
                    : "No llm_request span ended inside the capture window.").append("</p></section>\n");
            return;
        }
        long maxE2e = 1;
        for (Report.RequestSummary r : rows) {
            maxE2e = Math.max(maxE2e, r.e2eNs());
        }
        double rowH = 18;
        double labelW = 220;
        double barW = 760;
        double textW = 240;
        double h = rows.size() * rowH + 6;
        b.append("<figure><svg class=\"chart waterfall\" role=\"img\" aria-label=\"request phases\" viewBox=\"0 0 ")
                .append(n(labelW + barW + textW)).append(' ').append(n(h)).append("\">\n");
        int i = 0;
        for (Report.RequestSummary r : rows) {
            double y = 3 + i++ * rowH;
            String id = r.requestId() != null ? r.requestId() : r.traceId();
            b.append("<text class=\"lane\" x=\"4\" y=\"").append(n(y + 12)).append("\">").append(text(clip(id, 34)))
                    .append("</text>");
            long before = before(r);
            double x = labelW;
            long[] parts = {before, r.queueNs(), r.prefillNs(), r.decodeNs()};
            String[] cls = {"q-before", "q-queue", "q-prefill", "q-decode"};
            String[] what = {"before the engine", "queue", "prefill", "decode"};
            long[] gpu = {0, r.gpuNsInQueue(), r.gpuNsInPrefill(), r.gpuNsInDecode()};
            for (int p = 0; p < parts.length; p++) {
                double w = barW * parts[p] / maxE2e;
                if (parts[p] > 0) {
                    b.append("<rect class=\"").append(cls[p]).append(" mark\" x=\"").append(n(x)).append("\" y=\"")
                            .append(n(y + 2)).append("\" width=\"").append(n(Math.max(0.5, w))).append("\" height=\"")
                            .append(n(rowH - 5)).append("\"><title>").append(text(what[p] + " "
                                    + ReportFormat.duration(parts[p]) + (p == 0 ? "" : ", GPU busy "
                                    + ReportFormat.duration(gpu[p])))).append("</title></rect>");
                }
                x += w;
            }
            b.append("<text x=\"").append(n(labelW + barW + 6)).append("\" y=\"").append(n(y + 12)).append("\">")
                    .append(text(ReportFormat.duration(r.e2eNs()) + " · GPU "
                            + ReportFormat.duration(r.gpuNsInQueue() + r.gpuNsInPrefill() + r.gpuNsInDecode())))
                    .append("</text>\n");
        }
        b.append("</svg>\n<p class=\"legend note\"><span><i class=\"q-before\"></i>before the engine</span><span><i "
                + "class=\"q-queue\"></i>queue</span><span><i class=\"q-prefill\"></i>prefill</span><span><i "
                + "class=\"q-decode\"></i>decode</span> · bars to scale, the slowest first; GPU: the GPU busy time "
                + "(all devices) during the request's phases</p></figure>\n");
        b.append("<table class=\"sortable\" id=\"request-numbers\"><thead><tr><th data-sort=\"t\">request</th>"
                + "<th class=\"n\" data-sort=\"n\">e2e</th><th class=\"n\" data-sort=\"n\">before engine</th>"
                + "<th class=\"n\" data-sort=\"n\">queue (GPU)</th><th class=\"n\" data-sort=\"n\">prefill (GPU)</th>"
                + "<th class=\"n\" data-sort=\"n\">decode (GPU)</th><th data-sort=\"t\">dominant</th><th>notes</th>"
                + "</tr></thead><tbody>");
        for (Report.RequestSummary r : rows) {
            String id = r.requestId() != null ? r.requestId() : r.traceId();
            b.append("<tr><td class=\"name\">").append(text(id)).append("</td>");
            cell(b, r.e2eNs(), ReportFormat.duration(r.e2eNs()));
            cell(b, before(r), ReportFormat.duration(before(r)));
            cell(b, r.queueNs(), pair(r.queueNs(), r.gpuNsInQueue()));
            cell(b, r.prefillNs(), pair(r.prefillNs(), r.gpuNsInPrefill()));
            cell(b, r.decodeNs(), pair(r.decodeNs(), r.gpuNsInDecode()));
            List<String> notes = new ArrayList<>(r.anomalies());
            if (!r.inWindow()) {
                notes.addFirst("outside the capture window");
            }
            b.append("<td>").append(text(r.dominantPhase())).append("</td><td>")
                    .append(text(String.join(", ", notes))).append("</td></tr>");
        }
        b.append("</tbody></table></section>\n");
    }

    private static long before(Report.RequestSummary r) {
        return Math.max(0, r.e2eNs() - r.queueNs() - r.prefillNs() - r.decodeNs());
    }

    private static String pair(long ns, long gpu) {
        return ReportFormat.duration(ns) + " (" + ReportFormat.duration(gpu) + ")";
    }

    private static void cell(StringBuilder b, long v, String shown) {
        b.append("<td class=\"n\" data-v=\"").append(v).append("\">").append(text(shown)).append("</td>");
    }

    static String clip(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    // ---- kernels ----

    static void kernels(StringBuilder b, Report report, PageData data) {
        b.append("<section id=\"kernels\"><h2>Top kernels by total time</h2>\n");
        if (report.topKernels().isEmpty()) {
            b.append("<p class=\"note\">No kernels in this capture.</p></section>\n");
            return;
        }
        long all = report.totals().kernels();
        b.append("<table class=\"sortable\" id=\"kernel-table\"><thead><tr><th data-sort=\"t\">kernel</th>"
                + "<th class=\"n\" data-sort=\"n\">count</th><th class=\"n\" data-sort=\"n\">total</th>"
                + "<th class=\"n\" data-sort=\"n\">mean</th><th class=\"n\" data-sort=\"n\">p50</th>"
                + "<th class=\"n\" data-sort=\"n\">p99</th><th class=\"n\" data-sort=\"n\">max</th>"
                + "<th>durations (log scale, min to max)</th></tr></thead><tbody>\n");
        int shown = Math.min(MAX_KERNELS, report.topKernels().size());
        for (int i = 0; i < shown; i++) {
            Report.KernelSummary k = report.topKernels().get(i);
            b.append("<tr>").append(AnalysisSections.nameCell(k.name()));
            cell(b, k.count(), Long.toString(k.count()));
            cell(b, k.totalNs(), ReportFormat.duration(k.totalNs()));
            cell(b, k.meanNs(), ReportFormat.duration(k.meanNs()));
            cell(b, k.p50Ns(), ReportFormat.duration(k.p50Ns()) + (k.percentilesExact() ? "" : " ±0.4%"));
            cell(b, k.p99Ns(), ReportFormat.duration(k.p99Ns()) + (k.percentilesExact() ? "" : " ±0.4%"));
            cell(b, k.maxNs(), ReportFormat.duration(k.maxNs()));
            b.append("<td>");
            if (i < data.kernels().size()) {
                histogram(b, data.kernels().get(i));
            }
            b.append("</td></tr>\n");
        }
        b.append("</tbody></table>\n<p class=\"note\">");
        if (shown < report.topKernels().size()) {
            b.append("The first ").append(shown).append(" of ").append(report.topKernels().size()).append(" rows. ");
        }
        b.append(all).append(" kernels in all; percentiles exact up to "
                + "1024 kernels of a name, within 0.4% beyond.</p></section>\n");
    }

    private static void histogram(StringBuilder b, PageData.KernelHistogram h) {
        long[] c = h.counts();
        long max = 1;
        for (long v : c) {
            max = Math.max(max, v);
        }
        b.append("<svg class=\"chart mini\" viewBox=\"0 0 160 28\" preserveAspectRatio=\"none\" role=\"img\" "
                + "aria-label=\"duration distribution\">");
        double w = 160.0 / c.length;
        for (int i = 0; i < c.length; i++) {
            if (c[i] == 0) {
                continue;
            }
            // Square-root height, so a bin of a few kernels beside one of millions still shows.
            double bh = Math.max(1, 27 * Math.sqrt((double) c[i] / max));
            b.append("<rect class=\"hist mark\" x=\"").append(n(i * w)).append("\" y=\"").append(n(28 - bh))
                    .append("\" width=\"").append(n(Math.max(0.8, w - 0.6))).append("\" height=\"").append(n(bh))
                    .append("\"><title>").append(text(fmt("%s to %s: %d", ReportFormat.duration((long) h.edge(i)),
                            ReportFormat.duration((long) h.edge(i + 1)), c[i]))).append("</title></rect>");
        }
        b.append("</svg>");
    }

    // ---- steps ----

    static void steps(StringBuilder b, PageData data) {
        b.append("<section id=\"steps\"><h2>Time per step (NVTX ranges)</h2>\n");
        if (data.steps().isEmpty()) {
            b.append("<p class=\"note\">No NVTX ranges in this capture (record them with --kinds including nvtx, "
                    + "around each step).</p></section>\n");
            return;
        }
        PageData.StepSeries s = data.steps().getFirst();
        if (!s.step()) {
            b.append("<p class=\"note\">No step ranges (NVTX \"step\" or PyTorch's ProfilerStep#N) in this capture: "
                    + "the most frequent NVTX ranges instead.</p>\n");
        }
        long[] d = s.firstDurationsNs();
        long max = 1;
        for (long v : d) {
            max = Math.max(max, v);
        }
        double w = 1000.0 / Math.max(1, d.length);
        b.append("<figure><svg class=\"chart steps\" role=\"img\" aria-label=\"step durations\" viewBox=\"0 0 1000 120\" "
                + "preserveAspectRatio=\"none\">");
        for (int i = 0; i < d.length; i++) {
            double h = Math.max(1, 118.0 * d[i] / max);
            b.append("<rect class=\"step mark\" x=\"").append(n(i * w)).append("\" y=\"").append(n(120 - h))
                    .append("\" width=\"").append(n(Math.max(0.5, w * 0.85))).append("\" height=\"").append(n(h))
                    .append("\"><title>").append(text(fmt("#%d: %s", i + 1, ReportFormat.duration(d[i]))))
                    .append("</title></rect>");
        }
        b.append("</svg><p class=\"note\">").append(text(fmt("the first %d \"%s\" ranges in %s; the "
                + "tallest is %s", d.length, s.name(), s.step() ? "order of start" : "record order",
                ReportFormat.duration(max)))).append("</p></figure>\n");
        b.append("<table class=\"sortable\" id=\"step-table\"><thead><tr><th data-sort=\"t\">range name</th>"
                + "<th class=\"n\" data-sort=\"n\">count</th><th class=\"n\" data-sort=\"n\">total</th>"
                + "<th class=\"n\" data-sort=\"n\">mean</th></tr></thead><tbody>");
        for (PageData.StepSeries x : data.steps()) {
            b.append("<tr><td class=\"name\">").append(text(x.name())).append("</td>");
            cell(b, x.count(), Long.toString(x.count()));
            cell(b, x.totalNs(), ReportFormat.duration(x.totalNs()));
            long mean = x.count() == 0 ? 0 : x.totalNs() / x.count();
            cell(b, mean, ReportFormat.duration(mean));
            b.append("</tr>");
        }
        b.append("</tbody></table></section>\n");
    }

    // ---- latency and metrics ----

    static void latency(StringBuilder b, Report report) {
        Report.LatencySection l = report.latency();
        Report.MetricsSummary m = report.metrics();
        if (l == null && m == null) {
            return;
        }
        b.append("<section id=\"latency\"><h2>Requests over the capture window</h2>\n");
        if (l != null) {
            b.append("<p class=\"note\">").append(text(l.note())).append("</p>");
            b.append("<table><thead><tr><th>latency</th><th>source</th><th class=\"n\">count</th><th class=\"n\">mean"
                    + "</th><th class=\"n\">p50</th><th class=\"n\">p99</th><th class=\"n\">max</th></tr></thead><tbody>");
            String[] names = {"TTFT", "queue", "prefill", "decode", "e2e", "inter-token"};
            Report.LatencySummary[] all = {l.ttft(), l.queue(), l.prefill(), l.decode(), l.e2e(), l.interToken()};
            for (int i = 0; i < names.length; i++) {
                Report.LatencySummary s = all[i];
                if (s == null) {
                    continue;
                }
                b.append("<tr><td>").append(names[i]).append("</td><td>").append(text(s.source())).append("</td><td class=\"n\">")
                        .append(s.count() == null ? "-" : fmt("%.0f", s.count())).append("</td><td class=\"n\">")
                        .append(s.meanS() == null ? "-" : text(ReportFormat.duration(Math.round(s.meanS() * 1e9))))
                        .append("</td><td class=\"n\">").append(text(ReportFormat.quantile(s.p50())))
                        .append("</td><td class=\"n\">").append(text(ReportFormat.quantile(s.p99())))
                        .append("</td><td class=\"n\">").append(text(ReportFormat.quantile(s.max()))).append("</td></tr>");
            }
            b.append("</tbody></table>\n");
        }
        if (m != null) {
            b.append("<table><tbody>");
            row(b, "scrapes", Long.toString(m.scrapes()));
            row(b, "requests finished", num(m.requests(), "%.0f"));
            row(b, "queue depth mean / max", num(m.queueDepthMean(), "%.2f") + " / " + num(m.queueDepthMax(), "%.0f"));
            row(b, "running requests mean", num(m.runningMean(), "%.2f"));
            row(b, "KV-cache use max", m.kvCacheUsageMax() == null ? "-" : fmt("%.1f%%", 100 * m.kvCacheUsageMax()));
            row(b, "preemptions / aborts", num(m.preemptions(), "%.0f") + " / " + num(m.aborts(), "%.0f"));
            row(b, "prompt / generation tokens per s", num(m.promptTokensPerS(), "%.1f") + " / "
                    + num(m.generationTokensPerS(), "%.1f"));
            for (Report.MetricGap g : m.gaps()) {
                row(b, "no metrics", "+" + ReportFormat.duration(Math.max(0, g.startNs() - report.window().startNs()))
                        + " for " + ReportFormat.duration(g.endNs() - g.startNs()) + ": " + g.error());
            }
            b.append("</tbody></table>\n");
        }
        b.append("</section>\n");
    }

    private static String num(Double v, String f) {
        return v == null ? "-" : fmt(f, v);
    }

    private static void row(StringBuilder b, String k, String v) {
        b.append("<tr><th>").append(text(k)).append("</th><td>").append(text(v)).append("</td></tr>");
    }

    // ---- processes and devices ----

    static void processes(StringBuilder b, Report report) {
        b.append("<section id=\"processes\"><h2>Processes and devices</h2>\n<table class=\"sortable\" id=\"process-table\">"
                + "<thead><tr><th class=\"n\" data-sort=\"n\">pid</th><th data-sort=\"t\">command</th><th>rank</th>"
                + "<th class=\"n\" data-sort=\"n\">kernels</th><th class=\"n\" data-sort=\"n\">memcpy</th>"
                + "<th>GPU busy</th><th class=\"n\" data-sort=\"n\">drops</th><th>clock fit</th></tr></thead><tbody>");
        List<DeviceProperties> devices = new ArrayList<>();
        for (Report.ProcessSummary p : firstRows(report.processes())) {
            List<String> busy = new ArrayList<>();
            for (Map.Entry<String, Long> e : p.busyNsByDevice().entrySet()) {
                busy.add(("-1".equals(e.getKey()) ? "unknown" : "GPU " + e.getKey()) + " "
                        + ReportFormat.duration(e.getValue()));
            }
            long drops = p.ringDrops() + p.cuptiDrops() + p.zeroTimestampKernels();
            b.append("<tr>");
            cell(b, p.pid(), Integer.toString(p.pid()));
            b.append("<td class=\"name\">").append(text(clip(p.command(), MAX_STRING))).append("</td><td>")
                    .append(p.rank() == null ? "-" : text(p.rank() + (p.worldSize() == null ? "" : " of " + p.worldSize())))
                    .append("</td>");
            cell(b, p.kernels(), Long.toString(p.kernels()));
            cell(b, p.memcpyBytes(), p.memcpys() + " (" + ReportFormat.bytes(p.memcpyBytes()) + ")");
            b.append("<td>").append(text(String.join(", ", busy))).append("</td>");
            cell(b, drops, Long.toString(drops));
            b.append("<td>").append(text(fmt("%d pairs, drift %.2f ppm, residual max %s", p.clock().pairs(),
                    p.clock().driftPpm(), ReportFormat.duration(p.clock().residualMaxNs())))).append("</td></tr>");
            devices.addAll(p.devices());
        }
        b.append("</tbody></table>\n");
        if (!devices.isEmpty()) {
            b.append("<table><thead><tr><th class=\"n\">device</th><th>name</th><th class=\"n\">SMs</th><th class=\"n\">"
                    + "compute</th><th class=\"n\">memory</th><th>uuid</th></tr></thead><tbody>");
            for (DeviceProperties d : firstRows(devices)) {
                b.append("<tr><td class=\"n\">").append(d.id()).append("</td><td>").append(text(d.name()))
                        .append("</td><td class=\"n\">").append(d.smCount()).append("</td><td class=\"n\">")
                        .append(d.computeMajor()).append('.').append(d.computeMinor()).append("</td><td class=\"n\">")
                        .append(text(ReportFormat.bytes(d.globalMemoryBytes()))).append("</td><td class=\"name\">")
                        .append(text(d.uuid())).append("</td></tr>");
            }
            b.append("</tbody></table>\n");
        }
        b.append("</section>\n");
    }

    private static double max(double[] v) {
        double m = 0;
        for (double d : v) {
            if (Double.isFinite(d)) {
                m = Math.max(m, d);
            }
        }
        return m;
    }

    private static double mean(double[] v) {
        double s = 0;
        int n = 0;
        for (double d : v) {
            if (Double.isFinite(d)) {
                s += d;
                n++;
            }
        }
        return n == 0 ? 0 : s / n;
    }
}
