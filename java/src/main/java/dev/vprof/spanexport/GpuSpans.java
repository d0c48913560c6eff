package dev.vprof.spanexport;

import dev.vprof.VprofVersion;
import dev.vprof.aggregate.InFlight;
import dev.vprof.aggregate.KernelPass;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanKind;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import dev.vprof.time.Clocks;
import dev.vprof.time.Scope;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A capture's request spans, enriched with what the GPU did while each ran, for the person's own
 * tracing stack: every llm_request span as it was received (same trace, span and parent ids), plus
 * the attributes {@code vprof.capture_id}, {@code vprof.gpu.busy_ns.queue|prefill|decode} (the
 * report's GPU busy time in each phase: one rule, {@link CaptureReport}), {@code
 * vprof.kernel_count} and {@code vprof.top_kernels} (the kernels that ran while the request was
 * in flight, by their time), and one child span per phase ({@code vprof.queue}, {@code
 * vprof.prefill}, {@code vprof.decode}) with its GPU busy time. Child span ids are derived from
 * the request's span id and the phase, so a second export sends the same ids.
 */
public final class GpuSpans {
    private GpuSpans() {}

    /** Top kernels named per request. */
    static final int TOP = 3;
    public static final String SCOPE = "dev.vprof";

    /** The enriched spans of the capture (empty when it holds no llm_request span). */
    public static List<Span> of(CaptureReader reader) {
        List<RequestSlice> requests = RequestPhases.split(reader.spans().spans()).requests();
        if (requests.isEmpty()) {
            return List.of();
        }
        Report report = CaptureReport.build(reader, 1);
        Map<String, Report.RequestSummary> gpu = new HashMap<>();
        for (Report.RequestSummary r : report.requests()) {
            gpu.put(r.traceId() + "/" + r.requestId(), r);
        }
        InFlight kernels = inFlight(reader, requests);
        KernelNames names = KernelNames.demangled();
        String captureId = captureId(reader);
        List<Span> out = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            RequestSlice r = requests.get(i);
            Span s = r.span();
            Report.RequestSummary g = gpu.get(s.traceIdHex() + "/" + r.requestId());
            List<Attribute> attrs = new ArrayList<>(s.attributes());
            attrs.add(Attribute.of("vprof.capture_id", captureId));
            long[] phaseGpu = g == null ? new long[] {-1, -1, -1}
                    : new long[] {g.gpuNsInQueue(), g.gpuNsInPrefill(), g.gpuNsInDecode()};
            String[] phases = {RequestPhases.QUEUE, RequestPhases.PREFILL, RequestPhases.DECODE};
            for (int p = 0; p < 3; p++) {
                if (phaseGpu[p] >= 0) {
                    attrs.add(Attribute.of("vprof.gpu.busy_ns." + phases[p], phaseGpu[p]));
                }
            }
            attrs.add(Attribute.of("vprof.kernel_count", kernels.count(i)));
            List<AnyValue> top = new ArrayList<>();
            for (String k : kernels.top(i, TOP)) {
                top.add(new AnyValue.StringValue(names.show(k)));
            }
            attrs.add(new Attribute("vprof.top_kernels", new AnyValue.ArrayValue(top)));
            out.add(new Span(s.traceId(), s.spanId(), s.parentSpanId(), s.name(), s.kind(), s.startEpochNs(),
                    s.endEpochNs(), attrs, s.status(), s.statusMessage(), s.serviceName(), s.scopeName(),
                    s.scopeVersion()));
            for (int p = 0; p < 3; p++) {
                RequestSlice.Phase ph = r.phase(phases[p]);
                List<Attribute> pa = new ArrayList<>();
                pa.add(Attribute.of("vprof.capture_id", captureId));
                pa.add(Attribute.of("gen_ai.request.id", r.requestId()));
                if (phaseGpu[p] >= 0) {
                    pa.add(Attribute.of("vprof.gpu.busy_ns", phaseGpu[p]));
                }
                out.add(new Span(s.traceId(), childId(s.spanId(), phases[p]), s.spanId(), "vprof." + phases[p],
                        SpanKind.INTERNAL, ph.startEpochNs(), ph.endEpochNs(), pa, null, null, s.serviceName(), SCOPE,
                        VprofVersion.get()));
            }
        }
        return out;
    }

    static byte[] childId(byte[] parent, String phase) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(parent);
            sha.update(phase.getBytes(StandardCharsets.UTF_8));
            byte[] id = Arrays.copyOf(sha.digest(), Span.SPAN_ID_BYTES);
            if (ByteBuffer.wrap(id).getLong() == 0) {
                id[0] = 1; // an all-zero span id is invalid in OTLP
            }
            return id;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The capture's identity: host and start, as the file says them. */
    static String captureId(CaptureReader reader) {
        CaptureMetadata md = reader.metadata().orElse(null);
        String basis = md == null ? reader.path().toString() : md.host() + "|" + md.startEpochNs();
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(basis.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Per request, the kernels that ran while it was in flight (from its arrival to its end): the
     * aggregation's kernels inside intervals, in one pass.
     */
    private static InFlight inFlight(CaptureReader reader, List<RequestSlice> requests) {
        long[] start = new long[requests.size()], end = new long[requests.size()];
        for (int i = 0; i < requests.size(); i++) {
            start[i] = requests.get(i).startEpochNs();
            end[i] = requests.get(i).endEpochNs();
        }
        InFlight in = new InFlight(start, end);
        new KernelPass(Clocks.of(reader)).add(Scope.ALL, in).run(reader);
        return in;
    }
}
