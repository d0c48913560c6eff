package dev.vprof.timeline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one capture put on its single clock (epoch nanoseconds): processes with their GPUs and
 * threads, requests and other spans, and metric series. An adapter builds it incrementally; the
 * exporters read it and know nothing of where the records came from.
 *
 * <p>A timeline either keeps its slices (GPU ops, API calls, NVTX ranges) in columns, or, made with
 * {@link #layoutOnly()}, only counts them: then it is the layout of a capture too large to hold,
 * whose slices a walk streams from the file ({@link TimelineSource}). Everything else (processes,
 * devices, streams and threads in the order they appeared, capture ranges, requests, spans,
 * counters, the earliest time, which correlation ids link a launch to its GPU work) is the same in
 * both.
 *
 * <p>Not thread-safe: build it on one thread, then hand it to writers.
 */
public final class Timeline implements TimelineSource {
    private final boolean keep;
    private final StringTable strings = new StringTable();
    private final Map<Integer, TimelineProcess> processes = new LinkedHashMap<>();
    private final List<Request> requests = new ArrayList<>();
    private final List<Span> spans = new ArrayList<>();
    private final Map<String, CounterTrack> counters = new LinkedHashMap<>();

    /** A timeline that keeps every slice. */
    public Timeline() {
        this(true);
    }

    private Timeline(boolean keep) {
        this.keep = keep;
    }

    /**
     * A timeline that counts slices instead of keeping them: the layout of a streamed capture. Its
     * sizes, earliest time and launch links are those of the whole capture; reading a slice throws.
     */
    public static Timeline layoutOnly() {
        return new Timeline(false);
    }

    /** Whether this timeline keeps its slices (false for a layout-only one). */
    public boolean keepsSlices() {
        return keep;
    }

    public StringTable strings() {
        return strings;
    }

    /** Shorthand for {@code strings().intern(s)}. */
    public int intern(String s) {
        return strings.intern(s);
    }

    /** The process with this pid, created (with this name and command line) on first use. */
    public TimelineProcess process(int pid, String name, List<String> commandLine) {
        return processes.computeIfAbsent(pid, p -> new TimelineProcess(p, name, commandLine, keep));
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

    public void addSpan(Span s) {
        spans.add(s);
    }

    public List<Span> spans() {
        return Collections.unmodifiableList(spans);
    }

    /** The spans grouped by service, services in the order their first span was added. */
    public Map<String, List<Span>> spansByService() {
        Map<String, List<Span>> byService = new LinkedHashMap<>();
        for (Span s : spans) {
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
        for (Span s : spans) {
            min = Math.min(min, s.startNs());
        }
        for (CounterTrack c : counters.values()) {
            if (c.size() > 0) {
                min = Math.min(min, c.time(0));
            }
        }
        return min;
    }

    // ---- the timeline as its own source ----

    @Override
    public Timeline layout() {
        return this;
    }

    /**
     * Walks the kept slices track by track: each stream and thread is sorted by start first (in
     * place, so a timeline is walked from one thread at a time).
     */
    @Override
    public void walk(TimelineVisitor visitor) throws IOException {
        if (!keep) {
            throw new IllegalStateException("a layout-only timeline keeps no slices to walk; walk the source it "
                    + "describes");
        }
        GpuOp op = new GpuOp();
        ApiCall call = new ApiCall();
        for (TimelineProcess p : processes.values()) {
            for (GpuDevice d : p.devices()) {
                for (GpuStream s : d.streams()) {
                    s.sortByStart();
                    for (int i = 0, n = s.size(); i < n; i++) {
                        visitor.gpuOp(s, s.op(i, op));
                    }
                }
            }
            for (CpuThread t : p.threads()) {
                walkRanges(t, visitor);
                ThreadSlices calls = t.apiCalls();
                calls.sortByStart();
                for (int i = 0, n = calls.size(); i < n; i++) {
                    visitor.apiCall(t, t.apiCall(i, call));
                }
            }
        }
    }

    /** A thread's ranges: each complete, then (if wanted) as starts and ends in time order. */
    private static void walkRanges(CpuThread t, TimelineVisitor visitor) throws IOException {
        ThreadSlices r = t.ranges();
        int n = r.size();
        if (n == 0) {
            return;
        }
        r.sortByStart();
        for (int i = 0; i < n; i++) {
            visitor.range(t, r.nameId(i), r.start(i), r.end(i), r.tag(i));
        }
        if (!visitor.nestedRanges()) {
            return;
        }
        // Starts are in order already; ends by end time, ties in the order recorded.
        Integer[] byEnd = new Integer[n];
        for (int i = 0; i < n; i++) {
            byEnd[i] = i;
        }
        Arrays.sort(byEnd, (a, b) -> r.end(a) != r.end(b) ? Long.compare(r.end(a), r.end(b)) : Integer.compare(a, b));
        RangeNesting nesting = new RangeNesting(t, visitor);
        int e = 0;
        for (int i = 0; i < n; i++) {
            while (e < n && r.end(byEnd[e]) < r.start(i)) {
                nesting.end(byEnd[e], r.end(byEnd[e]), byEnd[e]);
                e++;
            }
            nesting.start(i, r.start(i), r.nameId(i), r.tag(i));
        }
        for (; e < n; e++) {
            nesting.end(byEnd[e], r.end(byEnd[e]), byEnd[e]);
        }
        nesting.finish();
    }
}
