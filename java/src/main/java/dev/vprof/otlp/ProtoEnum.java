package dev.vprof.otlp;

import java.util.Locale;

/**
 * How an OTLP protobuf enum whose ordinals are its numbers ({@link SpanKind}, {@link StatusCode})
 * is read from a number or a name: one rule for every such enum and every decoder.
 */
final class ProtoEnum {
    private ProtoEnum() {}

    /** The constant numbered {@code number}; {@code fallback} for one this version does not know (a newer sender). */
    static <E extends Enum<E>> E of(E[] byNumber, long number, E fallback) {
        return number >= 0 && number < byNumber.length ? byNumber[(int) number] : fallback;
    }

    /**
     * The constant named {@code name} with or without the protobuf prefix ({@code "SPAN_KIND_SERVER"},
     * {@code "SERVER"}), in any case ({@code "server"}); {@code fallback} when none is.
     */
    static <E extends Enum<E>> E ofName(E[] byNumber, String prefix, String name, E fallback) {
        String n = name.trim().toUpperCase(Locale.ROOT);
        if (n.startsWith(prefix)) {
            n = n.substring(prefix.length());
        }
        for (E e : byNumber) {
            if (e.name().equals(n)) {
                return e;
            }
        }
        return fallback;
    }
}
