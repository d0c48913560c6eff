package dev.vprof.report;

import dev.vprof.aggregate.GpuOverlap;
import dev.vprof.aggregate.InsideUnion;
import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.Sink;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.metrics.WindowStats.Latency;
import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanWindow;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Intervals;
import dev.vprof.time.Selection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The report's requests: each llm_request span's time before the engine, queue, prefill and decode, and the GPU busy time
 * that overlapped each phase. The spans are read before the records pass so that the pass can feed
 * kernels (in epoch ns) to a {@link GpuOverlap} evaluated at the phases' ends, and, by name, to the
 * kernels inside the slowest requests' phases ({@link InsideUnion}).
 */
final class RequestsSection implements Sink {
    /** Outside spans listed by name in the report; the rest are counted. */
    static final int MAX_OUTSIDE_LISTED = 100;
    /** Reorder window per process: about two 1 MiB RECORDS chunks of 32-byte kernels. */
    static final int WINDOW_PER_PROCESS = 1 << 16;
    static final int MAX_WINDOW = 1 << 22;

    /**
     * The requests whose prefill and decode windows the report names kernels in: the slowest
     * {@value #SLOW_PERCENT} % by e2e (at least one), picked by the rule {@code vprof diff} uses.
     */
    static final double SLOW_PERCENT = 10;

    private final List<Span> spans;
    private final List<RequestSlice> requests;
    private final GpuOverlap overlap;
    /** The union of the requests' queue phases (inside the recorded window, if any). */
    private final Intervals queued;
    /** The kernels inside the union of the slowest requests' prefill windows, and of their decode windows. */
    private final InsideUnion slowPrefill;
    private final InsideUnion slowDecode;
    private final int slowRequests;

    private RequestsSection(List<Span> spans, List<RequestSlice> requests, GpuOverlap overlap, Intervals queued,
                            Intervals slowPrefill, Intervals slowDecode, int slowRequests) {
        this.spans = spans;
        this.requests = requests;
        this.overlap = overlap;
        this.queued = queued;
        this.slowPrefill = new InsideUnion(slowPrefill);
        this.slowDecode = new InsideUnion(slowDecode);
        this.slowRequests = slowRequests;
    }

    /** The capture's own spans and {@code extra} ones (--spans); null when there are none. */
    static RequestsSection prepare(CaptureReader reader, List<Span> extra, List<String> notes) {
        return prepare(reader, extra, notes, null);
    }

    /**
     * As {@link #prepare(CaptureReader, List, List)}; the time requests spent queued is read inside
     * {@code only} when given, else inside the window the capture recorded (all of it without one).
     */
    static RequestsSection prepare(CaptureReader reader, List<Span> extra, List<String> notes, CaptureWindow only) {
        if (!reader.hasSpans() && extra.isEmpty()) {
            return null;
        }
        List<Span> all = new ArrayList<>(extra);
        if (reader.hasSpans()) {
            CaptureReader.Spans read = reader.spans();
            notes.addAll(read.notes());
            all.addAll(0, read.spans());
        }
        List<RequestSlice> requests = RequestPhases.split(all).requests();
        CaptureWindow clip = only != null ? only : CaptureWindow.choose(reader.window().orElse(null), Long.MAX_VALUE,
                Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE);
        long from = clip.source().equals("none") ? Long.MIN_VALUE : clip.startNs();
        long to = clip.source().equals("none") ? Long.MAX_VALUE : clip.endNs();
        List<long[]> queues = new ArrayList<>();
        long[] e2e = new long[requests.size()];
        for (int i = 0; i < requests.size(); i++) {
            RequestSlice r = requests.get(i);
            RequestSlice.Phase q = r.phase(RequestPhases.QUEUE);
            queues.add(new long[] {q.startEpochNs(), q.endEpochNs()});
            e2e[i] = r.endEpochNs() - r.startEpochNs();
        }
        Intervals queued = Intervals.union(queues, from, to);
        boolean[] slow = Selection.slowest(SLOW_PERCENT).pick(e2e);
        List<long[]> prefills = new ArrayList<>();
        List<long[]> decodes = new ArrayList<>();
        int slowCount = 0;
        for (int i = 0; i < slow.length; i++) {
            if (slow[i]) {
                slowCount++;
                RequestSlice.Phase p = requests.get(i).phase(RequestPhases.PREFILL);
                RequestSlice.Phase d = requests.get(i).phase(RequestPhases.DECODE);
                prefills.add(new long[] {p.startEpochNs(), p.endEpochNs()});
                decodes.add(new long[] {d.startEpochNs(), d.endEpochNs()});
            }
        }
        GpuOverlap overlap = null;
        if (!requests.isEmpty()) {
            long[] queuedEdges = queued.edges();
            long[] points = new long[requests.size() * 5 + queuedEdges.length];
            int n = 0;
            for (RequestSlice r : requests) {
                for (String phase : RequestPhases.PHASES) {
                    RequestSlice.Phase p = r.phase(phase);
                    points[n++] = p.startEpochNs();
                    if (phase.equals(RequestPhases.DECODE)) {
                        points[n++] = p.endEpochNs();
                    }
                }
            }
            for (long t : queuedEdges) {
                points[n++] = t;
            }
            int window = (int) Math.min(MAX_WINDOW, (long) WINDOW_PER_PROCESS * Math.max(1, reader.processes().size()));
            overlap = new GpuOverlap(Arrays.copyOf(points, n), window);
        }
        return new RequestsSection(all, requests, overlap, queued,
                Intervals.union(prefills, Long.MIN_VALUE, Long.MAX_VALUE),
                Intervals.union(decodes, Long.MIN_VALUE, Long.MAX_VALUE), slowCount);
    }

