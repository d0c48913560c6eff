package dev.vprof.otlp;

import java.util.Locale;

/** trace.v1.Span.SpanKind; the ordinal is the protobuf enum number. */
public enum SpanKind {
    UNSPECIFIED, INTERNAL, SERVER, CLIENT, PRODUCER, CONSUMER;

    private static final SpanKind[] BY_NUMBER = values();

    /** Unknown numbers (a newer sender) read as UNSPECIFIED rather than failing the span. */
    public static SpanKind of(long number) {
        return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[(int) number] : UNSPECIFIED;
    }

    /** Accepts "SPAN_KIND_SERVER", "SERVER" or "server" (Jaeger's span.kind tag). */
    public static SpanKind ofName(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT);
        if (n.startsWith("SPAN_KIND_")) {
            n = n.substring("SPAN_KIND_".length());
        }
        for (SpanKind k : BY_NUMBER) {
            if (k.name().equals(n)) {
                return k;
            }
        }
        return UNSPECIFIED;
    }

    public int number() {
        return ordinal();
    }
}
