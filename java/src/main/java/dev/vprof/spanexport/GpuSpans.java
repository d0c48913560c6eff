package dev.vprof.spanexport;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanKind;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
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
        KernelsInFlight kernels = KernelsInFlight.count(reader, requests);
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
                top.add(new AnyValue.StringValue(k));
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
                        "0.1.0"));
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
     * Per request, the kernels that ran while it was in flight, in one pass over the records: the
     * requests' time is cut into buckets, each holding the requests that overlap it, so a kernel
     * is checked only against the requests of its bucket. Kernel time is summed per name in a map
     * per request, bounded by the distinct names (tens in an inference engine).
     */
    static final class KernelsInFlight {
        private static final int MAX_BUCKETS = 1 << 16;
        private final long[] counts;
        private final List<Map<String, Long>> timeByName;

        private KernelsInFlight(int n) {
            counts = new long[n];
            timeByName = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                timeByName.add(new HashMap<>());
            }
        }

        static KernelsInFlight count(CaptureReader reader, List<RequestSlice> requests) {
            KernelsInFlight k = new KernelsInFlight(requests.size());
            long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
            for (RequestSlice r : requests) {
                lo = Math.min(lo, r.startEpochNs());
                hi = Math.max(hi, r.endEpochNs());
            }
            long width = Math.max(10_000_000L, (hi - lo) / MAX_BUCKETS + 1);
            int nb = (int) ((hi - lo) / width) + 1;
            List<int[]> buckets = new ArrayList<>(nb);
            int[] sizes = new int[nb];
            for (int b = 0; b < nb; b++) {
                buckets.add(new int[2]);
            }
            for (int i = 0; i < requests.size(); i++) {
                RequestSlice r = requests.get(i);
                for (long b = (r.startEpochNs() - lo) / width; b <= (r.endEpochNs() - lo) / width; b++) {
                    int bi = (int) b;
                    int[] arr = buckets.get(bi);
                    if (sizes[bi] == arr.length) {
                        arr = Arrays.copyOf(arr, arr.length * 2);
                        buckets.set(bi, arr);
                    }
                    arr[sizes[bi]++] = i;
                }
            }
            Map<Integer, ClockMapping> clocks = reader.clocks();
            KernelNames names = KernelNames.demangled();
            final long base = lo, w = width;
            reader.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int corr, KernelDesc desc, String name) {
                    ClockMapping c = clocks.getOrDefault(pid, ClockMapping.identity());
                    long s = c.toEpochNs(start), e = c.toEpochNs(end);
                    long b = (s - base) / w;
                    if (s < base || b >= nb) {
                        return;
                    }
                    int[] arr = buckets.get((int) b);
                    String shown = null;
                    for (int j = 0; j < sizes[(int) b]; j++) {
                        RequestSlice r = requests.get(arr[j]);
                        if (s < r.endEpochNs() && e > r.startEpochNs()) {
                            k.counts[arr[j]]++;
                            shown = shown == null ? names.show(name) : shown;
                            k.timeByName.get(arr[j]).merge(shown, e - s, Long::sum);
                        }
                    }
                }
            });
            return k;
        }

        long count(int i) {
            return counts[i];
        }

        List<String> top(int i, int n) {
            return timeByName.get(i).entrySet().stream()
                    .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                    .limit(n).map(Map.Entry::getKey).toList();
        }
    }
}
