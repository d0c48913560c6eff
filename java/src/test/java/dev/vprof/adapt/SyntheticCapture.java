package dev.vprof.adapt;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.RangeRecord;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.metrics.ExpositionFormat;
import dev.vprof.metrics.ExpositionParser;
import dev.vprof.capture.MetricsCodec;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanKind;
import dev.vprof.capture.SpansV1;
import dev.vprof.otlp.StatusCode;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A capture whose every answer is known, on a skewed GPU clock: CUPTI time runs 3.7 s ahead of
 * CLOCK_REALTIME and gains 20 us a second (20 ppm). Everything below is stated in realtime seconds
 * after {@link #R0}; the records carry CUPTI time, the spans and scrapes epoch time.
 *
 * <pre>
 * pid 100, clock pairs every second 0..10 s, capture range (cudaProfilerApi) 0.5 .. 9.5 s
 * request A (llm_request) 1.0 .. 3.0: queue 1.0-1.5, prefill 1.5-2.0, decode 2.0-3.0
 *   kernels: gemm dev0 1.20-1.25 (queue), gemm dev0 1.6-1.8 + attn dev1 1.7-1.9 (prefill: union 300 ms),
 *            gemm dev0 2.2-2.3 (decode)
 *   launched by cudaLaunchKernel at 1.59 (correlation 5 = the prefill gemm); NVTX "step" 1.55-1.95, mark at 2.0
 * request B 4.0 .. 8.0: queue 4.0-6.0, prefill 6.0-6.5 (attn dev1 6.1-6.4), decode 6.5-8.0 (gemm dev0 7.0-7.5)
 * span "POST /v1/completions" (api-server) 0.9 .. 3.1, parent of A
 * request C 20 .. 21 and span "late" 22 .. 23: after the window
 * scrapes at 0, 2, 4, 6, 8, 10 s; a failed scrape at 5 s ("connection refused")
 * </pre>
 */
public final class SyntheticCapture {
    private SyntheticCapture() {}

    public static final long R0 = 1_760_000_000_000_000_000L;
    public static final long SKEW_NS = 3_700_000_000L;
    public static final double DRIFT = 20e-6;
    public static final int PID = 100;
    public static final long MS = 1_000_000L;
    public static final long SEC = 1_000_000_000L;

    /** Realtime {@code ms} after R0, in epoch ns. */
    public static long at(long ms) {
        return R0 + ms * MS;
    }

    /** The CUPTI clock reading at epoch time {@code realtimeNs}. */
    public static long cupti(long realtimeNs) {
        return realtimeNs + SKEW_NS + Math.round((realtimeNs - R0) * DRIFT);
    }

    /** A RANGE record's bytes in the ring, padded to 8. */
    static final int RANGE_BYTES = (int) (RangeRecord.SIZE + 7 & ~7);

    /** The metadata of a file {@code vprof run} wrote on this host at R0. */
    public static CaptureMetadata metadata() {
        return new CaptureMetadata("host", R0, "0.1.0", List.of("vprof", "run"), Map.of());
    }

    /** A new file with {@link #metadata()} and process {@link #PID} running {@code command}. */
    public static CaptureWriter create(Path file, String command) throws IOException {
        CaptureWriter w = CaptureWriter.create(file, metadata());
        w.process(new ProcessInfo(PID, 1, command, 130000, 1, 1 << 20, R0));
        return w;
    }

    /** Records holding the clock pairs, one every second from 0 to 10 s. */
    public static RingRecords clockPairs() {
        RingRecords r = new RingRecords();
        for (int i = 0; i <= 10; i++) {
            r.clockSync(cupti(R0 + i * SEC), R0 + i * SEC, i * SEC);
        }
        return r;
    }

    /** Writes a RANGE record of {@link #PID} with the two readings of its edge as given. */
    public static void range(CaptureWriter w, long edge, long realtimeNs, long cuptiNs) throws IOException {
        w.records(PID, range(edge, realtimeNs, cuptiNs), 0, RANGE_BYTES);
    }

    public static Path write(Path file, boolean withMetricsAndSpans) throws IOException {
        return write(file, withMetricsAndSpans, metadata());
    }

    /** As {@link #write(Path, boolean)}, with the file's metadata as given (the command and options it records). */
    public static Path write(Path file, boolean withMetricsAndSpans, CaptureMetadata metadata) throws IOException {
        try (CaptureWriter w = CaptureWriter.create(file, metadata)) {
            w.process(new ProcessInfo(PID, 1, "/usr/bin/python3 -m vllm.entrypoints.openai.api_server", 130000, 1,
                    1 << 20, R0));
            RingRecords r = clockPairs();
            r.string(1, "gemm").string(2, "attn").string(3, "step").string(4, "vllm").string(5, "mark")
                    .kernelDesc(1, 1, 0, 7).kernelDesc(2, 2, 1, 13);
            r.writeTo(w, PID);
            range(w, VprofRing.RANGE_BEGIN, at(500), cupti(at(500)));
            r.api(cupti(at(1590)), cupti(at(1590) + 20_000), 5, 211, VprofRing.API_RUNTIME, PID)
                    .marker(cupti(at(1550)), 1, VprofRing.MARKER_START, 3, 4, PID)
                    .kernel(cupti(at(1200)), cupti(at(1250)), 4, 1)
                    .kernel(cupti(at(1600)), cupti(at(1800)), 5, 1)
                    .kernel(cupti(at(1700)), cupti(at(1900)), 6, 2)
                    .marker(cupti(at(1950)), 1, VprofRing.MARKER_END, 0, 0, PID)
                    .marker(cupti(at(2000)), 2, VprofRing.MARKER_INSTANT, 5, 0, PID)
                    .kernel(cupti(at(2200)), cupti(at(2300)), 7, 1)
                    .kernel(cupti(at(6100)), cupti(at(6400)), 8, 2)
                    .kernel(cupti(at(7000)), cupti(at(7500)), 9, 1);
            r.writeTo(w, PID);
            range(w, VprofRing.RANGE_END, at(9500), cupti(at(9500)));
            if (withMetricsAndSpans) {
                w.chunk(CaptureFormat.KIND_METRICS, MetricsCodec.encode(scrapes().subList(0, 4)));
                w.chunk(CaptureFormat.KIND_METRICS, MetricsCodec.encode(scrapes().subList(4, 7)));
                w.chunk(CaptureFormat.KIND_SPANS, SpansV1.encode(spans()));
            }
        }
        return file;
    }

    /** A RANGE record with the two readings of its edge as given (an agent's CLOCK_REALTIME may disagree). */
    private static MemorySegment range(long edge, long realtimeNs, long cuptiNs) {
        MemorySegment seg = Arena.ofAuto().allocate(RANGE_BYTES, 8);
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, VprofRing.RecordHeader.LENGTH, RANGE_BYTES);
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, VprofRing.RecordHeader.TYPE, VprofRing.REC_RANGE);
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, RangeRecord.EDGE, (int) edge);
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, RangeRecord.SOURCE, VprofRing.SOURCE_PROFILER);
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, RangeRecord.INDEX, 1);
        seg.set(ValueLayout.JAVA_INT_UNALIGNED, RangeRecord.CAPTURE_ID, 1);
        seg.set(ValueLayout.JAVA_LONG_UNALIGNED, RangeRecord.CUPTI_NS, cuptiNs);
        seg.set(ValueLayout.JAVA_LONG_UNALIGNED, RangeRecord.REALTIME_NS, realtimeNs);
        return seg;
    }

    // ---- metrics: see the class comment; the expected window figures are in ServingReportTest ----

    static final int[] WAITING = {0, 1, 3, 2, 0, 5};
    static final double[] KV = {0.1, 0.2, 0.5, 0.7, 0.3, 0.9};
    static final int[] RUNNING = {1, 1, 2, 2, 1, 0};
    static final int[] STOP = {0, 0, 1, 1, 2, 9};
    static final int[] ABORT = {0, 0, 0, 1, 1, 1};
    static final int[] PROMPT = {0, 100, 300, 300, 700, 900};
    static final int[] GENERATION = {0, 50, 150, 250, 450, 1000};
    static final int[] PREEMPTIONS = {0, 0, 1, 1, 2, 5};
    static final int[] QUERIES = {0, 100, 300, 300, 700, 900};
    static final int[] HITS = {0, 10, 40, 40, 140, 200};
    /** TTFT buckets le 0.1, 0.5, 1, +Inf (cumulative) per scrape. */
    static final int[][] TTFT = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 2, 2, 2}, {1, 2, 3, 4}, {1, 2, 3, 10}};
    /** Queue-time buckets le 1, 2, +Inf. */
    static final int[][] QUEUE = {{0, 0, 0}, {1, 2, 2}, {1, 2, 2}, {1, 2, 2}, {1, 2, 2}, {1, 2, 2}};

    static List<ScrapeResult> scrapes() {
        List<ScrapeResult> out = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            long t = at(2000L * i);
            out.add(new ScrapeResult.Scrape(new MetricsSnapshot(t, new ExpositionParser()
                    .parse(exposition(i), ExpositionFormat.PROMETHEUS_TEXT).families()), 1_000_000, List.of()));
            if (i == 2) {
                out.add(new ScrapeResult.Gap(at(5000), "connection refused"));
            }
        }
        return out;
    }

    private static String exposition(int i) {
        String l = "model_name=\"m\"";
        StringBuilder sb = new StringBuilder();
        sb.append("# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{").append(l).append("} ")
                .append(WAITING[i]).append('\n');
        sb.append("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{").append(l).append("} ")
                .append(RUNNING[i]).append('\n');
        sb.append("# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc{").append(l).append("} ")
                .append(KV[i]).append('\n');
        sb.append("# TYPE vllm:request_success_total counter\n")
                .append("vllm:request_success_total{").append(l).append(",finished_reason=\"stop\"} ").append(STOP[i]).append('\n')
                .append("vllm:request_success_total{").append(l).append(",finished_reason=\"abort\"} ").append(ABORT[i]).append('\n');
        counter(sb, "vllm:prompt_tokens_total", l, PROMPT[i]);
        counter(sb, "vllm:generation_tokens_total", l, GENERATION[i]);
        counter(sb, "vllm:num_preemptions_total", l, PREEMPTIONS[i]);
        counter(sb, "vllm:prefix_cache_queries_total", l, QUERIES[i]);
        counter(sb, "vllm:prefix_cache_hits_total", l, HITS[i]);
        histogram(sb, "vllm:time_to_first_token_seconds", l, new String[] {"0.1", "0.5", "1.0", "+Inf"}, TTFT[i]);
        histogram(sb, "vllm:request_queue_time_seconds", l, new String[] {"1.0", "2.0", "+Inf"}, QUEUE[i]);
        return sb.toString();
    }

    private static void counter(StringBuilder sb, String name, String labels, int v) {
        sb.append("# TYPE ").append(name).append(" counter\n").append(name).append('{').append(labels).append("} ")
                .append(v).append('\n');
    }

    private static void histogram(StringBuilder sb, String name, String labels, String[] les, int[] cumulative) {
        sb.append("# TYPE ").append(name).append(" histogram\n");
        for (int b = 0; b < les.length; b++) {
            sb.append(name).append("_bucket{").append(labels).append(",le=\"").append(les[b]).append("\"} ")
                    .append(cumulative[b]).append('\n');
        }
        int count = cumulative[les.length - 1];
        sb.append(name).append("_count{").append(labels).append("} ").append(count).append('\n');
        sb.append(name).append("_sum{").append(labels).append("} ").append(0.5 * count).append('\n');
    }

    // ---- spans ----

    public static List<Span> spans() {
        return List.of(
                span(1, 1, -1, "api-server", "POST /v1/completions", 900, 3100, List.of()),
                request(1, 2, 1, "req-A", 1000, 3000, 0.5, 0.5, 1.0),
                request(2, 3, -1, "req-B", 4000, 8000, 2.0, 0.5, 1.5),
                request(3, 4, -1, "req-C", 20_000, 21_000, 0.2, 0.3, 0.5),
                span(4, 5, -1, "api-server", "late", 22_000, 23_000, List.of()));
    }

    public static Span request(int trace, int id, int parent, String requestId, long startMs, long endMs,
                                double queue, double prefill, double decode) {
        return span(trace, id, parent, "vllm", "llm_request", startMs, endMs, List.of(
                Attribute.of("gen_ai.request.id", requestId),
                Attribute.of("gen_ai.latency.time_in_queue", queue),
                Attribute.of("gen_ai.latency.time_in_model_prefill", prefill),
                Attribute.of("gen_ai.latency.time_in_model_decode", decode),
                Attribute.of("gen_ai.latency.time_to_first_token", queue + prefill),
                Attribute.of("gen_ai.latency.e2e", (endMs - startMs) / 1000.0)));
    }

    private static Span span(int trace, int id, int parent, String service, String name, long startMs, long endMs,
                             List<Attribute> attributes) {
        byte[] traceId = new byte[16];
        traceId[15] = (byte) trace;
        return new Span(traceId, spanId(id), parent < 0 ? new byte[0] : spanId(parent), name, SpanKind.SERVER,
                at(startMs), at(endMs), attributes, StatusCode.UNSET, "", service, "test", "1");
    }

    private static byte[] spanId(int n) {
        byte[] b = new byte[8];
        b[7] = (byte) n;
        return b;
    }

    public static String traceHex(int trace) {
        return "000000000000000000000000000000" + String.format("%02x", trace);
    }
}
