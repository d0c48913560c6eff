package dev.vprof.report;

import dev.vprof.aggregate.Durations;
import dev.vprof.triage.TriageReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders a {@link Report} for a terminal. Lost records get warning lines that name the remedy. */
public final class TextReport {
    private TextReport() {}

    /**
     * The answer first: the verdict and a summary, then the requests and the server's metrics, then
     * the kernels overall, then each process and range in detail (a kernel table identical to one
     * already shown is named, not repeated), and last every record lost.
     */
    public static String render(Report report) {
        StringBuilder out = new StringBuilder();
        out.append("vprof report: ").append(report.file());
        if (report.metadata() != null) {
            var m = report.metadata();
            out.append(" (host ").append(m.host());
            if (m.startEpochNs() > 0) {
                out.append(", captured ").append(instant(m.startEpochNs()));
            }
            out.append(", vprof ").append(m.vprofVersion()).append(')');
        }
        out.append('\n');
        if (!report.complete()) {
            out.append(WARNING).append("the file was not closed by its writer; this report covers what it holds");
            if (report.totals().unverifiedRecords() > 0) {
                out.append(", the last ").append(report.totals().unverifiedRecords())
                        .append(" records unverified (from a chunk the file cuts short)");
            }
            out.append('\n');
        }
        if (report.verdict() != null) {
            out.append('\n');
            TriageReport.findings(out, report.verdict().findings(),
                    " (the server's metrics over the capture window, read as `vprof triage` reads them)");
        }
        summary(out, report);
        if (report.latency() != null || report.metrics() != null || report.spans() != null) {
            ServingText.render(out, report);
        }
        if (!report.topKernels().isEmpty()) {
            out.append('\n').append("top ").append(report.topKernels().size())
                    .append(" kernels by total time, all processes and ranges:\n");
            kernelTable(out, "  ", report.topKernels());
        }
        if (report.steps() != null) {
            boolean cut = report.window() != null
                    && ("window".equals(report.window().source()) || "request".equals(report.window().source()));
            steps(out, report.steps(), cut ? "outside the steps that start in it" : "outside any step");
        }
        List<List<Report.KernelSummary>> shown = new ArrayList<>();
        List<String> shownAs = new ArrayList<>();
        shown.add(report.topKernels());
        shownAs.add("the table above");
        for (Report.ProcessSummary p : report.processes()) {
            out.append('\n').append("process ").append(p.pid());
            if (p.ppid() != 0) {
                out.append(" (parent ").append(p.ppid()).append(')');
            }
            out.append(": ").append(p.command() == null ? "(command unknown)" : p.command()).append('\n');
            if (p.rank() != null || p.worldSize() != null) {
                out.append("  rank ").append(p.rank() == null ? "?" : p.rank());
                if (p.worldSize() != null) {
                    out.append(" of ").append(p.worldSize());
                }
                if (p.localRank() != null) {
                    out.append(" (local rank ").append(p.localRank()).append(')');
                }
                out.append('\n');
            }
            if (p.source() != null) {
                out.append("  ").append(TraceFacts.sentence(p.source(), p.cpuSlices())).append('\n');
            }
            for (var d : p.devices()) {
                out.append(String.format(Locale.ROOT, "  device %d: %s, %d SMs, %s, compute capability %d.%d%n",
                        d.id(), d.name() == null ? "(unnamed)" : d.name(), d.smCount(), bytes(d.globalMemoryBytes()),
                        d.computeMajor(), d.computeMinor()));
            }
            out.append("  clock: ").append(clock(p.clock())).append('\n');
            for (String w : RangeWarnings.processSentences(p)) {
                out.append("  ").append(WARNING).append(w).append('\n');
            }
            for (Report.RangeSummary r : report.ranges()) {
                if (r.pid() == p.pid()) {
                    range(out, r, shown, shownAs);
                }
            }
        }
        for (String w : dropWarnings(report)) {
            out.append(WARNING).append(w).append('\n');
        }
        return out.toString();
    }

