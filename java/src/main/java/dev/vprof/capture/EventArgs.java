package dev.vprof.capture;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a source event that the ring records do not hold (an ARGS record): for a PyTorch
 * profiler trace, the event's {@code args} beyond those a KERNEL, MEMCPY, API... record keeps
 * (under the key {@code "args"}), and any top-level field of the event the records cannot give
 * back as it was ({@code "name"}, {@code "pid"}, {@code "tid"}, {@code "cat"}, {@code "ts"}...).
 * With {@link #target()} 0 they are the fields of the process itself (a trace's top level).
 *
 * <p>Values are what JSON has: {@code Long}, {@link Number} (any other number, exactly as the
 * source wrote it), {@code String}, {@code Boolean}, {@code null}, {@code List<Object>} and
 * {@code Map<String, Object>} (in the source's order). Encoded by {@link ArgsCodec}.
 */
public final class EventArgs {
    /** A number that is not a 64-bit integer, as its JSON text (checked to be one). */
    public record Number(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    private final int target;
    private final Map<String, Object> fields;

    EventArgs(int target, Map<String, Object> fields) {
        this.target = target;
        this.fields = Collections.unmodifiableMap(fields);
    }

    /** For tests and sources outside a capture file: these fields, for an event of record type {@code target}. */
    public static EventArgs of(int target, Map<String, Object> fields) {
        return new EventArgs(target, new LinkedHashMap<>(fields));
    }

    /** The record type of the event these fields belong to (VprofRing.REC_*), or 0 for the process. */
    public int target() {
        return target;
    }

    /** Every field, in the source's order. */
    public Map<String, Object> fields() {
        return fields;
    }

    public boolean has(String key) {
        return fields.containsKey(key);
    }

    public Object get(String key) {
        return fields.get(key);
    }

    /** The event's own {@code args} kept here (an empty map when none). */
    @SuppressWarnings("unchecked")
    public Map<String, Object> args() {
        Object a = fields.get("args");
        return a instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** Whether {@code key} is among the kept {@link #args()}: the event had it and the records cannot give it back. */
    public boolean hasArg(String key) {
        return args().containsKey(key);
    }

    /** The string field {@code key}, or null when there is none or it is not a string. */
    public String string(String key) {
        return fields.get(key) instanceof String s ? s : null;
    }

    /** The integer field {@code key}, or null. */
    public Long integer(String key) {
        return fields.get(key) instanceof Long l ? l : null;
    }

    /** A list value as a list (for writers walking values). */
    @SuppressWarnings("unchecked")
    public static List<Object> list(Object value) {
        return (List<Object>) value;
    }

    @Override
    public String toString() {
        return "EventArgs[" + target + "]" + fields;
    }
}
