package dev.vprof.analysis;

import dev.vprof.aggregate.Steps;
import dev.vprof.names.TerminalText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The analyses as text, one section each ({@code vprof report --section NAME}): {@value #BREAKDOWN} and
 * the nsys-style tables by the names {@code nsys stats} gives its reports. Figures are whole ns (or
 * bytes), as {@code nsys stats} prints them, so they can be checked against SQL; names are escaped.
 */
public final class AnalysisText {
    public static final String BREAKDOWN = "breakdown";
    public static final String PHASES = "phases";
    public static final String LAUNCH_QUEUE = "launch_queue";
    public static final String RANKS = "ranks";
    public static final String STRAGGLERS = "stragglers";
    /** Rows a table lists at most in text (the JSON and the MCP tools have their own bounds). */
    static final int MAX_ROWS = 1000;

    private AnalysisText() {}

    /** Every section name, in the order they are shown. */
    public static List<String> sections() {
        List<String> s = new ArrayList<>();
        s.add(BREAKDOWN);
        s.add(PHASES);
        s.add(RANKS);
        s.add(STRAGGLERS);
        s.add(LAUNCH_QUEUE);
        for (Summaries.Table t : Summaries.Table.values()) {
            s.add(t.section());
        }
        return s;
    }

    /** The table a section name names; null for {@value #BREAKDOWN} or an unknown name. */
    public static Summaries.Table table(String section) {
        for (Summaries.Table t : Summaries.Table.values()) {
            if (t.section().equals(section)) {
                return t;
            }
        }
        return null;
    }

    /** Section {@code name} of {@code r}; the caller has checked the name is one of {@link #sections()}. */
    public static String render(Analyses.Result r, String name, int maxRows) {
        StringBuilder out = new StringBuilder();
        if (name.equals(BREAKDOWN)) {
            breakdown(out, r, maxRows);
        } else if (name.equals(PHASES)) {
            phases(out, r, maxRows);
        } else if (name.equals(LAUNCH_QUEUE)) {
            launchQueue(out, r, maxRows);
        } else if (name.equals(RANKS)) {
            ranks(out, r, maxRows);
        } else if (name.equals(STRAGGLERS)) {
            stragglers(out, r, maxRows);
        } else {
            table(out, r.summaries(), table(name), maxRows);
        }
        return out.toString();
    }

    static void breakdown(StringBuilder out, Analyses.Result r, int maxRows) {
        out.append("temporal breakdown (ns; share of the GPU's span): compute, communication not under compute, "
                + "memory under neither, idle; overlap: compute and communication at once\n");
        out.append(String.format(Locale.ROOT, "%-10s %4s %-18s %14s %20s %20s %20s %20s %20s%n", "rank", "gpu", "step",
                "span", "idle", "compute", "communication", "memory", "overlap"));
        Steps steps = r.steps();
        for (TemporalBreakdown.Row row : firstRows(r.breakdown(), maxRows)) {
            String step = row.step() == TemporalBreakdown.WHOLE ? "capture" : TerminalText.escape(steps.name(row.step()));
            out.append(String.format(Locale.ROOT, "%-10s %4d %-18s %14d %20s %20s %20s %20s %20s%s%n",
                    r.rankOf(row.pid()), row.device(), step, row.spanNs(), share(row.idleNs(), row.spanNs()),
                    share(row.computeNs(), row.spanNs()), share(row.communicationNs(), row.spanNs()),
                    share(row.memoryNs(), row.spanNs()), share(row.overlapNs(), row.spanNs()),
                    row.approximate() ? "  ~" : ""));
        }
        moreRows(out, r.breakdown().size(), maxRows);
        if (r.breakdown().stream().anyMatch(TemporalBreakdown.Row::approximate)) {
            out.append("~: work further out of order than the reorder window; busy time can be overstated\n");
        }
    }

    static void phases(StringBuilder out, Analyses.Result r, int maxRows) {
        if (r.phases().isEmpty()) {
            out.append("request phases: none (the input holds no llm_request spans; give them with --spans on "
                    + "the full report)\n");
            return;
        }
        out.append("GPU time inside request phases (ns; share of the phases' length), slowest ")
                .append(String.format(Locale.ROOT, "%.0f", PhaseBreakdown.SLOW_PERCENT))
                .append(" % of requests by end-to-end time and the rest\n");
        out.append(String.format(Locale.ROOT, "%-16s %8s %-10s %4s %14s %20s %20s %20s %20s%n", "phase", "requests",
                "rank", "gpu", "length", "idle", "compute", "communication", "memory"));
        for (PhaseBreakdown.Row p : firstRows(r.phases(), maxRows)) {
            TemporalBreakdown.Row row = p.figures();
            out.append(String.format(Locale.ROOT, "%-16s %8d %-10s %4d %14d %20s %20s %20s %20s%n", p.phase(),
                    p.requests(), r.rankOf(row.pid()), row.device(), row.spanNs(), share(row.idleNs(), row.spanNs()),
                    share(row.computeNs(), row.spanNs()), share(row.communicationNs(), row.spanNs()),
                    share(row.memoryNs(), row.spanNs())));
        }
        moreRows(out, r.phases().size(), maxRows);
    }

    static void ranks(StringBuilder out, Analyses.Result r, int maxRows) {
        List<RankImbalance.Row> rows = RankImbalance.of(r);
        if (rows.isEmpty()) {
            out.append("rank imbalance: no step that two or more processes share\n");
            return;
        }
        out.append("rank imbalance per step (ns; GPU span in the step; delta: slowest minus fastest)\n");
        out.append(String.format(Locale.ROOT, "%-18s %5s %-10s %14s %-10s %14s %12s %14s %14s %14s%n", "step", "ranks",
                "slowest", "span", "fastest", "span", "spread", "compute d", "comm d", "idle d"));
        for (RankImbalance.Row x : firstRows(rows, maxRows)) {
            out.append(String.format(Locale.ROOT, "%-18s %5d %-10s %14d %-10s %14d %12d %14d %14d %14d%n",
                    TerminalText.escape(x.step()), x.ranks(), r.rankOf(x.slowestPid()), x.slowestSpanNs(),
                    r.rankOf(x.fastestPid()), x.fastestSpanNs(), x.spreadNs(), x.computeDeltaNs(),
                    x.communicationDeltaNs(), x.idleDeltaNs()));
        }
        moreRows(out, rows.size(), maxRows);
    }

    static void stragglers(StringBuilder out, Analyses.Result r, int maxRows) {
        if (r.stragglers().isEmpty()) {
            out.append("stragglers: fewer than two processes run collectives\n");
            return;
        }
        out.append("stragglers at collectives (the n-th collective of each rank matched; late: after the first to start it, ns)\n");
        out.append(String.format(Locale.ROOT, "%-10s %10s %10s %16s %14s%n", "rank", "matched", "last at",
                "late in all", "late at most"));
        for (Stragglers.Row x : firstRows(r.stragglers(), maxRows)) {
            out.append(String.format(Locale.ROOT, "%-10s %10d %10d %16d %14d%n", r.rankOf(x.pid()), x.matched(),
                    x.last(), x.lateTotalNs(), x.lateMaxNs()));
        }
        moreRows(out, r.stragglers().size(), maxRows);
    }

    static void launchQueue(StringBuilder out, Analyses.Result r, int maxRows) {
        List<LaunchQueue.Row> rows = r.launches().rows();
        if (rows.isEmpty()) {
            out.append("launch queue: no kernel joined to its launch call (the input holds no launch calls)\n");
            return;
        }
        out.append("launch to start per stream (ns; the launch call's start to the kernel's start; median: nearest rank)\n");
        out.append(String.format(Locale.ROOT, "%-10s %4s %8s %10s %14s %14s %14s %14s%n", "rank", "gpu", "stream",
                "kernels", "mean", "median", "min", "max"));
        for (LaunchQueue.Row row : firstRows(rows, maxRows)) {
            SummaryStats d = row.delays();
            out.append(String.format(Locale.ROOT, "%-10s %4d %8d %10d %14.1f %14s %14d %14d%n", r.rankOf(row.pid()),
                    row.device(), row.stream(), d.count(), d.mean(), (d.exact() ? "" : "~") + d.median(), d.min(),
                    d.max()));
        }
        moreRows(out, rows.size(), maxRows);
        if (r.launches().unjoined() > 0) {
            out.append(r.launches().unjoined()).append(" kernels without their launch call in the file: not counted\n");
        }
    }

    /** The rows a section's table shows: the first {@code maxRows} (all when it is negative). */
    private static <T> List<T> firstRows(List<T> rows, int maxRows) {
        return maxRows >= 0 && rows.size() > maxRows ? rows.subList(0, maxRows) : rows;
    }

    /** The line that says a table of {@code total} rows was cut at {@code maxRows}, when it was. */
    private static void moreRows(StringBuilder out, int total, int maxRows) {
        if (maxRows >= 0 && total > maxRows) {
            out.append("... ").append(total - maxRows).append(" more rows (cut at ").append(maxRows).append(")\n");
        }
    }

    private static String share(long ns, long span) {
        return String.format(Locale.ROOT, "%d (%5.1f%%)", ns, span == 0 ? 0.0 : 100.0 * ns / span);
    }

    static void table(StringBuilder out, Summaries s, Summaries.Table t, int maxRows) {
        List<Summaries.Row> rows = s.rows(t);
        String unit = t.bytes() ? "bytes" : "ns";
        out.append(t.section()).append(" (").append(unit).append("; median: nearest rank)\n");
        out.append(String.format(Locale.ROOT, "%7s %16s %10s %14s %14s %14s %14s %14s  %s%n", "time %",
                "total", "count", "mean", "median", "min", "max", "stddev", t.key()));
        long all = 0;
        for (Summaries.Row row : rows) {
            all += row.stats().total();
        }
        for (Summaries.Row row : firstRows(rows, maxRows)) {
            SummaryStats x = row.stats();
            out.append(String.format(Locale.ROOT, "%7.1f %16d %10d %14.1f %14s %14d %14d %14.1f  %s%n",
                    all == 0 ? 0.0 : 100.0 * x.total() / all, x.total(), x.count(), x.mean(),
                    (x.exact() ? "" : "~") + x.median(), x.min(), x.max(), x.stddev(), TerminalText.escape(row.name())));
        }
        moreRows(out, rows.size(), maxRows);
        if (rows.isEmpty()) {
            out.append("(none in this input)\n");
        }
        if (t == Summaries.Table.NVTX && s.unpairedRanges() > 0) {
            out.append(s.unpairedRanges()).append(" NVTX ranges not ended (or past the bound of open ranges): not counted\n");
        }
    }
}