    /** Totals, and per process its kernels and the devices they ran on. */
    private static void summary(StringBuilder out, Report report) {
        Report.Totals t = report.totals();
        out.append('\n').append(String.format(Locale.ROOT,
                "summary: %s, %s, %d kernels (%d from CUDA graphs), %d memcpy (%s), %d memset, %d ring drops, "
                        + "%d CUPTI drops, %d invalid records kept off the timeline%n",
                t.processes() == 1 ? "1 process" : t.processes() + " processes",
                t.ranges() == 1 ? "1 range" : t.ranges() + " ranges", t.kernels(), t.graphKernels(), t.memcpys(),
                bytes(t.memcpyBytes()), t.memsets(), t.ringDrops(), t.cuptiDrops(), t.rejectedTotal()));
        for (Report.ProcessSummary p : report.processes()) {
            out.append("  process ").append(p.pid()).append(": ").append(p.kernels()).append(" kernels");
            List<String> devices = new ArrayList<>();
            p.busyNsByDevice().forEach((device, ns) -> devices.add(
                    (device.equals("-1") ? "unknown device" : "device " + device) + " busy " + duration(ns)));
            if (!devices.isEmpty()) {
                out.append(", ").append(String.join(", ", devices));
            }
            out.append('\n');
        }
    }

    /** How the text report begins a warning: the word every warning of vprof's has. */
    public static final String WARNING = "warning: ";

    /** Step rows the text shows at most (the JSON lists up to 1000). */
    static final int STEPS_SHOWN = 20;

    /** The step table: each step's duration, kernels, GPU time and busy time, and the kernels outside any step. */
    private static void steps(StringBuilder out, Report.StepTable t, String outside) {
        out.append('\n').append(String.format(Locale.ROOT, "steps (%s): %d, %s in all; a kernel belongs to the step "
                + "its launch was made in (else the last one started before it):%n", t.rule(), t.count(),
                duration(t.durationNs())));
        boolean pids = t.rows().stream().map(Report.StepSummary::pid).distinct().count() > 1;
        out.append(String.format(Locale.ROOT, "  %11s %9s %11s %11s  %s%n", "duration", "kernels", "GPU time",
                "GPU busy", "step"));
        int shown = Math.min(STEPS_SHOWN, t.rows().size());
        for (int i = 0; i < shown; i++) {
            Report.StepSummary r = t.rows().get(i);
            out.append(String.format(Locale.ROOT, "  %11s %9d %11s %11s  %s%s%n", duration(r.durationNs()), r.kernels(),
                    duration(r.gpuNs()), (r.gpuBusyApproximate() ? "~" : "") + duration(r.gpuBusyNs()),
                    TraceFacts.printable(r.name()), pids ? " (pid " + r.pid() + ")" : ""));
        }
        if (shown < t.count()) {
            out.append(String.format(Locale.ROOT, "  ... %d more steps (vprof report --json lists %d)%n",
                    t.count() - shown, t.listed()));
        }
        out.append(String.format(Locale.ROOT, "  %11s %9d %11s %11s  %s%n", "-", t.outside().kernels(),
                duration(t.outside().gpuNs()), "-", outside));
    }

