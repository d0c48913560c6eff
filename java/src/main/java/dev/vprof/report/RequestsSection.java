package dev.vprof.report;

import dev.vprof.capture.CaptureReader;
import dev.vprof.metrics.WindowStats.Latency;
import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanWindow;
import dev.vprof.time.CaptureWindow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The report's requests: each llm_request span's time before the engine, queue, prefill and decode, and the GPU busy time
 * that overlapped each phase. The spans are read before the records pass so that the pass can feed
 * kernels (in epoch ns) to a {@link GpuOverlap} evaluated at the phases' ends.
 */
final class RequestsSection {
    /** Outside spans listed by name in the report; the rest are counted. */
    static final int MAX_OUTSIDE_LISTED = 100;
    /** Reorder window per process: about two 1 MiB RECORDS chunks of 32-byte kernels. */
    static final int WINDOW_PER_PROCESS = 1 << 16;
    static final int MAX_WINDOW = 1 << 22;

    private final List<Span> spans;
    private final List<RequestSlice> requests;
    private final GpuOverlap overlap;

    private RequestsSection(List<Span> spans, List<RequestSlice> requests, GpuOverlap overlap) {
        this.spans = spans;
        this.requests = requests;
        this.overlap = overlap;
    }

    /** The capture's own spans and {@code extra} ones (--spans); null when there are none. */
    static RequestsSection prepare(CaptureReader reader, List<Span> extra, List<String> notes) {
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
        GpuOverlap overlap = null;
        if (!requests.isEmpty()) {
            long[] points = new long[requests.size() * 5];
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
            int window = (int) Math.min(MAX_WINDOW, (long) WINDOW_PER_PROCESS * Math.max(1, reader.processes().size()));
            overlap = new GpuOverlap(Arrays.copyOf(points, n), window);
        }
        return new RequestsSection(all, requests, overlap);
    }

    /** Whether kernels should be fed (there are requests to credit them to). */
    boolean wantsKernels() {
        return overlap != null;
    }

    void kernel(long startEpochNs, long endEpochNs) {
        overlap.add(startEpochNs, endEpochNs);
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
