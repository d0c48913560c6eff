package dev.vprof.capture;

import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.OtlpProtobuf;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanKind;
import dev.vprof.otlp.StatusCode;
import dev.vprof.wire.WireFormatException;
import dev.vprof.wire.WireReader;
import dev.vprof.wire.WireWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The payload of a SPANS chunk in a .vprof capture: a batch of spans in a compact binary form
 * with a per-batch string table, so the service, scope and attribute keys that every span
 * repeats are stored once. Little-endian; varints are LEB128 as in protobuf.
 *
 * <pre>
 * u8      version (1)
 * varint  string count, then per string: varint byte length, UTF-8 bytes
 * varint  span count, then per span:
 *   16 B trace id | 8 B span id | u8 parent length (0 or 8) | parent id
 *   varint name | u8 kind | u8 status code | varint status message
 *   varint service name | varint scope name | varint scope version      (string indices)
 *   fixed64 start epoch ns | varint duration ns (end - start, unsigned)
 *   varint attribute count, then per attribute: varint key, value
 * value:  u8 type, then 1 string: varint index | 2 int64: zigzag varint | 3 double: fixed64
 *         4 bool: u8 | 5 bytes: varint length, bytes | 6 array: varint n, n values
 *         7 key/value list: varint n, n (varint key, value)
 * </pre>
 *
 * Reading is bounded like the OTLP decoder: every count and length is checked against the
 * bytes left, so a corrupt chunk raises {@link OtlpFormatException} instead of allocating.
 */
public final class SpansCodec {
    private SpansCodec() {}

    public static final int VERSION = 1;

    private static final int T_STRING = 1;
    private static final int T_INT = 2;
    private static final int T_DOUBLE = 3;
    private static final int T_BOOL = 4;
    private static final int T_BYTES = 5;
    private static final int T_ARRAY = 6;
    private static final int T_KVLIST = 7;

    public static byte[] encode(List<Span> spans) {
        Map<String, Integer> index = new HashMap<>();
        List<String> strings = new ArrayList<>();
        WireWriter body = new WireWriter(16 + spans.size() * 96);
        body.varint(spans.size());
        for (Span s : spans) {
            body.raw(s.traceId());
            body.raw(s.spanId());
            byte[] parent = s.parentSpanId();
            body.u8(parent.length);
            body.raw(parent);
            body.varint(intern(s.name(), index, strings));
            body.u8(s.kind().number());
            body.u8(s.status().number());
            body.varint(intern(s.statusMessage(), index, strings));
            body.varint(intern(s.serviceName(), index, strings));
            body.varint(intern(s.scopeName(), index, strings));
            body.varint(intern(s.scopeVersion(), index, strings));
            body.fixed64(s.startEpochNs());
            body.varint(s.endEpochNs() - s.startEpochNs());
            body.varint(s.attributes().size());
            for (Attribute a : s.attributes()) {
                body.varint(intern(a.key(), index, strings));
                writeValue(body, a.value(), index, strings);
            }
        }
        WireWriter out = new WireWriter(body.size() + 16 + strings.size() * 16);
        out.u8(VERSION);
        out.varint(strings.size());
        for (String str : strings) {
            byte[] b = str.getBytes(StandardCharsets.UTF_8);
            out.varint(b.length);
            out.raw(b);
        }
        out.append(body);
        return out.toByteArray();
    }

    private static int intern(String s, Map<String, Integer> index, List<String> strings) {
        Integer i = index.get(s);
        if (i == null) {
            i = strings.size();
            index.put(s, i);
            strings.add(s);
        }
        return i;
    }

    private static void writeValue(WireWriter w, AnyValue v, Map<String, Integer> index, List<String> strings) {
        switch (v) {
            case AnyValue.StringValue s -> { w.u8(T_STRING); w.varint(intern(s.value(), index, strings)); }
            case AnyValue.LongValue l -> { w.u8(T_INT); w.varint((l.value() << 1) ^ (l.value() >> 63)); }
            case AnyValue.DoubleValue d -> { w.u8(T_DOUBLE); w.fixed64(Double.doubleToRawLongBits(d.value())); }
            case AnyValue.BoolValue b -> { w.u8(T_BOOL); w.u8(b.value() ? 1 : 0); }
            case AnyValue.BytesValue b -> { byte[] x = b.value(); w.u8(T_BYTES); w.varint(x.length); w.raw(x); }
            case AnyValue.ArrayValue a -> {
                w.u8(T_ARRAY);
                w.varint(a.values().size());
                for (AnyValue x : a.values()) {
                    writeValue(w, x, index, strings);
                }
            }
            case AnyValue.KeyValueList kv -> {
                w.u8(T_KVLIST);
                w.varint(kv.values().size());
                for (Attribute x : kv.values()) {
                    w.varint(intern(x.key(), index, strings));
                    writeValue(w, x.value(), index, strings);
                }
            }
        }
    }