    /**
     * The warnings for lost records and for what CUPTI did to the capture, for the totals, one
     * sentence each without a prefix: the text report prints them after {@link #WARNING}, the CLI on
     * stderr as its warnings, the HTML page as data.
     */
    public static List<String> dropWarnings(Report report) {
        List<String> lines = new ArrayList<>();
        Report.Totals t = report.totals();
        if (report.lostRecords()) {
            // The agent charges each range its own records' drops; its process counters count every
            // refused record (the names and launch shapes dropped records needed, records between
            // ranges), which the totals take: the rest belongs to no range.
            long inRanges = 0;
            for (Report.RangeSummary r : report.ranges()) {
                inRanges += r.ringDrops();
            }
            lines.add(lossSentence("this capture", t.kernels(), t.ringDrops(), t.ringDropsKernels(),
                    t.cuptiDrops(), t.zeroTimestampKernels(), Math.max(0, t.ringDrops() - inRanges)));
        }
        for (Report.ProcessSummary p : report.processes()) {
            for (String w : RangeWarnings.processSentences(p)) {
                lines.add("pid " + p.pid() + ": " + w);
            }
        }
        for (Report.RangeSummary r : report.ranges()) {
            for (String w : RangeWarnings.sentences(r)) {
                lines.add("pid " + r.pid() + " range " + r.index() + ": " + w);
            }
        }
        return lines;
    }

    private static void range(StringBuilder out, Report.RangeSummary r, List<List<Report.KernelSummary>> shown,
                              List<String> shownAs) {
        String indent = "    ";
        if (r.index() == 0 && "none".equals(r.source())) {
            out.append("  outside any capture range");
        } else {
            out.append("  range ").append(r.index()).append(" [").append(r.source());
            out.append(r.ended() ? " .. " + r.endSource() : " .. not ended").append(']');
        }
        if (r.startNs() > 0) {
            out.append(", from ").append(instant(r.startNs()));
        }
        out.append(", ").append(duration(r.durationNs())).append('\n');
        Report.RangeFidelity f = r.fidelity();
        out.append(indent).append(String.format(Locale.ROOT, "%d kernels (%d from CUDA graphs, %d not), %d memcpy (%s), "
                        + "%d memset (%s)", r.kernels(), f.graphKernels(), f.nonGraphKernels(), r.memcpys(),
                bytes(r.memcpyBytes()), r.memsets(), bytes(r.memsetBytes())));
        if (r.markers() > 0) {
            out.append(", ").append(r.markers()).append(" NVTX ranges");
        }
        if (r.apiCalls() > 0) {
            out.append(", ").append(r.apiCalls()).append(" API calls");
        }
        out.append('\n');
        for (Report.DeviceBusy d : r.devices()) {
            out.append(indent).append("GPU busy: device ").append(d.device() < 0 ? "unknown" : d.device()).append(' ')
                    .append(duration(d.busyNs()));
            if (d.spanNs() > 0) {
                out.append(" of ").append(duration(d.spanNs()))
                        .append(String.format(Locale.ROOT, " from its first kernel to its last (%.1f%%)", d.busyPercent()));
            }
            if (d.approximate()) {
                out.append(" (approximate: kernels arrived far out of order)");
            }
            out.append('\n');
        }
        if (!r.topKernels().isEmpty()) {
            int same = shown.indexOf(r.topKernels());
            if (same >= 0) {
                out.append(indent).append("top ").append(r.topKernels().size())
                        .append(" kernels by total time: identical to ").append(shownAs.get(same))
                        .append(" (same names, counts and durations; not repeated)\n");
            } else {
                out.append(indent).append("top ").append(r.topKernels().size()).append(" kernels by total time:\n");
                kernelTable(out, indent + "  ", r.topKernels());
                shown.add(r.topKernels());
                shownAs.add(r.index() == 0 && "none".equals(r.source())
                        ? "process " + r.pid() + " outside any range" : "process " + r.pid() + " range " + r.index());
            }
        }
        if (f.kernelLaunches() > 0 || f.graphLaunches() > 0 || f.clipped() > 0) {
            out.append(indent).append(String.format(Locale.ROOT, "launched in the range: %d kernels, %d CUDA graphs; "
                    + "%d records of work launched outside it clipped%n", f.kernelLaunches(), f.graphLaunches(),
                    f.clipped()));
        }
        for (String w : RangeWarnings.sentences(r)) {
            out.append(indent).append(WARNING).append(w).append('\n');
        }
        if (r.ringDrops() > 0 || r.cuptiDrops() > 0 || r.zeroTimestampKernels() > 0) {
            out.append(indent).append(WARNING)
                    .append(lossSentence("this range", r.kernels(), r.ringDrops(), r.ringDropsKernels(), r.cuptiDrops(),
                            r.zeroTimestampKernels(), 0))
                    .append('\n');
        }
    }

