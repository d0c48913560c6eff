package dev.vprof.report;

import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.Sink;
import dev.vprof.capture.CaptureReader;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.time.CaptureWindow;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's per-request figures for other analyses ({@code vprof diff}): each llm_request's
 * phases and the GPU busy time that overlapped each, computed by the same pieces the report uses
 * (the spans read before the records pass, kernels fed in epoch ns during it), and the metrics
 * section over any window. One instance serves every window of one capture.
 */
public final class RequestFigures {
    private final RequestsSection section;

    private RequestFigures(RequestsSection section) {
        this.section = section;
    }

    /** Null when the capture holds no spans. Notes about the spans go to {@code notes}. */
    public static RequestFigures prepare(CaptureReader reader, List<String> notes) {
        RequestsSection s = RequestsSection.prepare(reader, List.of(), notes);
        return s == null ? null : new RequestFigures(s);
    }

    /** Whether kernels should be fed (there are requests to credit them to). */
    public boolean wantsKernels() {
        return section.wantsKernels();
    }

    /** What takes the kernels of an aggregation pass (in epoch ns): their GPU time credited to the requests' phases. */
    public Sink sink() {
        return new Sink() {
            @Override
            public void kernel(Kernel k) {
                section.kernel(k.startEpochNs(), k.endEpochNs());
            }
        };
    }

    /** Every request, with its phases and their GPU time (call after the records pass). */
    public List<Report.RequestSummary> requests(CaptureWindow window) {
        return section.requests(window);
    }

    /** The requests' spans as sliced into phases, in the order of {@link #requests}. */
    public List<RequestSlice> slices() {
        return section.slices();
    }

    /** TTFT in seconds as the report takes it: vLLM's own attribute, else queue + prefill. */
    public static double ttftSeconds(RequestSlice r) {
        return RequestsSection.ttftSeconds(r);
    }

    /** The metrics section of the report over {@code window}; null without metrics. */
    public static Report.MetricsSummary metrics(CaptureReader reader, CaptureWindow window) {
        MetricsSection.Result r = MetricsSection.build(reader, window, new ArrayList<>());
        return r == null ? null : r.summary();
    }
}
