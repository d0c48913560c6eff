package dev.vprof.html;

import static dev.vprof.html.Html.fmt;
import static dev.vprof.html.Html.text;

import dev.vprof.analysis.Analyses;
import dev.vprof.analysis.LaunchQueue;
import dev.vprof.analysis.PhaseBreakdown;
import dev.vprof.analysis.RankImbalance;
import dev.vprof.analysis.Stragglers;
import dev.vprof.analysis.Summaries;
import dev.vprof.analysis.SummaryStats;
import dev.vprof.analysis.TemporalBreakdown;
import dev.vprof.report.Report;
import dev.vprof.report.ReportFormat;
import java.util.List;

/**
 * The page's share of what the text report and {@code report --section} say beyond the charts: the
 * queue facts, the kernels inside the slowest requests' phases, the temporal breakdown (per rank and
 * GPU, per step, per request phase), the ranks' imbalance and stragglers, the launch queue and the
 * nsys-style summaries. Tables only, bounded in rows; long
 * names shortened with the full name on hover.
 */
final class AnalysisSections {
    private AnalysisSections() {}

    /** Rows a summary table shows on the page. */
    static final int SUMMARY_ROWS = 20;
    /** Characters of a name shown before it is shortened (the full name is its title). */
    static final int NAME_CHARS = 90;

    /** A name cell: at most {@value #NAME_CHARS} characters shown, the whole name (bounded) on hover. */
    static String nameCell(String name) {
        String full = CapturePage.clip(name, CapturePage.MAX_STRING);
        String shown = CapturePage.clip(full, NAME_CHARS);
        return "<td class=\"name\"" + (shown.equals(full) ? "" : " title=\"" + text(full) + "\"") + ">" + text(shown)
                + "</td>";
    }

    static void queue(StringBuilder b, Report report) {
        Report.QueueFacts q = report.queue();
        Report.SlowPhaseKernels s = report.slowPhaseKernels();
        if (q == null && s == null) {
            return;
        }
        b.append("<section id=\"queue\"><h2>Queue and the slowest requests' phases</h2>\n");
        if (q != null) {
            b.append("<p id=\"queue-facts\">").append(text(fmt("Requests queued for %s in all; the GPU was busy %s of "
                    + "that time%s. At most %d requests waited at once and %d were in the model at once (spans).",
                    ReportFormat.duration(q.queuedNs()), ReportFormat.duration(q.gpuBusyNsWhileQueued()),
                    q.gpuBusyFractionWhileQueued() == null ? ""
                            : fmt(" (%.1f%%)", 100 * q.gpuBusyFractionWhileQueued()),
                    q.waitingMax(), q.inModelMax()))).append("</p>\n");
        }
        if (s != null) {
            phaseKernels(b, "prefill", s.prefill(), s, s.prefillWindowNs());
            phaseKernels(b, "decode", s.decode(), s, s.decodeWindowNs());
        }
        b.append("</section>\n");
    }

    private static void phaseKernels(StringBuilder b, String phase, List<Report.PhaseKernel> rows,
                                     Report.SlowPhaseKernels s, long windowNs) {
        b.append("<h3>").append(text(fmt("Top kernels in the %s of the slowest %d request%s (%.0f%% by %s; %s of "
                + "windows)", phase, s.requests(), s.requests() == 1 ? "" : "s", s.percent(), s.rankedBy(),
                ReportFormat.duration(windowNs)))).append("</h3>\n");
        if (rows.isEmpty()) {
            b.append("<p class=\"note\">No kernel ran inside these windows.</p>\n");
            return;
        }
        b.append("<table class=\"sortable\" id=\"slow-").append(phase).append("\"><thead><tr><th data-sort=\"t\">kernel"
                + "</th><th class=\"n\" data-sort=\"n\">kernels</th><th class=\"n\" data-sort=\"n\">GPU time inside"
                + "</th></tr></thead><tbody>\n");
        for (Report.PhaseKernel k : rows) {
            b.append("<tr>").append(nameCell(k.name())).append("<td class=\"n\">").append(k.kernels())
                    .append("</td><td class=\"n\" data-v=\"").append(k.gpuNsInside()).append("\">")
                    .append(text(ReportFormat.duration(k.gpuNsInside()))).append("</td></tr>\n");
        }
        b.append("</tbody></table>\n");
    }

