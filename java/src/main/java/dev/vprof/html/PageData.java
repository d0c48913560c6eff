package dev.vprof.html;

import dev.vprof.aggregate.BusyTimeline;
import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.KernelPass;
import dev.vprof.aggregate.Sink;
import dev.vprof.aggregate.StepRule;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.metrics.MetricMath;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.VllmMetrics;
import dev.vprof.names.KernelNames;
import dev.vprof.report.Report;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Clocks;
import dev.vprof.time.Scope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What the page draws beyond the {@link Report}'s numbers, from one more bounded pass over the
 * records through the aggregation's pass with the report's own scope (the whole capture, or the
 * window or request it was narrowed to), so the page counts the kernels the report counts: each
 * GPU's busy fraction in a fixed number of bins over the capture's time span (over the window, for
 * a narrowed report), each top kernel's duration distribution in log-spaced bins (its bins sum to
 * its row's count), the steps' durations (the report's step table: one step rule) and the other
 * NVTX ranges' by name, and the metric gauges over time. Memory is the bins, whatever the number of
 * kernels.
 *
 * @param fromNs     the timeline's start (epoch ns)
 * @param toNs       its end
 * @param gpus       one lane per (process, device), in the order first seen
 * @param kernels    the top kernels' distributions, in the report's order
 * @param steps      the steps first (when the capture has them), then NVTX ranges by name, the most
 *                   frequent first (at most {@link #STEP_NAMES} in all)
 * @param metrics    the gauge series (empty without metrics)
 */
public record PageData(long fromNs, long toNs, List<GpuLane> gpus, List<KernelHistogram> kernels, List<StepSeries> steps,
                       List<MetricSeries> metrics) {

    /** Bins per lane with few lanes; fewer with many, so the page stays small. */
    static final int MAX_BINS = 1000;
    static final int HISTOGRAM_BINS = 32;
    static final int STEP_NAMES = 8;
    static final int STEP_SAMPLES = 400;
    static final int MAX_METRIC_POINTS = 2048;
    /** NVTX ranges open at once that are remembered (a push without a pop must not grow the heap). */
    private static final int MAX_OPEN = 1 << 16;
    private static final Pattern NUMBER_AT_END = Pattern.compile("#\\d+$");

    /** A GPU's busy fraction per bin; outsideNs: its busy time outside [fromNs, toNs). */
    public record GpuLane(int pid, int device, String label, double[] busy, long outsideNs) {}

    /** Counts of durations in log-spaced bins from minNs to maxNs (edges: {@link #edge}). */
    public record KernelHistogram(String name, long minNs, long maxNs, long[] counts) {
        /** Bin i covers [edge(i), edge(i + 1)). */
        public double edge(int i) {
            return PageData.logEdge(minNs, maxNs, counts.length, i);
        }
    }

    /**
     * The steps (step: true; named by what marked them, "ProfilerStep#N" or "nvtx:step"), or one NVTX
     * range name (a trailing "#number" as "#N"): how many, their total, the first
     * {@link #STEP_SAMPLES} durations (steps in order of start, ranges in record order).
     */
    public record StepSeries(String name, long count, long totalNs, long[] firstDurationsNs, boolean step) {}

    /** A gauge over time: epoch ns and values, in order. */
    public record MetricSeries(String name, String unit, long[] t, double[] v) {}

    /**
     * The one extra pass: report is the capture's report, whose top kernels and span it follows;
     * only, the window (or request) the report was narrowed to, null for the whole capture.
     */
    public static PageData collect(CaptureReader reader, Report report, KernelNames names, CaptureWindow only) {
        long[] span = only != null ? new long[] {only.startNs(), Math.max(only.endNs(), only.startNs() + 1)}
                : span(report);
        Clocks clocks = Clocks.of(reader);
        Collector c = new Collector(report, names, span[0], span[1], only, clocks);
        new KernelPass(clocks).add(Scope.of(only), c).run(reader);
        List<MetricSeries> metrics = reader.hasMetrics() ? metrics(reader) : List.of();
        return c.finish(metrics);
    }

    /** The capture window widened to every range and process's work (kernels can run past a range's end). */
    static long[] span(Report report) {
        long from = Long.MAX_VALUE, to = Long.MIN_VALUE;
        if (report.window() != null && report.window().endNs() > report.window().startNs()) {
            from = report.window().startNs();
            to = report.window().endNs();
        }
        for (Report.RangeSummary r : report.ranges()) {
            if (r.startNs() == 0 && r.endNs() == 0) {
                continue;
            }
            from = Math.min(from, r.startNs());
            to = Math.max(to, r.endNs());
        }
        if (from == Long.MAX_VALUE) {
            return new long[] {0, 1};
        }
        return new long[] {from, Math.max(to, from + 1)};
    }

    static double logEdge(long min, long max, int bins, int i) {
        double lo = Math.max(1, min);
        double hi = Math.max(lo * 1.0001, (double) (max + 1));
        return lo * Math.pow(hi / lo, (double) i / bins);
    }

    private static List<MetricSeries> metrics(CaptureReader reader) {
        List<VllmMetrics.Metric> gauges = List.of(VllmMetrics.NUM_REQUESTS_WAITING, VllmMetrics.NUM_REQUESTS_RUNNING,
                VllmMetrics.KV_CACHE_USAGE);
        String[] labels = {"queue depth (waiting)", "running requests", "KV-cache use"};
        String[] units = {"requests", "requests", "fraction"};
        int[] n = {0};
        int[] stride = {1};
        long[] seen = {0};
        long[] t = new long[MAX_METRIC_POINTS];
        double[][] v = new double[gauges.size()][MAX_METRIC_POINTS];
        reader.scrapes(r -> {
            if (!(r instanceof ScrapeResult.Scrape s)) {
                return;
            }
            // Keep every stride-th scrape; when full, keep every other one and double the stride.
            if (seen[0]++ % stride[0] != 0) {
                return;
            }
            if (n[0] == MAX_METRIC_POINTS) {
                for (int i = 0; i < MAX_METRIC_POINTS / 2; i++) {
                    t[i] = t[2 * i];
                    for (double[] g : v) {
                        g[i] = g[2 * i];
                    }
                }
                n[0] = MAX_METRIC_POINTS / 2;
                stride[0] *= 2;
                if ((seen[0] - 1) % stride[0] != 0) {
                    return;
                }
            }
            MetricsSnapshot snap = s.snapshot();
            t[n[0]] = snap.epochNs();
            for (int g = 0; g < gauges.size(); g++) {
                v[g][n[0]] = MetricMath.gauge(snap, gauges.get(g), MetricMath.ALL_SERIES);
            }
            n[0]++;
        });
        List<MetricSeries> out = new ArrayList<>();
        for (int g = 0; g < gauges.size(); g++) {
            double[] vals = Arrays.copyOf(v[g], n[0]);
            boolean any = false;
            for (double d : vals) {
                any |= Double.isFinite(d);
            }
            if (any) {
                out.add(new MetricSeries(labels[g], units[g], Arrays.copyOf(t, n[0]), vals));
            }
        }
        return out;
    }

    private static final class Collector implements Sink {
        private final KernelNames names;
        private final long from;
        private final long to;
        private final int bins;
        private final CaptureWindow only;
        private final Clocks clocks;
        private final Map<Long, BusyTimeline> lanes = new LinkedHashMap<>();
        private final Map<String, Integer> topIndex = new HashMap<>();
        private final Map<String, Integer> rawIndex = new HashMap<>();
        private final List<Report.KernelSummary> top;
        private final long[][] counts;
        private final Report.StepTable stepTable;
        private final String stepRange;
        private long lastLaneKey = Long.MIN_VALUE;
        private BusyTimeline lastLane;
        private final Map<Long, MarkerEvent> open = new HashMap<>();
        private final Map<String, long[]> rangeStats = new TreeMap<>(); // name -> {count, total}
        private final Map<String, long[]> rangeSamples = new HashMap<>();

        Collector(Report report, KernelNames names, long from, long to, CaptureWindow only, Clocks clocks) {
            this.names = names;
            this.from = from;
            this.to = to;
            this.only = only;
            this.clocks = clocks;
            int devices = 0;
            for (Report.ProcessSummary p : report.processes()) {
                devices += Math.max(1, p.busyNsByDevice().size());
            }
            this.bins = (int) Math.max(20, Math.min(MAX_BINS, 50_000L / Math.max(1, devices)));
            this.top = report.topKernels().subList(0, Math.min(CapturePage.MAX_KERNELS, report.topKernels().size()));
            this.counts = new long[top.size()][HISTOGRAM_BINS];
            for (int i = 0; i < top.size(); i++) {
                topIndex.putIfAbsent(top.get(i).name(), i);
            }
            this.stepTable = report.steps();
            this.stepRange = StepRule.DEFAULT_RANGE;
        }

        @Override
        public void kernel(Kernel k) {
            int pid = k.pid();
            int device = k.device();
            long key = ((long) pid << 32) | (device & 0xffffffffL);
            if (key != lastLaneKey) {
                lastLane = lanes.computeIfAbsent(key, x -> new BusyTimeline(from, to, bins));
                lastLaneKey = key;
            }
            lastLane.add(k.startEpochNs(), k.endEpochNs());
            String name = k.name();
            Integer idx = rawIndex.get(name);
            if (idx == null) {
                idx = topIndex.getOrDefault(names.show(name), -1);
                if (rawIndex.size() < 1 << 16) {
                    rawIndex.put(name, idx);
                }
            }
            if (idx >= 0) {
                Report.KernelSummary s = top.get(idx);
                counts[idx][bin(s.minNs(), s.maxNs(), k.durationNs())]++;
            }
        }

        private static int bin(long min, long max, long d) {
            double lo = logEdge(min, max, HISTOGRAM_BINS, 0);
            double hi = logEdge(min, max, HISTOGRAM_BINS, HISTOGRAM_BINS);
            double x = Math.log(Math.max(lo, (double) d) / lo) / Math.log(hi / lo);
            return Math.clamp((long) Math.floor(x * HISTOGRAM_BINS), 0, HISTOGRAM_BINS - 1);
        }

        /** NVTX ranges by name (not CPU ops, not the steps, which the step table holds), those that start in the scope. */
        @Override
        public void marker(int pid, MarkerEvent m) {
            long key = ((long) pid << 32) | (m.id() & 0xffffffffL);
            if ((m.flags() & VprofRing.MARKER_START) != 0) {
                if (open.size() < MAX_OPEN) {
                    open.put(key, m);
                }
            } else if ((m.flags() & VprofRing.MARKER_END) != 0) {
                MarkerEvent s = open.remove(key);
                if (s == null || s.name() == null) {
                    return;
                }
                if (StepRule.numberOf(s.name(), s.domain(), stepRange) != StepRule.NOT_A_STEP) {
                    return;
                }
                if (only != null && !only.holds(clocks.epochNs(pid, s.timestamp()))) {
                    return;
                }
                long d = Math.max(0, m.timestamp() - s.timestamp());
                String name = NUMBER_AT_END.matcher(s.name()).replaceFirst("#N");
                long[] st = rangeStats.get(name);
                if (st == null) {
                    if (rangeStats.size() >= 1024) {
                        return;
                    }
                    st = new long[2];
                    rangeStats.put(name, st);
                    rangeSamples.put(name, new long[STEP_SAMPLES + 1]); // [0]: how many kept
                }
                long[] sample = rangeSamples.get(name);
                if (sample[0] < STEP_SAMPLES) {
                    sample[(int) ++sample[0]] = d;
                }
                st[0]++;
                st[1] += d;
            }
        }

        PageData finish(List<MetricSeries> metrics) {
            List<GpuLane> gpus = new ArrayList<>();
            lanes.forEach((key, lane) -> {
                int pid = (int) (key >>> 32);
                int device = (int) (long) key;
                String label = (device < 0 ? "unknown device" : "GPU " + device) + " · pid " + pid;
                gpus.add(new GpuLane(pid, device, label, lane.fractions(), lane.outsideNs()));
            });
            List<KernelHistogram> kernels = new ArrayList<>();
            for (int i = 0; i < top.size(); i++) {
                Report.KernelSummary k = top.get(i);
                kernels.add(new KernelHistogram(k.name(), k.minNs(), k.maxNs(), counts[i]));
            }
            List<StepSeries> steps = new ArrayList<>();
            if (stepTable != null && stepTable.count() > 0) {
                List<Report.StepSummary> rows = stepTable.rows();
                long[] first = new long[Math.min(STEP_SAMPLES, rows.size())];
                for (int i = 0; i < first.length; i++) {
                    first[i] = rows.get(i).durationNs();
                }
                steps.add(new StepSeries(stepTable.rule(), stepTable.count(), stepTable.durationNs(), first, true));
            }
            rangeStats.entrySet().stream()
                    .sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]))
                    .limit(STEP_NAMES - steps.size())
                    .forEach(e -> {
                        long[] s = rangeSamples.get(e.getKey());
                        steps.add(new StepSeries(e.getKey(), e.getValue()[0], e.getValue()[1],
                                Arrays.copyOfRange(s, 1, 1 + (int) s[0]), false));
                    });
            return new PageData(from, to, gpus, kernels, steps, metrics);
        }
    }
}