    /** Whether kernels should be fed (there are requests to credit them to). */
    boolean wantsKernels() {
        return overlap != null;
    }

    void kernel(long startEpochNs, long endEpochNs) {
        overlap.add(startEpochNs, endEpochNs);
    }

    /** A kernel of the report's scope: its GPU time credited to the phases, and tallied in the slowest requests' phases. */
    @Override
    public void kernel(Kernel k) {
        overlap.add(k.startEpochNs(), k.endEpochNs());
        slowPrefill.kernel(k);
        slowDecode.kernel(k);
    }

    /**
     * The top kernels inside the slowest requests' prefill and decode windows (call after the pass);
     * null without requests.
     */
    Report.SlowPhaseKernels slowPhaseKernels(int top, KernelNames names) {
        if (requests.isEmpty()) {
            return null;
        }
        return new Report.SlowPhaseKernels(SLOW_PERCENT, slowRequests, "e2e", slowPrefill.union().totalNs(),
                slowDecode.union().totalNs(), ranked(slowPrefill.byName(), top, names),
                ranked(slowDecode.byName(), top, names));
    }

    private static List<Report.PhaseKernel> ranked(Map<String, long[]> tally, int top, KernelNames names) {
        return tally.entrySet().stream()
                .map(e -> new Report.PhaseKernel(names.show(e.getKey()), e.getValue()[0], e.getValue()[1]))
                .sorted(Comparator.comparingLong(Report.PhaseKernel::gpuNsInside).reversed()
                        .thenComparing(Report.PhaseKernel::name))
                .limit(Math.max(0, top))
                .toList();
    }

    /**
     * What the spans say about the queue: how long at least one request waited (inside the window
     * read), the GPU busy time during it, and the most requests waiting, and in their model phases
     * (prefill or decode), at the same instant.
     */
    Report.QueueFacts queueFacts() {
        long queuedNs = queued.totalNs();
        long busy = overlap == null || queued.isEmpty() ? 0 : overlap.busyIn(queued);
        List<long[]> waiting = new ArrayList<>();
        List<long[]> model = new ArrayList<>();
        for (RequestSlice r : requests) {
            RequestSlice.Phase q = r.phase(RequestPhases.QUEUE);
            waiting.add(new long[] {q.startEpochNs(), q.endEpochNs()});
            model.add(new long[] {r.phase(RequestPhases.PREFILL).startEpochNs(),
                    r.phase(RequestPhases.DECODE).endEpochNs()});
        }
        return new Report.QueueFacts(queuedNs, busy, queuedNs > 0 ? (double) busy / queuedNs : null,
                mostAtOnce(waiting), mostAtOnce(model));
    }

