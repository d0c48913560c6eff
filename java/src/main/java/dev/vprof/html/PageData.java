package dev.vprof.html;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.metrics.MetricMath;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.VllmMetrics;
import dev.vprof.names.KernelNames;
import dev.vprof.report.BusyTimeline;
import dev.vprof.report.Report;
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
 * records: each GPU's busy fraction in a fixed number of bins over the capture's time span, each
 * top kernel's duration distribution in log-spaced bins, the NVTX ranges' durations by name (steps),
 * and the metric gauges over time. Memory is the bins, whatever the number of kernels.
 *
 * @param fromNs     the timeline's start (epoch ns)
 * @param toNs       its end
 * @param gpus       one lane per (process, device), in the order first seen
 * @param kernels    the top kernels' distributions, in the report's order
 * @param steps      NVTX ranges by name, steps first, then the most frequent (at most {@link #STEP_NAMES})
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
    private static final Pattern STEP_NUMBER = Pattern.compile("#\\d+$");

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
     * One NVTX range name (a trailing "#number" as "#N", so PyTorch's ProfilerStep#1010 and #1011 are
     * one): how many, their total, the first {@link #STEP_SAMPLES} durations; step: whether the
     * name says it is a step ("step", as the diff's default --steps, or ProfilerStep#N).
     */
    public record StepSeries(String name, long count, long totalNs, long[] firstDurationsNs, boolean step) {}

    static boolean isStep(String name) {
        return name.equalsIgnoreCase("step") || name.startsWith("ProfilerStep");
    }

    /** A gauge over time: epoch ns and values, in order. */
    public record MetricSeries(String name, String unit, long[] t, double[] v) {}

    /** The one extra pass: report is the capture's report, whose top kernels and span it follows. */
    public static PageData collect(CaptureReader reader, Report report, KernelNames names) {
        long[] span = span(report);
        Collector c = new Collector(reader, report, names, span[0], span[1]);
        reader.forEachRecord(c);
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
        double hi = Math.max(lo * 1.0001, max + 1);
        return lo * Math.pow(hi / lo, (double) i / bins);
    }

    private static List<MetricSeries> metrics(CaptureReader reader) {
        List<VllmMetrics.Metric> gauges = List.of(VllmMetrics.NUM_REQUESTS_WAITING, VllmMetrics.NUM_REQUESTS_RUNNING,
                VllmMetrics.KV_CACHE_USAGE);
        String[] labels = {"queue depth (waiting)", "running requests", "KV-cache use"};
        String[] units = {"requests", "requests", "fraction"};
        List<long[]> ts = new ArrayList<>();
        List<double[]> vs = new ArrayList<>();
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

    private static final class Collector implements RecordVisitor {
        private final CaptureReader reader;
        private final KernelNames names;
        private final long from;
        private final long to;
        private final int bins;
        private final Map<Long, BusyTimeline> lanes = new LinkedHashMap<>();
        private final Map<String, Integer> topIndex = new HashMap<>();
        private final Map<String, Integer> rawIndex = new HashMap<>();
        private final List<Report.KernelSummary> top;
        private final long[][] counts;
        private final Map<Integer, ClockMapping> clocks = new HashMap<>();
        private int lastPid = Integer.MIN_VALUE;
        private ClockMapping clock;
        private long lastLaneKey = Long.MIN_VALUE;
        private BusyTimeline lastLane;
        private final Map<Long, MarkerEvent> open = new HashMap<>();
        private final Map<String, long[]> stepStats = new TreeMap<>(); // name -> {count, total}
        private final Map<String, long[]> stepSamples = new HashMap<>();

        Collector(CaptureReader reader, Report report, KernelNames names, long from, long to) {
            this.reader = reader;
            this.names = names;
            this.from = from;
            this.to = to;
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
        }

        @Override
        public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
            if (pid != lastPid) {
                clock = clocks.computeIfAbsent(pid, reader::clock);
                lastPid = pid;
            }
            int device = desc == null ? -1 : desc.deviceId();
            long key = ((long) pid << 32) | (device & 0xffffffffL);
            if (key != lastLaneKey) {
                lastLane = lanes.computeIfAbsent(key, k -> new BusyTimeline(from, to, bins));
                lastLaneKey = key;
            }
            lastLane.add(clock.toEpochNs(start), clock.toEpochNs(Math.max(start, end)));
            Integer idx = rawIndex.get(name);
            if (idx == null) {
                idx = topIndex.getOrDefault(names.show(name), -1);
                if (rawIndex.size() < 1 << 16) {
                    rawIndex.put(name, idx);
                }
            }
            if (idx >= 0) {
                Report.KernelSummary k = top.get(idx);
                long d = Math.max(0, end - start);
                int b = bin(k.minNs(), k.maxNs(), d);
                counts[idx][b]++;
            }
        }

        private static int bin(long min, long max, long d) {
            double lo = logEdge(min, max, HISTOGRAM_BINS, 0);
            double hi = logEdge(min, max, HISTOGRAM_BINS, HISTOGRAM_BINS);
            double x = Math.log(Math.max(lo, d) / lo) / Math.log(hi / lo);
            return Math.clamp((long) Math.floor(x * HISTOGRAM_BINS), 0, HISTOGRAM_BINS - 1);
        }

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
                long d = Math.max(0, m.timestamp() - s.timestamp());
                String name = STEP_NUMBER.matcher(s.name()).replaceFirst("#N");
                long[] st = stepStats.get(name);
                if (st == null) {
                    if (stepStats.size() >= 1024) {
                        return;
                    }
                    st = new long[2];
                    stepStats.put(name, st);
                    stepSamples.put(name, new long[STEP_SAMPLES + 1]); // [0]: how many kept
                }
                long[] sample = stepSamples.get(name);
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
            stepStats.entrySet().stream()
                    .sorted((a, b) -> isStep(a.getKey()) != isStep(b.getKey()) ? (isStep(a.getKey()) ? -1 : 1)
                            : Long.compare(b.getValue()[0], a.getValue()[0]))
                    .limit(STEP_NAMES)
                    .forEach(e -> {
                        long[] s = stepSamples.get(e.getKey());
                        steps.add(new StepSeries(e.getKey(), e.getValue()[0], e.getValue()[1],
                                Arrays.copyOfRange(s, 1, 1 + (int) s[0]), isStep(e.getKey())));
                    });
            return new PageData(from, to, gpus, kernels, steps, metrics);
        }
    }
}