    /** The report's step table (the one step rule), each step named as its source names it. */
    static void stepTable(StringBuilder b, Report report) {
        Report.StepTable t = report.steps();
        if (t == null || t.rows().isEmpty()) {
            return;
        }
        b.append("<section id=\"step-rows\"><h2>Steps</h2>\n<p class=\"note\">").append(text(fmt("%d steps (%s), "
                + "%s in all; %d kernels outside any step.", t.count(), t.rule(), ReportFormat.duration(t.durationNs()),
                t.outside() == null ? 0 : t.outside().kernels()))).append("</p>\n");
        b.append("<table class=\"sortable\" id=\"step-rows-table\"><thead><tr><th data-sort=\"t\">step</th>"
                + "<th class=\"n\" data-sort=\"n\">duration</th><th class=\"n\" data-sort=\"n\">kernels</th>"
                + "<th class=\"n\" data-sort=\"n\">GPU time</th><th class=\"n\" data-sort=\"n\">GPU busy</th>"
                + "</tr></thead><tbody>\n");
        for (Report.StepSummary x : CapturePage.firstRows(t.rows())) {
            b.append("<tr>").append(nameCell(x.name()));
            b.append("<td class=\"n\" data-v=\"").append(x.durationNs()).append("\">")
                    .append(text(ReportFormat.duration(x.durationNs()))).append("</td><td class=\"n\">")
                    .append(x.kernels()).append("</td><td class=\"n\" data-v=\"").append(x.gpuNs()).append("\">")
                    .append(text(ReportFormat.duration(x.gpuNs()))).append("</td><td class=\"n\" data-v=\"")
                    .append(x.gpuBusyNs()).append("\">").append(text(ReportFormat.duration(x.gpuBusyNs())))
                    .append("</td></tr>\n");
        }
        b.append("</tbody></table></section>\n");
    }

    static void breakdown(StringBuilder b, Analyses.Result r) {
        b.append("<section id=\"breakdown\"><h2>Where the GPU's time went</h2>\n<p class=\"note\">Compute, "
                + "communication (NCCL and other collectives) not under compute, memory copies and sets under "
                + "neither, idle: they add up to the span from the GPU's first work to its last. Overlap: compute "
                + "and communication at once.</p>\n");
        b.append("<table class=\"sortable\" id=\"breakdown-table\"><thead><tr><th data-sort=\"t\">rank</th>"
                + "<th class=\"n\" data-sort=\"n\">GPU</th><th data-sort=\"t\">step</th>"
                + "<th class=\"n\" data-sort=\"n\">span</th><th class=\"n\" data-sort=\"n\">idle</th>"
                + "<th class=\"n\" data-sort=\"n\">compute</th><th class=\"n\" data-sort=\"n\">communication</th>"
                + "<th class=\"n\" data-sort=\"n\">memory</th><th class=\"n\" data-sort=\"n\">overlap</th>"
                + "</tr></thead><tbody>\n");
        for (TemporalBreakdown.Row row : CapturePage.firstRows(r.breakdown())) {
            String step = row.step() == TemporalBreakdown.WHOLE ? "capture" : r.steps().name(row.step());
            b.append("<tr><td>").append(text(r.rankOf(row.pid()))).append("</td><td class=\"n\">").append(row.device())
                    .append("</td><td>").append(text(step)).append("</td>");
            figures(b, row, true);
            b.append("</tr>\n");
        }
        b.append("</tbody></table>\n");
        if (r.breakdown().size() > CapturePage.MAX_ROWS) {
            b.append("<p class=\"note\">The first ").append(CapturePage.MAX_ROWS).append(" of ")
                    .append(r.breakdown().size()).append(" rows (vprof report --section breakdown lists more).</p>\n");
        }
        if (!r.phases().isEmpty()) {
            b.append("<h3>Inside request phases (slowest ").append(text(fmt("%.0f", PhaseBreakdown.SLOW_PERCENT)))
                    .append("% of requests by end-to-end time, and the rest)</h3>\n");
            b.append("<table class=\"sortable\" id=\"phase-table\"><thead><tr><th data-sort=\"t\">phase</th>"
                    + "<th class=\"n\" data-sort=\"n\">requests</th><th data-sort=\"t\">rank</th>"
                    + "<th class=\"n\" data-sort=\"n\">GPU</th><th class=\"n\" data-sort=\"n\">length</th>"
                    + "<th class=\"n\" data-sort=\"n\">idle</th><th class=\"n\" data-sort=\"n\">compute</th>"
                    + "<th class=\"n\" data-sort=\"n\">communication</th><th class=\"n\" data-sort=\"n\">memory</th>"
                    + "</tr></thead><tbody>\n");
            for (PhaseBreakdown.Row p : r.phases()) {
                TemporalBreakdown.Row row = p.figures();
                b.append("<tr><td>").append(text(p.phase())).append("</td><td class=\"n\">").append(p.requests())
                        .append("</td><td>").append(text(r.rankOf(row.pid()))).append("</td><td class=\"n\">")
                        .append(row.device()).append("</td>");
                figures(b, row, false);
                b.append("</tr>\n");
            }
            b.append("</tbody></table>\n");
        }
        b.append("</section>\n");
    }