    public static List<Span> decode(byte[] chunk) throws OtlpFormatException {
        try {
            return read(chunk);
        } catch (WireFormatException e) {
            throw new OtlpFormatException(e.getMessage(), e);
        }
    }

    private static List<Span> read(byte[] chunk) throws WireFormatException {
        WireReader r = new WireReader(chunk, "corrupt SPANS chunk");
        int version = r.readByte();
        if (version != VERSION) {
            throw r.error("unsupported SPANS chunk version " + version + " (this vprof reads version " + VERSION + ")");
        }
        int nStrings = r.readCount(1);
        String[] strings = new String[nStrings];
        for (int i = 0; i < nStrings; i++) {
            strings[i] = r.readUtf8(r.readCount(1));
        }
        int nSpans = r.readCount(Span.TRACE_ID_BYTES + Span.SPAN_ID_BYTES);
        List<Span> spans = new ArrayList<>(nSpans);
        for (int i = 0; i < nSpans; i++) {
            byte[] trace = r.readRaw(Span.TRACE_ID_BYTES);
            byte[] id = r.readRaw(Span.SPAN_ID_BYTES);
            int parentLen = r.readByte();
            if (parentLen != 0 && parentLen != Span.SPAN_ID_BYTES) {
                throw r.error("parent id length " + parentLen);
            }
            byte[] parent = r.readRaw(parentLen);
            String name = string(r, strings);
            SpanKind kind = SpanKind.of(r.readByte());
            StatusCode status = StatusCode.of(r.readByte());
            String statusMessage = string(r, strings);
            String service = string(r, strings);
            String scopeName = string(r, strings);
            String scopeVersion = string(r, strings);
            long start = r.readFixed64();
            long end = start + r.readVarint();
            int nAttrs = r.readCount(2);
            List<Attribute> attrs = new ArrayList<>(nAttrs);
            for (int a = 0; a < nAttrs; a++) {
                attrs.add(new Attribute(string(r, strings), readValue(r, strings, 0)));
            }
            spans.add(new Span(trace, id, parent, name, kind, start, end, attrs, status, statusMessage,
                    service, scopeName, scopeVersion));
        }
        if (!r.atEnd()) {
            throw r.error(r.remaining() + " bytes after the last span");
        }
        return spans;
    }

    private static AnyValue readValue(WireReader r, String[] strings, int depth) throws WireFormatException {
        if (depth > OtlpProtobuf.MAX_VALUE_DEPTH) {
            throw r.error("attribute values nested deeper than " + OtlpProtobuf.MAX_VALUE_DEPTH);
        }
        int type = r.readByte();
        switch (type) {
            case T_STRING: return new AnyValue.StringValue(string(r, strings));
            case T_INT: { long z = r.readVarint(); return new AnyValue.LongValue((z >>> 1) ^ -(z & 1)); }
            case T_DOUBLE: return new AnyValue.DoubleValue(Double.longBitsToDouble(r.readFixed64()));
            case T_BOOL: return new AnyValue.BoolValue(r.readByte() != 0);
            case T_BYTES: return new AnyValue.BytesValue(r.readRaw(r.readCount(1)));
            case T_ARRAY: {
                int n = r.readCount(1);
                List<AnyValue> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(readValue(r, strings, depth + 1));
                }
                return new AnyValue.ArrayValue(values);
            }
            case T_KVLIST: {
                int n = r.readCount(2);
                List<Attribute> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(new Attribute(string(r, strings), readValue(r, strings, depth + 1)));
                }
                return new AnyValue.KeyValueList(values);
            }
            default: throw r.error("unknown attribute value type " + type);
        }
    }

    private static String string(WireReader r, String[] strings) throws WireFormatException {
        long i = r.readVarint();
        if (i < 0 || i >= strings.length) {
            throw r.error("string index " + i + " outside the table of " + strings.length);
        }
        return strings[(int) i];
    }
}
