package dev.vprof.export;

import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CounterKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.ServiceSpan;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small timelines with every kind of record, on realistic epoch timestamps. */
final class SampleTimelines {
    private SampleTimelines() {}

    /** 2025-01-01T00:00:00Z in epoch ns, plus an odd 123 ns so microsecond rounding would show. */
    static final long T0 = 1_735_689_600_000_000_123L;

    static ListTimeline everything() {
        ListTimeline t = new ListTimeline();
        TimelineProcess p = t.process(4242, "vllm-worker", List.of("python", "-m", "vllm.entrypoints.openai.api_server"));
        GpuDevice gpu = p.device(0).properties("NVIDIA H100 80GB HBM3", 85_000_000_000L, 9, 0, 132);
        GpuStream s7 = gpu.stream(7);
        GpuStream s13 = gpu.stream(13);
        int gemm = t.intern("sm90_xmma_gemm_bf16 \"quoted\"\\path");
        int attn = t.intern("flash_fwd_kernel<128>");
        // Stream 7: two kernels back to back; stream 13 overlaps both (needs its own track).
        t.kernel(s7, gemm, T0 + 1_000, T0 + 5_000, 101, 132, 1, 1, 256, 1, 1, 168, 49152);
        t.kernel(s7, attn, T0 + 5_000, T0 + 9_500, 102, 64, 8, 1, 128, 1, 1, 255, 0);
        t.memcpy(s13, 0, T0 + 2_000, T0 + 7_000, 103, 1 << 20, 1, 2, 3); // HtoD, pinned to device
        t.memset(s13, 0, T0 + 7_500, T0 + 7_600, 104, 4096, 0);
        t.kernel(s13, attn, T0 + 8_000, T0 + 8_001, 0, 1, 1, 1, 32, 1, 1, 0, 0);

        CpuThread main = p.thread(4242).name("MainThread");
        t.range(main, t.intern("forward"), T0, T0 + 10_000, 0);
        t.range(main, t.intern("attention"), T0 + 300, T0 + 4_000, t.intern("vllm"));
        t.apiCall(main, ApiKind.RUNTIME, t.intern("cudaLaunchKernel"), T0 + 400, T0 + 900, 101, 211);
        t.apiCall(main, ApiKind.RUNTIME, t.intern("cudaLaunchKernel"), T0 + 950, T0 + 1_200, 102, 211);
        t.apiCall(main, ApiKind.DRIVER, t.intern("cuMemcpyHtoDAsync_v2"), T0 + 1_300, T0 + 1_700, 103, 279);
        t.apiCall(main, ApiKind.RUNTIME, t.intern("cudaMemsetAsync"), T0 + 1_800, T0 + 1_900, 104, 51);
        t.apiCall(main, ApiKind.RUNTIME, t.intern("cudaStreamSynchronize"), T0 + 2_000, T0 + 9_600, 105, 131);
        p.addCaptureRange(new CaptureRange(1, T0, T0 + 10_000, "cudaProfilerApi"));

        t.addRequest(request("a", T0, T0 + 6_000));
        t.addRequest(request("b", T0 + 2_000, T0 + 8_000)); // overlaps a: second lane
        t.addRequest(request("c", T0 + 6_000, T0 + 9_000)); // starts as a ends: reuses lane 1

        t.addSpan(new ServiceSpan("t1", "s1", "", "router", "route", T0, T0 + 9_000, Map.of("http.method", "POST")));
        t.addSpan(new ServiceSpan("t1", "s2", "s1", "router", "pick_backend", T0 + 100, T0 + 200, Map.of()));
        t.addSpan(new ServiceSpan("t2", "s3", "", "router", "route", T0 + 8_500, T0 + 9_500, Map.of())); // overlaps route s1, does not nest

        var running = t.counter("vllm:num_requests_running", CounterKind.GAUGE, "requests");
        running.add(T0, 1);
        running.add(T0 + 5_000, 2);
        var tokens = t.counter("vllm:generation_tokens rate", CounterKind.RATE, "1/s");
        tokens.add(T0 + 5_000, 1234.5);
        var p99 = t.counter("vllm:time_to_first_token_seconds p99", CounterKind.QUANTILE, "s");
        p99.add(T0 + 5_000, 0.25);
        p99.add(T0 + 9_000, Double.NaN); // empty interval: skipped by writers
        return t;
    }

    static Request request(String id, long start, long end) {
        long third = (end - start) / 3;
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("gen_ai.request.id", "req-" + id);
        return new Request("trace-" + id, "span-" + id, "llm_request", start, end, attrs, List.of(
                new Phase("queue", start, start + third),
                new Phase("prefill", start + third, start + 2 * third),
                new Phase("decode", start + 2 * third, end)));
    }

    /** {@code kernels} back-to-back kernels spread over {@code streams} streams of one GPU, a few names. */
    static ListTimeline kernels(int kernels, int streams) {
        ListTimeline t = new ListTimeline();
        TimelineProcess p = t.process(1, "bench", List.of("bench"));
        GpuDevice gpu = p.device(0);
        int[] names = new int[16];
        for (int i = 0; i < names.length; i++) {
            names[i] = t.intern("kernel_" + i + "_void_at::native::elementwise<float>");
        }
        long[] cursor = new long[streams];
        java.util.Arrays.fill(cursor, T0);
        for (int i = 0; i < kernels; i++) {
            int s = i % streams;
            long dur = 2_000 + (i * 7919L) % 30_000; // 2..32 us
            long gap = 300 + (i * 104729L) % 2_000;
            long start = cursor[s] + gap;
            t.kernel(gpu.stream(s + 7), names[i & 15], start, start + dur, i + 1,
                    128 + (i & 3), 1, 1, 256, 1, 1, 64, 0);
            cursor[s] = start + dur;
        }
        return t;
    }
}
