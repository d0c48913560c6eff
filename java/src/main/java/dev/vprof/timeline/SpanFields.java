package dev.vprof.timeline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a {@link Request} and a {@link ServiceSpan} check and copy alike when they are made. */
final class SpanFields {
    private SpanFields() {}

    /** Throws for an interval that ends before it starts; {@code what} names the span ("request", "span"). */
    static void checkInterval(String what, String traceId, String spanId, long startNs, long endNs) {
        if (endNs < startNs) {
            throw new IllegalArgumentException(what + " " + traceId + "/" + spanId + " ends before it starts");
        }
    }

    /** The string, or "" for null. */
    static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    /** An unmodifiable copy in the given order; empty for null. */
    static Map<String, String> attributes(Map<String, String> attributes) {
        return attributes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }
}