    /** Rank imbalance per step and stragglers at collectives; nothing for a single process. */
    static void ranks(StringBuilder b, Analyses.Result r) {
        List<RankImbalance.Row> steps = RankImbalance.of(r);
        if (steps.isEmpty() && r.stragglers().isEmpty()) {
            return;
        }
        b.append("<section id=\"ranks\"><h2>Across ranks</h2>\n");
        if (!steps.isEmpty()) {
            b.append("<h3>Rank imbalance per step (GPU span in the step; differences: slowest minus fastest)</h3>\n"
                    + "<table class=\"sortable\" id=\"ranks-table\"><thead><tr><th data-sort=\"t\">step</th>"
                    + "<th class=\"n\" data-sort=\"n\">ranks</th><th data-sort=\"t\">slowest</th>"
                    + "<th class=\"n\" data-sort=\"n\">its span</th><th data-sort=\"t\">fastest</th>"
                    + "<th class=\"n\" data-sort=\"n\">its span</th><th class=\"n\" data-sort=\"n\">spread</th>"
                    + "<th class=\"n\" data-sort=\"n\">compute difference</th>"
                    + "<th class=\"n\" data-sort=\"n\">communication difference</th>"
                    + "<th class=\"n\" data-sort=\"n\">idle difference</th></tr></thead><tbody>\n");
            List<RankImbalance.Row> shown = CapturePage.firstRows(steps);
            for (RankImbalance.Row x : shown) {
                b.append("<tr>").append(nameCell(x.step())).append("<td class=\"n\">").append(x.ranks())
                        .append("</td><td>").append(text(r.rankOf(x.slowestPid()))).append("</td>");
                duration(b, x.slowestSpanNs());
                b.append("<td>").append(text(r.rankOf(x.fastestPid()))).append("</td>");
                duration(b, x.fastestSpanNs());
                duration(b, x.spreadNs());
                difference(b, x.computeDeltaNs());
                difference(b, x.communicationDeltaNs());
                difference(b, x.idleDeltaNs());
                b.append("</tr>\n");
            }
            b.append("</tbody></table>\n");
            cut(b, shown.size(), steps.size(), "ranks");
        }
        if (!r.stragglers().isEmpty()) {
            b.append("<h3>Stragglers at collectives (the n-th collective of each rank matched; late: after the first "
                    + "rank to start it)</h3>\n<table class=\"sortable\" id=\"stragglers-table\"><thead><tr>"
                    + "<th data-sort=\"t\">rank</th><th class=\"n\" data-sort=\"n\">collectives matched</th>"
                    + "<th class=\"n\" data-sort=\"n\">started last</th><th class=\"n\" data-sort=\"n\">late in all</th>"
                    + "<th class=\"n\" data-sort=\"n\">late at most</th></tr></thead><tbody>\n");
            List<Stragglers.Row> shown = CapturePage.firstRows(r.stragglers());
            for (Stragglers.Row x : shown) {
                b.append("<tr><td>").append(text(r.rankOf(x.pid()))).append("</td><td class=\"n\">")
                        .append(x.matched()).append("</td><td class=\"n\">").append(x.last()).append("</td>");
                duration(b, x.lateTotalNs());
                duration(b, x.lateMaxNs());
                b.append("</tr>\n");
            }
            b.append("</tbody></table>\n");
            cut(b, shown.size(), r.stragglers().size(), "stragglers");
        }
        b.append("</section>\n");
    }

    /** The launch call's start to its kernel's start, per stream; nothing without launch calls. */
    static void launchQueue(StringBuilder b, Analyses.Result r) {
        List<LaunchQueue.Row> rows = r.launches().rows();
        if (rows.isEmpty()) {
            return;
        }
        b.append("<section id=\"launch-queue\"><h2>Launch queue: launch to start per stream</h2>\n<p class=\"note\">"
                + "From the launch call's start to the kernel's start; a long wait means the GPU was behind (GPU-bound), "
                + "a short one that it waited for the CPU. Median: nearest rank; ~ where it is estimated.</p>\n"
                + "<table class=\"sortable\" id=\"launch-queue-table\"><thead><tr><th data-sort=\"t\">rank</th>"
                + "<th class=\"n\" data-sort=\"n\">GPU</th><th class=\"n\" data-sort=\"n\">stream</th>"
                + "<th class=\"n\" data-sort=\"n\">kernels</th><th class=\"n\" data-sort=\"n\">mean</th>"
                + "<th class=\"n\" data-sort=\"n\">median</th><th class=\"n\" data-sort=\"n\">min</th>"
                + "<th class=\"n\" data-sort=\"n\">max</th></tr></thead><tbody>\n");
        List<LaunchQueue.Row> shown = CapturePage.firstRows(rows);
        for (LaunchQueue.Row row : shown) {
            SummaryStats d = row.delays();
            b.append("<tr><td>").append(text(r.rankOf(row.pid()))).append("</td><td class=\"n\">").append(row.device())
                    .append("</td><td class=\"n\">").append(row.stream()).append("</td><td class=\"n\">")
                    .append(d.count()).append("</td>");
            duration(b, Math.round(d.mean()));
            b.append("<td class=\"n\" data-v=\"").append(d.median()).append("\">").append(d.exact() ? "" : "~")
                    .append(text(ReportFormat.duration(d.median()))).append("</td>");
            duration(b, d.min());
            duration(b, d.max());
            b.append("</tr>\n");
        }
        b.append("</tbody></table>\n");
        cut(b, shown.size(), rows.size(), "launch_queue");
        if (r.launches().unjoined() > 0) {
            b.append("<p class=\"note\">").append(r.launches().unjoined())
                    .append(" kernels without their launch call in the input: not counted.</p>\n");
        }
        b.append("</section>\n");
    }

