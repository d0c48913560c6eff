package dev.vprof.watch;

import dev.vprof.engine.AgentStatus;
import dev.vprof.nativelib.Posix;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The recorder's own metrics, computed once per ask and rendered two ways: Prometheus exposition
 * for {@code --metrics-listen} ({@link #exposition}) and OTLP metrics for {@code --otlp-metrics}
 * ({@link OtlpPush}). Label sets are bounded: {@code device} (0 to 63), {@code category} (the
 * fixed list of kernel categories), {@code where}, {@code reason} and {@code trigger} (fixed words);
 * never a kernel's name, a pid or a path. Names and meanings: docs/watch.md, "Metrics".
 */
final class WatchMetrics {
    /** One series: a counter (cumulative since the watch began) or a gauge. */
    record Point(String name, String help, boolean counter, String unit, Map<String, String> labels, double value) {}

    /** The busy ratio is taken over about this much of the recent past. */
    static final long RATIO_WINDOW_NS = 10_000_000_000L;

    private final Segments segments;
    private final Dumps dumps;
    private final Supplier<List<AgentStatus>> agents;
    private final BooleanSupplier armed;
    private final long startEpochNs = Posix.realtimeNanos();
    /** Busy ns per device at a System.nanoTime(), taken once a second by {@link #sample}. */
    private record Sample(long nanos, Map<Integer, Long> busy) {}

    private final Deque<Sample> samples = new ArrayDeque<>();

    WatchMetrics(Segments segments, Dumps dumps, Supplier<List<AgentStatus>> agents, BooleanSupplier armed) {
        this.segments = segments;
        this.dumps = dumps;
        this.agents = agents;
        this.armed = armed;
    }

    long startEpochNs() {
        return startEpochNs;
    }

    /** Remembers the busy time now, for the ratio over the last ten seconds; once a second. */
    synchronized void sample() {
        samples.addLast(new Sample(System.nanoTime(), segments.gpu().busyNs()));
        while (samples.size() > 64) {
            samples.removeFirst();
        }
    }

    /** Every series, now. */
    List<Point> points() {
        List<Point> p = new ArrayList<>();
        long now = Posix.realtimeNanos();
        long records = 0, ring = 0, cupti = 0;
        int live = 0;
        for (AgentStatus a : agents.get()) {
            records += a.recordsDrained();
            ring += a.sinceJoined().ringDrops();
            cupti += a.sinceJoined().cuptiDrops();
            if (!a.state().equals("LEFT")) {
                live++;
            }
        }
        p.add(gauge("vprof_watch_armed", "1 while the agents record (0 in the unarmed part of --armed's duty cycle)",
                "", Map.of(), armed.getAsBoolean() ? 1 : 0));
        p.add(gauge("vprof_watch_processes", "Processes the recorder is attached to", "", Map.of(), live));
        p.add(counter("vprof_records_total", "Records read from the agents' rings", "", Map.of(), (double) records));
        p.add(counter("vprof_drops_total", "Records lost and counted, by where: the shared ring was full, or CUPTI "
                + "dropped them", "", Map.of("where", "ring"), (double) ring));
        p.add(counter("vprof_drops_total", null, "", Map.of("where", "cupti"), (double) cupti));
        GpuTally gpu = segments.gpu();
        p.add(counter("vprof_kernels_total", "Kernels recorded", "", Map.of(), (double) gpu.kernels()));
        Map<Integer, Long> busy = gpu.busyNs();
        Map<Integer, Double> ratio = ratios(busy);
        boolean first = true;
        for (Map.Entry<Integer, Long> e : busy.entrySet()) {
            p.add(counter("vprof_gpu_busy_seconds_total", first ? "Time each GPU ran at least one kernel (the union "
                    + "of its kernels as they arrive)" : null, "s", Map.of("device", e.getKey().toString()),
                    e.getValue() / 1e9));
            first = false;
        }
        first = true;
        for (Map.Entry<Integer, Double> e : ratio.entrySet()) {
            p.add(gauge("vprof_gpu_busy_ratio", first ? "Share of the last 10 s each GPU was busy" : null, "1",
                    Map.of("device", e.getKey().toString()), e.getValue()));
            first = false;
        }
        first = true;
        for (Map.Entry<String, Long> e : gpu.categoryNs().entrySet()) {
            p.add(counter("vprof_gpu_kernel_seconds_total", first ? "GPU time of kernels by category (vprof diff's "
                    + "categories)" : null, "s", Map.of("category", e.getKey()), e.getValue() / 1e9));
            first = false;
        }
        Segments.Stats s = segments.stats();
        p.add(gauge("vprof_window_seconds", "Time the rolling window covers now", "s", Map.of(), s.spanSeconds(now)));
        p.add(gauge("vprof_window_bytes", "Bytes the rolling window takes on disk", "By", Map.of(), (double) s.bytes()));
        p.add(gauge("vprof_window_segments", "Files of the rolling window", "", Map.of(), s.segments()));
        p.add(counter("vprof_segments_deleted_total", "Segments deleted: past --keep, or early to stay within "
                + "--max-disk or to make room on a full disk", "", Map.of("reason", "keep"), (double) s.droppedForKeep()));
        p.add(counter("vprof_segments_deleted_total", null, "", Map.of("reason", "max_disk"), (double) s.droppedForDisk()));
        p.add(counter("vprof_disk_full_total", "Writes that failed (a full disk) and were recovered from", "", Map.of(),
                (double) s.diskFullEvents()));
        p.add(counter("vprof_disk_lost_bytes_total", "Bytes of records lost to failed writes", "By", Map.of(),
                (double) s.bytesLost()));
        Map<Dumps.Trigger, Long> taken = dumps.takenByTrigger();
        Map<Dumps.Trigger, Long> refused = dumps.refusedByTrigger();
        first = true;
        for (Dumps.Trigger t : Dumps.Trigger.values()) {
            p.add(counter("vprof_dumps_total", first ? "Dumps taken, by what asked for them" : null, "",
                    Map.of("trigger", t.label()), taken.getOrDefault(t, 0L)));
            first = false;
        }
        first = true;
        for (Dumps.Trigger t : Dumps.Trigger.values()) {
            p.add(counter("vprof_dumps_refused_total", first ? "Dump requests refused by --min-interval (or as the "
                    + "watch ended), by what asked" : null, "", Map.of("trigger", t.label()), refused.getOrDefault(t, 0L)));
            first = false;
        }
        p.add(counter("vprof_dumps_failed_total", "Dumps that could not be written", "", Map.of(), (double) dumps.failed()));
        return p;
    }

    private synchronized Map<Integer, Double> ratios(Map<Integer, Long> busyNow) {
        Map<Integer, Double> out = new TreeMap<>();
        if (samples.isEmpty()) {
            return out;
        }
        long now = System.nanoTime();
        Sample base = samples.peekFirst();
        for (Sample s : samples) {
            if (now - s.nanos() >= RATIO_WINDOW_NS) {
                base = s;
            }
        }
        long dt = now - base.nanos();
        if (dt <= 0) {
            return out;
        }
        Map<Integer, Long> then = base.busy();
        busyNow.forEach((d, b) -> out.put(d, Math.min(1.0, Math.max(0, (b - then.getOrDefault(d, 0L)) / (double) dt))));
        return out;
    }

    /** Prometheus text exposition (format 0.0.4) of {@code points}. */
    static String exposition(List<Point> points) {
        StringBuilder sb = new StringBuilder(4096);
        String described = null;
        for (Point pt : points) {
            if (!pt.name().equals(described)) {
                described = pt.name();
                String help = pt.help();
                for (Point q : points) {
                    if (help == null && q.name().equals(pt.name()) && q.help() != null) {
                        help = q.help();
                    }
                }
                sb.append("# HELP ").append(pt.name()).append(' ').append(help == null ? "" : helpText(help)).append('\n');
                sb.append("# TYPE ").append(pt.name()).append(' ').append(pt.counter() ? "counter" : "gauge").append('\n');
            }
            sb.append(pt.name());
            if (!pt.labels().isEmpty()) {
                sb.append('{');
                boolean firstLabel = true;
                for (Map.Entry<String, String> l : new TreeMap<>(pt.labels()).entrySet()) {
                    sb.append(firstLabel ? "" : ",").append(l.getKey()).append("=\"").append(labelValue(l.getValue()))
                            .append('"');
                    firstLabel = false;
                }
                sb.append('}');
            }
            sb.append(' ').append(number(pt.value())).append('\n');
        }
        return sb.toString();
    }

    private static String helpText(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static String labelValue(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String number(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (Double.isInfinite(v)) return v > 0 ? "+Inf" : "-Inf";
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return String.format(Locale.ROOT, "%.9g", v).replaceFirst("0+(e|$)", "$1").replaceFirst("\\.(e|$)", "$1");
    }

    private static Point counter(String name, String help, String unit, Map<String, String> labels, double v) {
        return new Point(name, help, true, unit, labels, v);
    }

    private static Point gauge(String name, String help, String unit, Map<String, String> labels, double v) {
        return new Point(name, help, false, unit, labels, v);
    }
}
