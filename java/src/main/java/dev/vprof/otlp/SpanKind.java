package dev.vprof.otlp;

/** trace.v1.Span.SpanKind; the ordinal is the protobuf enum number. */
public enum SpanKind {
    UNSPECIFIED, INTERNAL, SERVER, CLIENT, PRODUCER, CONSUMER;

    private static final SpanKind[] BY_NUMBER = values();

    /** Unknown numbers (a newer sender) read as UNSPECIFIED rather than failing the span. */
    public static SpanKind of(long number) {
        return ProtoEnum.of(BY_NUMBER, number, UNSPECIFIED);
    }

    /** Accepts "SPAN_KIND_SERVER", "SERVER" or "server" (Jaeger's span.kind tag). */
    public static SpanKind ofName(String name) {
        return ProtoEnum.ofName(BY_NUMBER, "SPAN_KIND_", name, UNSPECIFIED);
    }

    public int number() {
        return ordinal();
    }
}