    private static void duration(StringBuilder b, long ns) {
        b.append("<td class=\"n\" data-v=\"").append(ns).append("\">").append(text(ReportFormat.duration(ns)))
                .append("</td>");
    }

    /** A difference: its sign, then its size (a duration prints no sign). */
    private static void difference(StringBuilder b, long ns) {
        b.append("<td class=\"n\" data-v=\"").append(ns).append("\">").append(ns < 0 ? "-" : "+")
                .append(text(ReportFormat.duration(Math.abs(ns)))).append("</td>");
    }

    private static void cut(StringBuilder b, int shown, int total, String section) {
        if (shown < total) {
            b.append("<p class=\"note\">The first ").append(shown).append(" of ").append(total)
                    .append(" rows (vprof report --section ").append(section).append(" lists more).</p>\n");
        }
    }

    private static void figures(StringBuilder b, TemporalBreakdown.Row row, boolean overlap) {
        cell(b, row.spanNs(), row.spanNs());
        cell(b, row.idleNs(), row.spanNs());
        cell(b, row.computeNs(), row.spanNs());
        cell(b, row.communicationNs(), row.spanNs());
        cell(b, row.memoryNs(), row.spanNs());
        if (overlap) {
            cell(b, row.overlapNs(), row.spanNs());
        }
    }

    private static void cell(StringBuilder b, long ns, long span) {
        b.append("<td class=\"n\" data-v=\"").append(ns).append("\">").append(text(ReportFormat.duration(ns)));
        if (ns != span && span > 0) {
            b.append(text(fmt(" (%.1f%%)", 100.0 * ns / span)));
        }
        b.append("</td>");
    }

    static void summaries(StringBuilder b, Analyses.Result r) {
        b.append("<section id=\"summaries\"><h2>Summaries (as nsys stats names them)</h2>\n");
        for (Summaries.Table t : Summaries.Table.values()) {
            List<Summaries.Row> rows = r.summaries().rows(t);
            if (rows.isEmpty()) {
                continue;
            }
            b.append("<h3>").append(text(t.section())).append("</h3>\n<table class=\"sortable\" id=\"")
                    .append(text(t.section())).append("\"><thead><tr><th data-sort=\"t\">").append(text(t.key()))
                    .append("</th>");
            for (String h : List.of("count", "total", "mean", "median", "min", "max", "stddev")) {
                b.append("<th class=\"n\" data-sort=\"n\">").append(h).append("</th>");
            }
            b.append("</tr></thead><tbody>\n");
            int shown = Math.min(SUMMARY_ROWS, rows.size());
            for (int i = 0; i < shown; i++) {
                Summaries.Row row = rows.get(i);
                SummaryStats s = row.stats();
                b.append("<tr>").append(nameCell(row.name())).append("<td class=\"n\">").append(s.count()).append("</td>");
                value(b, t, s.total());
                value(b, t, Math.round(s.mean()));
                value(b, t, s.median());
                value(b, t, s.min());
                value(b, t, s.max());
                value(b, t, Math.round(s.stddev()));
                b.append("</tr>\n");
            }
            b.append("</tbody></table>\n");
            if (shown < rows.size()) {
                b.append("<p class=\"note\">The first ").append(shown).append(" of ").append(rows.size())
                        .append(" rows by total (vprof report --section ").append(text(t.section()))
                        .append(" lists them all).</p>\n");
            }
        }
        b.append("</section>\n");
    }

    private static void value(StringBuilder b, Summaries.Table t, long v) {
        b.append("<td class=\"n\" data-v=\"").append(v).append("\">")
                .append(text(t.bytes() ? ReportFormat.bytes(v) : ReportFormat.duration(v))).append("</td>");
    }
}
