package dev.vprof.timeline;

import dev.vprof.capture.EventArgs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A timeline for tests: a {@link Timeline} layout with its slices in plain lists, walked in slice
 * order. The oracle the sinks are tested against, as simple as it can be: what a test adds is what
 * a walk hands out, each track sorted by start (a longer slice first, then the order added).
 */
public final class ListTimeline implements TimelineSource {
    private final Timeline layout;
    /** Whether adding counts the slice in the layout (not for a layout that counted them already). */
    private final boolean count;
    private final Map<GpuStream, List<GpuOp>> ops = new IdentityHashMap<>();
    private final Map<CpuThread, List<ApiCall>> calls = new IdentityHashMap<>();
    private final Map<CpuThread, List<Range>> ranges = new IdentityHashMap<>();

    private record Range(int nameId, long start, long end, int domainId, ThreadSliceKind kind) {}

    private static final Comparator<SliceView> SLICE_ORDER =
            Comparator.comparingLong(SliceView::start).thenComparing(Comparator.comparingLong(SliceView::end).reversed());

    public ListTimeline() {
        this(new Timeline(), true);
    }

    private ListTimeline(Timeline layout, boolean count) {
        this.layout = layout;
        this.count = count;
    }

    /**
     * What one walk of {@code source} hands out, as lists over its layout: written from, it gives
     * what a source gives whose every track is sorted by the simplest means.
     */
    public static ListTimeline of(TimelineSource source) throws IOException {
        ListTimeline t = new ListTimeline(source.layout(), false);
        source.walk(new TimelineVisitor() {
            @Override
            public void gpuOp(GpuStream stream, GpuOp op) {
                GpuOp copy = new GpuOp();
                copy.load(op.nameAndKind(), op.start(), op.end(), (int) op.correlationId(), op.aux0(), op.aux1());
                t.add(stream, copy.graphNode(op.graphNodeId()));
            }

            @Override
            public void apiCall(CpuThread thread, ApiCall call) {
                t.apiCall(thread, call.kind(), call.nameId(), call.start(), call.end(), call.correlationId(),
                        call.callbackId());
            }

            @Override
            public void threadSlice(CpuThread thread, ThreadSliceKind kind, int nameId, long startNs, long endNs,
                                    int domainId, EventArgs args) {
                t.slice(thread, kind, nameId, startNs, endNs, domainId);
            }
        });
        return t;
    }

    @Override
    public Timeline layout() {
        return layout;
    }

    public int intern(String s) {
        return layout.intern(s);
    }

    public StringTable strings() {
        return layout.strings();
    }

    public TimelineProcess process(int pid) {
        return layout.process(pid);
    }

    public TimelineProcess process(int pid, String name, List<String> commandLine) {
        return layout.process(pid, name, commandLine);
    }

    public List<TimelineProcess> processes() {
        return layout.processes();
    }

    public void addRequest(Request r) {
        layout.addRequest(r);
    }

    public void addSpan(ServiceSpan s) {
        layout.addSpan(s);
    }

    public CounterTrack counter(String name, CounterKind kind, String unit) {
        return layout.counter(name, kind, unit);
    }

    /** Adds a kernel to {@code stream}; returns it, to set a graph node on. */
    public GpuOp kernel(GpuStream stream, int nameId, long startNs, long endNs, long correlationId,
                        int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                        int registersPerThread, int sharedMemoryBytes) {
        return add(stream, new GpuOp().kernel(nameId, startNs, endNs, correlationId, gridX, gridY, gridZ,
                blockX, blockY, blockZ, registersPerThread, sharedMemoryBytes));
    }

    public GpuOp memcpy(GpuStream stream, int nameId, long startNs, long endNs, long correlationId, long bytes,
                        int copyKind, int srcKind, int dstKind) {
        return add(stream, new GpuOp().memcpy(nameId, startNs, endNs, correlationId, bytes, copyKind, srcKind, dstKind));
    }

    public GpuOp memset(GpuStream stream, int nameId, long startNs, long endNs, long correlationId, long bytes,
                        int value) {
        return add(stream, new GpuOp().memset(nameId, startNs, endNs, correlationId, bytes, value));
    }

