package dev.vprof.otlp;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * An OTLP attribute value (common.v1.AnyValue): a string, a 64-bit integer, a double, a
 * boolean, raw bytes, an array of values, or a nested key/value list. Values compare by
 * content so that spans decoded from protobuf, JSON and the capture file can be checked
 * for equality.
 */
public sealed interface AnyValue {

    record StringValue(String value) implements AnyValue {
        public StringValue {
            value = value == null ? "" : value;
        }
    }

    record LongValue(long value) implements AnyValue {}

    record DoubleValue(double value) implements AnyValue {}

    record BoolValue(boolean value) implements AnyValue {}

    record ArrayValue(List<AnyValue> values) implements AnyValue {
        public ArrayValue {
            values = List.copyOf(values);
        }
    }

    record KeyValueList(List<Attribute> values) implements AnyValue {
        public KeyValueList {
            values = List.copyOf(values);
        }
    }

    /** Bytes compare by content (a record over byte[] would compare references). */
    record BytesValue(byte[] value) implements AnyValue {
        public BytesValue {
            value = value.clone();
        }

        @Override
        public byte[] value() {
            return value.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BytesValue b && Arrays.equals(value, b.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "BytesValue[" + HexFormat.of().formatHex(value) + "]";
        }
    }

    static AnyValue of(String s) {
        return new StringValue(s);
    }

    static AnyValue of(long v) {
        return new LongValue(v);
    }

    static AnyValue of(double v) {
        return new DoubleValue(v);
    }

    static AnyValue of(boolean v) {
        return new BoolValue(v);
    }

    /** The value as a double when it is numeric (an integer or a double), else NaN. */
    default double asDouble() {
        return switch (this) {
            case LongValue l -> l.value();
            case DoubleValue d -> d.value();
            case StringValue s -> parseOrNaN(s.value());
            default -> Double.NaN;
        };
    }

    /** A short text form for reports and exports. */
    default String asText() {
        return switch (this) {
            case StringValue s -> s.value();
            case LongValue l -> Long.toString(l.value());
            case DoubleValue d -> Double.toString(d.value());
            case BoolValue b -> Boolean.toString(b.value());
            case BytesValue b -> HexFormat.of().formatHex(b.value);
            case ArrayValue a -> a.values().stream().map(AnyValue::asText).toList().toString();
            case KeyValueList kv -> kv.values().stream().map(x -> x.key() + "=" + x.value().asText()).toList().toString();
        };
    }

    private static double parseOrNaN(String s) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
