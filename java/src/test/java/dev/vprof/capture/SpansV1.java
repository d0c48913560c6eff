package dev.vprof.capture;

import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.Span;
import dev.vprof.wire.WireWriter;
import java.util.List;

/**
 * The SPANS version 1 writer, for tests: vprof wrote SPANS chunks so before version 2 (and for a
 * request too large for one chunk, until the receiver's body limit was held below the chunk
 * limit), so captures with version 1 chunks exist and {@link SpansCodec} still reads them.
 */
public final class SpansV1 {
    private SpansV1() {}

    /** A version 1 chunk: the spans as vprof decoded them. */
    public static byte[] encode(List<Span> spans) {
        ChunkStrings strings = new ChunkStrings(0);
        WireWriter body = new WireWriter(16 + spans.size() * 96);
        body.varint(spans.size());
        for (Span s : spans) {
            body.raw(s.traceId());
            body.raw(s.spanId());
            byte[] parent = s.parentSpanId();
            body.u8(parent.length);
            body.raw(parent);
            body.varint(strings.id(s.name()));
            body.u8(s.kind().number());
            body.u8(s.status().number());
            body.varint(strings.id(s.statusMessage()));
            body.varint(strings.id(s.serviceName()));
            body.varint(strings.id(s.scopeName()));
            body.varint(strings.id(s.scopeVersion()));
            body.fixed64(s.startEpochNs());
            body.varint(s.endEpochNs() - s.startEpochNs());
            body.varint(s.attributes().size());
            for (Attribute a : s.attributes()) {
                body.varint(strings.id(a.key()));
                writeValue(body, a.value(), strings);
            }
        }
        return strings.chunk(new byte[] {SpansCodec.VERSION_DECODED}, body);
    }

    private static void writeValue(WireWriter w, AnyValue v, ChunkStrings strings) {
        switch (v) {
            case AnyValue.StringValue s -> { w.u8(SpansCodec.T_STRING); w.varint(strings.id(s.value())); }
            case AnyValue.LongValue l -> { w.u8(SpansCodec.T_INT); w.varint((l.value() << 1) ^ (l.value() >> 63)); }
            case AnyValue.DoubleValue d -> { w.u8(SpansCodec.T_DOUBLE); w.fixed64(Double.doubleToRawLongBits(d.value())); }
            case AnyValue.BoolValue b -> { w.u8(SpansCodec.T_BOOL); w.u8(b.value() ? 1 : 0); }
            case AnyValue.BytesValue b -> { byte[] x = b.value(); w.u8(SpansCodec.T_BYTES); w.varint(x.length); w.raw(x); }
            case AnyValue.ArrayValue a -> {
                w.u8(SpansCodec.T_ARRAY);
                w.varint(a.values().size());
                for (AnyValue x : a.values()) {
                    writeValue(w, x, strings);
                }
            }
            case AnyValue.KeyValueList kv -> {
                w.u8(SpansCodec.T_KVLIST);
                w.varint(kv.values().size());
                for (Attribute x : kv.values()) {
                    w.varint(strings.id(x.key()));
                    writeValue(w, x.value(), strings);
                }
            }
        }
    }
}