    private GpuOp add(GpuStream stream, GpuOp op) {
        if (count) {
            stream.count(op);
        }
        ops.computeIfAbsent(stream, s -> new ArrayList<>()).add(op);
        return op;
    }

    public void apiCall(CpuThread thread, ApiKind kind, int nameId, long startNs, long endNs, long correlationId,
                        int callbackId) {
        ApiCall call = new ApiCall().set(kind, nameId, startNs, endNs, correlationId, callbackId);
        if (count) {
            thread.countApiCall(call);
        }
        calls.computeIfAbsent(thread, t -> new ArrayList<>()).add(call);
    }

    /** Adds an NVTX range ({@code domainId} 0: the default domain). */
    public void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) {
        slice(thread, ThreadSliceKind.NVTX_RANGE, nameId, startNs, endNs, domainId);
    }

    /** Adds a slice of a thread's range track: an NVTX range or a CPU op. */
    public void slice(CpuThread thread, ThreadSliceKind kind, int nameId, long startNs, long endNs, int domainId) {
        if (endNs < startNs) {
            throw new IllegalArgumentException("NVTX range on thread " + thread.tid() + " ends before it starts");
        }
        if (count) {
            thread.countRange(startNs);
        }
        ranges.computeIfAbsent(thread, t -> new ArrayList<>()).add(new Range(nameId, startNs, endNs, domainId, kind));
    }

    /** The ops of {@code stream}, in the order a walk hands them out. */
    public List<GpuOp> ops(GpuStream stream) {
        return sorted(ops.getOrDefault(stream, List.of()));
    }

    /** Track by track, in the layout's order: each stream's ops, then each thread's ranges and API calls. */
    @Override
    public void walk(TimelineVisitor visitor) throws IOException {
        for (TimelineProcess p : layout.processes()) {
            for (GpuDevice d : p.devices()) {
                for (GpuStream s : d.streams()) {
                    for (GpuOp op : sorted(ops.getOrDefault(s, List.of()))) {
                        visitor.gpuOp(s, op);
                    }
                }
            }
            for (CpuThread t : p.threads()) {
                walkRanges(t, ranges.getOrDefault(t, List.of()), visitor);
                for (ApiCall call : sorted(calls.getOrDefault(t, List.of()))) {
                    visitor.apiCall(t, call);
                }
            }
        }
    }

    private static <T extends SliceView> List<T> sorted(List<T> slices) {
        List<T> out = new ArrayList<>(slices);
        out.sort(SLICE_ORDER); // stable: ties keep the order added
        return out;
    }

    /** A thread's ranges: each complete, then (if wanted) as nested starts and ends in time order. */
    private static void walkRanges(CpuThread t, List<Range> added, TimelineVisitor visitor) throws IOException {
        List<Range> r = new ArrayList<>(added);
        r.sort(Comparator.comparingLong(Range::start).thenComparing(Comparator.comparingLong(Range::end).reversed()));
        for (Range x : r) {
            visitor.threadSlice(t, x.kind(), x.nameId(), x.start(), x.end(), x.domainId(), null);
        }
        if (r.isEmpty() || !visitor.nestedRanges()) {
            return;
        }
        int n = r.size();
        List<Integer> byEnd = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byEnd.add(i);
        }
        byEnd.sort(Comparator.comparingLong(i -> r.get(i).end())); // ties in start order
        RangeNesting nesting = new RangeNesting(t, visitor);
        int e = 0;
        for (int i = 0; i < n; i++) {
            while (e < n && r.get(byEnd.get(e)).end() < r.get(i).start()) {
                nesting.end(byEnd.get(e), r.get(byEnd.get(e)).end(), byEnd.get(e));
                e++;
            }
            nesting.start(i, r.get(i).start(), r.get(i).nameId(), r.get(i).domainId());
        }
        for (; e < n; e++) {
            nesting.end(byEnd.get(e), r.get(byEnd.get(e)).end(), byEnd.get(e));
        }
        nesting.finish();
    }
}
