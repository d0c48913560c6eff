package dev.vprof.otlp;

import java.util.List;
import java.util.Objects;

/** One key/value pair of a span, a resource or a scope (common.v1.KeyValue). */
public record Attribute(String key, AnyValue value) {
    public Attribute {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    public static Attribute of(String key, String value) {
        return new Attribute(key, AnyValue.of(value));
    }

    public static Attribute of(String key, long value) {
        return new Attribute(key, AnyValue.of(value));
    }

    public static Attribute of(String key, double value) {
        return new Attribute(key, AnyValue.of(value));
    }

    public static Attribute of(String key, boolean value) {
        return new Attribute(key, AnyValue.of(value));
    }

    /** The first attribute named {@code key}, or null. A linear scan: spans carry few attributes. */
    public static AnyValue find(List<Attribute> attributes, String key) {
        for (Attribute a : attributes) {
            if (a.key.equals(key)) {
                return a.value;
            }
        }
        return null;
    }
}