    /**
     * One sentence: what was recorded, what was lost where, and what to do about it;
     * {@code outsideRanges} of the ring drops belong to no range.
     */
    static String lossSentence(String what, long kernels, long ringDrops, long ringDropsKernels, long cuptiDrops,
            long zeroTs, long outsideRanges) {
        StringBuilder s = new StringBuilder(what).append(" lost records: ").append(kernels).append(" kernels recorded + ")
                .append(ringDropsKernels).append(" kernels dropped by a full ring");
        if (ringDrops != ringDropsKernels || outsideRanges > 0) {
            s.append(" (").append(ringDrops).append(" records in all");
            if (outsideRanges > 0) {
                s.append(", ").append(outsideRanges).append(" of them outside any range");
            }
            s.append(')');
        }
        s.append(" + ").append(cuptiDrops).append(" records dropped by CUPTI");
        if (zeroTs > 0) {
            s.append(" + ").append(zeroTs).append(" kernels without timestamps");
        }
        s.append(" = ").append(kernels + ringDropsKernels + cuptiDrops + zeroTs).append(';');
        List<String> remedies = new ArrayList<>();
        if (ringDrops > 0) {
            remedies.add("a larger --ring-size");
        }
        if (cuptiDrops > 0 || zeroTs > 0) {
            remedies.add("a larger --buffer-size");
        }
        s.append(" capture again with ").append(String.join(" and ", remedies)).append(" to lose nothing");
        return s.toString();
    }

    /**
     * One row per kernel name; a legend under it says what the columns are, and what a {@code ~}
     * before a percentile means when one has it.
     */
    private static void kernelTable(StringBuilder out, String indent, List<Report.KernelSummary> kernels) {
        out.append(indent).append(String.format(Locale.ROOT, "%11s %9s %11s %12s %12s %11s  %s%n",
                "total", "count", "mean", "p50", "p99", "max", "name"));
        boolean approximate = false;
        for (Report.KernelSummary k : kernels) {
            String mark = k.percentilesExact() ? "" : "~";
            approximate |= !k.percentilesExact();
            out.append(indent).append(String.format(Locale.ROOT, "%11s %9d %11s %12s %12s %11s  %s%n",
                    duration(k.totalNs()), k.count(), duration(k.meanNs()), mark + duration(k.p50Ns()),
                    mark + duration(k.p99Ns()), duration(k.maxNs()), TraceFacts.printable(k.name())));
        }
        out.append(indent).append("total: GPU time of all launches; mean, p50, p99, max: one launch's duration");
        if (approximate) {
            out.append("; ~: within 0.4% (over ").append(Durations.EXACT_MAX)
                    .append(" launches of a name are kept in a log histogram)");
        }
        out.append('\n');
    }

    private static String clock(Report.ClockSummary c) {
        if (c.pairs() == 0) {
            return "no clock pairs; CUPTI time taken as epoch time";
        }
        return String.format(Locale.ROOT, "%d pairs, offset %+d ns, drift %+.3f ppm, residual max %d ns (rms %d ns)",
                c.pairs(), c.offsetNs(), c.driftPpm(), c.residualMaxNs(), c.residualRmsNs());
    }

    static String instantOf(long epochNs) {
        return instant(epochNs);
    }

    static String duration(long ns) {
        if (ns < 1_000) {
            return ns + " ns";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.2f us", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    static String bytes(long b) {
        if (b < 1024) {
            return b + " B";
        }
        if (b < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
        }
        if (b < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    }

    private static String instant(long epochNs) {
        return Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L))
                .toString();
    }
}
