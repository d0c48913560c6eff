package dev.vprof.timeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The layout of everything one capture put on its single clock (epoch nanoseconds): processes with
 * their GPUs, streams and threads in the order they appeared, capture ranges, requests and other
 * spans, metric series, the names, the earliest time and which correlation ids link a launch to
 * its GPU work. Slices (GPU ops, API calls, NVTX ranges) are only counted here: a walk over the
 * source hands them out ({@link TimelineSource}). An adapter builds it incrementally; the exporters
 * read it and know nothing of where the records came from.
 *
 * <p>Not thread-safe: build it on one thread, then hand it to writers.
 */
public final class Timeline {
    private final StringTable strings = new StringTable();
    private final Map<Integer, TimelineProcess> processes = new LinkedHashMap<>();
    private final List<Request> requests = new ArrayList<>();
    private final List<ServiceSpan> spans = new ArrayList<>();
    private final Map<String, CounterTrack> counters = new LinkedHashMap<>();
    private OptionalLong bootOffsetNs = OptionalLong.empty();

    public StringTable strings() {
        return strings;
    }

    /** Shorthand for {@code strings().intern(s)}. */
    public int intern(String s) {
        return strings.intern(s);
    }

    /** The process with this pid, created (with this name and command line) on first use. */
    public TimelineProcess process(int pid, String name, List<String> commandLine) {
        return processes.computeIfAbsent(pid, p -> new TimelineProcess(p, name, commandLine));
    }

    /** The process with this pid, created without a name on first use. */
    public TimelineProcess process(int pid) {
        return process(pid, "", List.of());
    }

    public List<TimelineProcess> processes() {
        return Collections.unmodifiableList(new ArrayList<>(processes.values()));
    }

    public void addRequest(Request r) {
        requests.add(r);
    }

    public List<Request> requests() {
        return Collections.unmodifiableList(requests);
    }

    public void addSpan(ServiceSpan s) {
        spans.add(s);
    }

    public List<ServiceSpan> spans() {
        return Collections.unmodifiableList(spans);
    }

    /** The spans grouped by service, services in the order their first span was added. */
    public Map<String, List<ServiceSpan>> spansByService() {
        Map<String, List<ServiceSpan>> byService = new LinkedHashMap<>();
        for (ServiceSpan s : spans) {
            byService.computeIfAbsent(s.service(), k -> new ArrayList<>()).add(s);
        }
        return byService;
    }

    /** The counter track with this name, created on first use; a name keeps the kind it was created with. */
    public CounterTrack counter(String name, CounterKind kind, String unit) {
        CounterTrack t = counters.computeIfAbsent(name, n -> new CounterTrack(n, kind, unit));
        if (t.kind() != kind) {
            throw new IllegalArgumentException("counter '" + name + "' already exists as " + t.kind() + ", not " + kind);
        }
        return t;
    }

    public List<CounterTrack> counters() {
        return Collections.unmodifiableList(new ArrayList<>(counters.values()));
    }

    /**
     * Where the host the times were read on had booted, on its wall clock (CLOCK_REALTIME −
     * CLOCK_BOOTTIME, ns): what turns the timeline's epoch times into that host's CLOCK_BOOTTIME.
     * Empty for a source that recorded no boot time (a PyTorch trace, an older capture): a sink
     * must then not claim one.
     */
    public OptionalLong bootOffsetNs() {
        return bootOffsetNs;
    }

    public void bootOffsetNs(long realtimeMinusBoottimeNs) {
        this.bootOffsetNs = OptionalLong.of(realtimeMinusBoottimeNs);
    }

    /** The earliest time of anything on the timeline, or {@code Long.MAX_VALUE} when it is empty. */
    public long earliestNs() {
        long min = Long.MAX_VALUE;
        for (TimelineProcess p : processes.values()) {
            for (GpuDevice d : p.devices()) {
                for (GpuStream s : d.streams()) {
                    min = Math.min(min, s.firstStart());
                }
            }
            for (CpuThread t : p.threads()) {
                min = Math.min(min, t.ranges().firstStart());
                min = Math.min(min, t.apiCalls().firstStart());
            }
            for (CaptureRange r : p.captureRanges()) {
                min = Math.min(min, r.startNs());
            }
        }
        for (Request r : requests) {
            min = Math.min(min, r.startNs());
            for (Phase ph : r.phases()) {
                min = Math.min(min, ph.startNs());
            }
        }
        for (ServiceSpan s : spans) {
            min = Math.min(min, s.startNs());
        }
        for (CounterTrack c : counters.values()) {
            if (c.size() > 0) {
                min = Math.min(min, c.time(0));
            }
        }
        return min;
    }
}
