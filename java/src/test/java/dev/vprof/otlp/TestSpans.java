package dev.vprof.otlp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/** Spans for tests: every attribute type, roots and children, two services and scopes. */
public final class TestSpans {
    private TestSpans() {}

    static final long T0 = 1_760_000_000_000_000_000L;

    static byte[] traceId(int n) {
        return id(16, 0x4b, n);
    }

    static byte[] spanId(int n) {
        return id(8, 0x1a, n);
    }

    /** {@code length} bytes: {@code first}, zeros, then {@code n}'s low two bytes, big-endian. */
    private static byte[] id(int length, int first, int n) {
        byte[] b = new byte[length];
        b[0] = (byte) first;
        b[length - 1] = (byte) n;
        b[length - 2] = (byte) (n >> 8);
        return b;
    }

    /** vLLM's latency attributes of a request, in seconds: time in queue, prefill and decode. */
    static List<Attribute> latencies(double queue, double prefill, double decode) {
        return List.of(Attribute.of("gen_ai.latency.time_in_queue", queue),
                Attribute.of("gen_ai.latency.time_in_model_prefill", prefill),
                Attribute.of("gen_ai.latency.time_in_model_decode", decode));
    }

    /** As {@link #latencies(double, double, double)}, and the time to the first token. */
    static List<Attribute> latencies(double queue, double prefill, double decode, double ttft) {
        return concat(latencies(queue, prefill, decode), List.of(Attribute.of("gen_ai.latency.time_to_first_token", ttft)));
    }

    /** The attributes of {@code parts}, in order. */
    @SafeVarargs
    static List<Attribute> concat(List<Attribute>... parts) {
        List<Attribute> all = new ArrayList<>();
        for (List<Attribute> p : parts) {
            all.addAll(p);
        }
        return all;
    }

    static Span span(int trace, int id, int parent, String service, String name, long startOffsetNs, long durationNs,
                     List<Attribute> attributes) {
        return new Span(traceId(trace), spanId(id), parent < 0 ? new byte[0] : spanId(parent), name, SpanKind.INTERNAL,
                T0 + startOffsetNs, T0 + startOffsetNs + durationNs, attributes, StatusCode.UNSET, "", service,
                "vprof.test", "1.0");
    }

    /** A mixed batch: a vLLM request under an HTTP server span, plus one span of every value type. */
    public static List<Span> mixed(int n) {
        List<Span> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int base = i * 3;
            out.add(new Span(traceId(i), spanId(base + 1), new byte[0], "POST /v1/completions", SpanKind.SERVER,
                    T0 + i * 1_000_000L, T0 + i * 1_000_000L + 900_000_000L,
                    List.of(Attribute.of("http.method", "POST"), Attribute.of("http.status_code", 200L)),
                    StatusCode.OK, "", "router", "opentelemetry.instrumentation.fastapi", "0.48b0"));
            out.add(new Span(traceId(i), spanId(base + 2), spanId(base + 1), "llm_request", SpanKind.SERVER,
                    T0 + i * 1_000_000L + 1_000_000L, T0 + i * 1_000_000L + 800_000_000L,
                    concat(List.of(Attribute.of("gen_ai.request.id", "cmpl-" + i)), latencies(0.25, 0.05, 0.45, 0.3),
                            List.of(Attribute.of("gen_ai.latency.e2e", 0.799),
                                    Attribute.of("gen_ai.usage.prompt_tokens", 512L),
                                    Attribute.of("gen_ai.usage.completion_tokens", 128L))),
                    StatusCode.UNSET, "", "vllm", "vllm.llm_engine", ""));
            out.add(new Span(traceId(i), spanId(base + 3), spanId(base + 1), "weird \u00e9\u4e2d values", SpanKind.CLIENT,
                    T0 + i * 1_000_000L + 2_000, T0 + i * 1_000_000L + 3_000,
                    List.of(Attribute.of("negative", -42L), Attribute.of("max", Long.MAX_VALUE),
                            Attribute.of("pi", Math.PI), Attribute.of("flag", true),
                            new Attribute("raw", new AnyValue.BytesValue(new byte[] {0, 1, (byte) 0xff})),
                            new Attribute("list", new AnyValue.ArrayValue(List.of(AnyValue.of("a"), AnyValue.of(7L)))),
                            new Attribute("map", new AnyValue.KeyValueList(List.of(Attribute.of("k", false)))),
                            Attribute.of("empty", "")),
                    StatusCode.ERROR, "boom", "router", "opentelemetry.instrumentation.fastapi", "0.48b0"));
        }
        return out;
    }

    /** Order-independent comparison: transports may regroup spans by resource and scope. */
    public static List<Span> sorted(List<Span> spans) {
        List<Span> copy = new ArrayList<>(spans);
        copy.sort(Comparator.comparing((Span s) -> s.traceIdHex()).thenComparing(Span::spanIdHex));
        return copy;
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