    /** The most of these [start, end) intervals that hold one instant; an end before a start at the same time. */
    static long mostAtOnce(List<long[]> intervals) {
        List<long[]> edges = new ArrayList<>();
        for (long[] i : intervals) {
            if (i[1] > i[0]) {
                edges.add(new long[] {i[0], 1});
                edges.add(new long[] {i[1], -1});
            }
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long now = 0, most = 0;
        for (long[] e : edges) {
            now += e[1];
            most = Math.max(most, now);
        }
        return most;
    }

    Report.SpansSummary spans(CaptureWindow window) {
        SpanWindow.Result placed = SpanWindow.filter(spans, window.startNs(), window.endNs());
        List<Report.OutsideSpan> listed = new ArrayList<>();
        for (Span s : placed.outside()) {
            if (listed.size() == MAX_OUTSIDE_LISTED) {
                break;
            }
            listed.add(new Report.OutsideSpan(s.traceIdHex(), s.spanIdHex(), s.serviceName(), s.name(),
                    s.startEpochNs(), s.endEpochNs()));
        }
        return new Report.SpansSummary(spans.size(), requests.size(), placed.outside().size(), placed.before(),
                placed.after(), placed.straddling(), placed.describe(), listed,
                overlap != null && overlap.lateIntervals() > 0);
    }

    List<Report.RequestSummary> requests(CaptureWindow window) {
        List<Report.RequestSummary> out = new ArrayList<>(requests.size());
        for (RequestSlice r : requests) {
            RequestSlice.Phase b = r.phase(RequestPhases.BEFORE_ENGINE);
            RequestSlice.Phase q = r.phase(RequestPhases.QUEUE);
            RequestSlice.Phase p = r.phase(RequestPhases.PREFILL);
            RequestSlice.Phase d = r.phase(RequestPhases.DECODE);
            // The longest phase; ties go to the earlier engine phase, and to the engine over the time before it.
            RequestSlice.Phase dominant = q;
            for (RequestSlice.Phase x : List.of(p, d)) {
                if (x.durationNs() > dominant.durationNs()) {
                    dominant = x;
                }
            }
            if (b.durationNs() > dominant.durationNs()) {
                dominant = b;
            }
            boolean inWindow = r.endEpochNs() >= window.startNs() && r.startEpochNs() <= window.endNs();
            out.add(new Report.RequestSummary(r.span().traceIdHex(), r.requestId(), r.startEpochNs(),
                    r.endEpochNs() - r.startEpochNs(), b.durationNs(), q.durationNs(), p.durationNs(), d.durationNs(),
                    gpu(b), gpu(q), gpu(p), gpu(d), dominant.name(), inWindow, r.anomalies()));
        }
        return out;
    }

    /**
     * The latencies of the requests whose span ended inside the window, every figure exact: queue,
     * prefill and decode as laid out on the timeline, TTFT as vLLM stamped it (queue + prefill when
     * it did not), e2e as the span's own length. Null when no request ended inside the window.
     */
    Latencies.FromSpans latencies(CaptureWindow window) {
        List<double[]> rows = new ArrayList<>();
        for (RequestSlice r : requests) {
            if (r.endEpochNs() < window.startNs() || r.endEpochNs() > window.endNs()) {
                continue;
            }
            double queue = r.phase(RequestPhases.QUEUE).durationNs() / 1e9;
            double prefill = r.phase(RequestPhases.PREFILL).durationNs() / 1e9;
            double decode = r.phase(RequestPhases.DECODE).durationNs() / 1e9;
            double ttft = ttftSeconds(r);
            rows.add(new double[] {ttft, queue, prefill, decode, (r.endEpochNs() - r.startEpochNs()) / 1e9});
        }
        if (rows.isEmpty()) {
            return null;
        }
        Latency[] out = new Latency[5];
        for (int c = 0; c < 5; c++) {
            double[] column = new double[rows.size()];
            for (int i = 0; i < column.length; i++) {
                column[i] = rows.get(i)[c];
            }
            out[c] = Latency.ofObservations(column);
        }
        return new Latencies.FromSpans(rows.size(), out[0], out[1], out[2], out[3], out[4]);
    }

    /** TTFT in seconds: as vLLM stamped it, else queue + prefill as laid out on the timeline. */
    static double ttftSeconds(RequestSlice r) {
        AnyValue ttftAttr = r.span().attribute(RequestPhases.ATTR_TTFT);
        double ttft = ttftAttr == null ? Double.NaN : ttftAttr.asDouble();
        if (!(ttft >= 0) || Double.isInfinite(ttft)) {
            ttft = (r.phase(RequestPhases.QUEUE).durationNs() + r.phase(RequestPhases.PREFILL).durationNs()) / 1e9;
        }
        return ttft;
    }

    /** The requests as sliced into phases, in the order {@link #requests} lists them. */
    List<RequestSlice> slices() {
        return requests;
    }

    static List<Report.RequestSummary> slowest(List<Report.RequestSummary> requests, int n) {
        return requests.stream()
                .sorted(Comparator.comparingLong(Report.RequestSummary::e2eNs).reversed()
                        .thenComparing(Report.RequestSummary::requestId))
                .limit(Math.max(0, n))
                .toList();
    }

    private long gpu(RequestSlice.Phase phase) {
        return overlap == null ? 0 : overlap.busyBetween(phase.startEpochNs(), phase.endEpochNs());
    }
}
