package dev.vprof.otlp;

import dev.vprof.wire.WireFormatException;
import dev.vprof.wire.WireReader;
import dev.vprof.wire.WireType;
import dev.vprof.wire.WireWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OTLP trace messages in the protobuf wire format, written by hand (no protoc, no protobuf
 * runtime). Field numbers, from opentelemetry-proto:
 *
 * <pre>
 * collector.trace.v1.ExportTraceServiceRequest  1 resource_spans (ResourceSpans, repeated)
 * collector.trace.v1.ExportTraceServiceResponse 1 partial_success (ExportTracePartialSuccess)
 * ExportTracePartialSuccess                     1 rejected_spans int64, 2 error_message string
 * trace.v1.ResourceSpans   1 resource, 2 scope_spans, 3 schema_url,
 *                          1000 instrumentation_library_spans (old name, same layout as ScopeSpans)
 * resource.v1.Resource     1 attributes (KeyValue), 2 dropped_attributes_count
 * trace.v1.ScopeSpans      1 scope, 2 spans, 3 schema_url
 * common.v1.InstrumentationScope 1 name, 2 version, 3 attributes, 4 dropped_attributes_count
 * trace.v1.Span  1 trace_id bytes, 2 span_id bytes, 3 trace_state, 4 parent_span_id bytes,
 *                5 name, 6 kind enum, 7 start_time_unix_nano fixed64, 8 end_time_unix_nano fixed64,
 *                9 attributes, 10 dropped_attributes_count, 11 events, 12 dropped_events_count,
 *                13 links, 14 dropped_links_count, 15 status, 16 flags fixed32
 * trace.v1.Status          2 message, 3 code enum (1 is reserved)
 * common.v1.KeyValue       1 key, 2 value (AnyValue)
 * common.v1.AnyValue       oneof: 1 string, 2 bool, 3 int64, 4 double, 5 ArrayValue,
 *                          6 KeyValueList, 7 bytes
 * common.v1.ArrayValue / KeyValueList  1 values (repeated)
 * google.rpc.Status        1 code int32, 2 message string
 * </pre>
 *
 * Unknown fields are skipped (a newer sender's additions); events and links are skipped
 * whole by their length. Any structural damage throws {@link OtlpFormatException}; a span
 * that is well formed but unusable (bad id length, end before start) is rejected alone.
 */
public final class OtlpProtobuf {
    private OtlpProtobuf() {}

    /** Attribute values nest (arrays of lists of arrays...): bound it so recursion cannot overflow. */
    public static final int MAX_VALUE_DEPTH = 32;

    private static final String SERVICE_NAME = "service.name";
    /** How decoding errors open: "malformed protobuf at byte N: ...". */
    private static final String MALFORMED = "malformed protobuf";

    // ---------------------------------------------------------------- decoding

    private interface Reading<T> {
        T read(byte[] body) throws WireFormatException;
    }

    /** Damage found by the wire reader, as the OTLP exception receivers answer with 400. */
    private static <T> T decode(byte[] body, Reading<T> reading) throws OtlpFormatException {
        try {
            return reading.read(body);
        } catch (WireFormatException e) {
            throw new OtlpFormatException(e.getMessage(), e);
        }
    }

    /** Decodes an ExportTraceServiceRequest. */
    public static DecodedBatch decodeRequest(byte[] body) throws OtlpFormatException {
        return decode(body, OtlpProtobuf::readRequest);
    }

    private static DecodedBatch readRequest(byte[] body) throws WireFormatException {
        WireReader r = new WireReader(body, MALFORMED);
        List<Span> spans = new ArrayList<>();
        SpanCheck.Rejections rejections = new SpanCheck.Rejections();
        int resourceIndex = 0;
        while (!r.atEnd()) {
            int tag = r.readTag();
            if (tag >>> 3 == 1) {
                r.expect(tag, WireType.LEN, "ExportTraceServiceRequest.resource_spans");
                int old = r.pushLimit();
                readResourceSpans(r, body, resourceIndex++, spans, rejections);
                r.popLimit(old);
            } else {
                r.skip(tag);
            }
        }
        return new DecodedBatch(spans, rejections.count, rejections.reasons);
    }

    private static void readResourceSpans(WireReader r, byte[] body, int resourceIndex, List<Span> out,
                                          SpanCheck.Rejections rejections) throws WireFormatException {
        int start = r.position();
        // The resource may follow its spans on the wire: find it in a first, skipping pass.
        String service = "";
        while (!r.atEnd()) {
            int tag = r.readTag();
            if (tag >>> 3 == 1) {
                r.expect(tag, WireType.LEN, "ResourceSpans.resource");
                int old = r.pushLimit();
                service = readResource(r);
                r.popLimit(old);
            } else {
                r.skip(tag);
            }
        }
        int end = r.position();
        WireReader second = new WireReader(body, start, end - start, MALFORMED);
        int scopeIndex = 0;
        while (!second.atEnd()) {
            int tag = second.readTag();
            int field = tag >>> 3;
            if (field == 2 || field == 1000) {
                second.expect(tag, WireType.LEN, "ResourceSpans.scope_spans");
                int old = second.pushLimit();
                readScopeSpans(second, body, service, "resource_spans[" + resourceIndex + "].scope_spans[" + scopeIndex++ + "]",
                        out, rejections);
                second.popLimit(old);
            } else {
                second.skip(tag);
            }
        }
    }

    private static String readResource(WireReader r) throws WireFormatException {
        String service = "";
        while (!r.atEnd()) {
            int tag = r.readTag();
            if (tag >>> 3 == 1) {
                r.expect(tag, WireType.LEN, "Resource.attributes");
                int old = r.pushLimit();
                Attribute a = readKeyValue(r, 0);
                r.popLimit(old);
                if (a.key().equals(SERVICE_NAME) && a.value() instanceof AnyValue.StringValue s) {
                    service = s.value();
                }
            } else {
                r.skip(tag);
            }
        }
        return service;
    }

    private static void readScopeSpans(WireReader r, byte[] body, String service, String where, List<Span> out,
                                       SpanCheck.Rejections rejections) throws WireFormatException {
        int start = r.position();
        String scopeName = "";
        String scopeVersion = "";
        while (!r.atEnd()) {
            int tag = r.readTag();
            if (tag >>> 3 == 1) {
                r.expect(tag, WireType.LEN, "ScopeSpans.scope");
                int old = r.pushLimit();
                while (!r.atEnd()) {
                    int t = r.readTag();
                    switch (t >>> 3) {
                        case 1 -> { r.expect(t, WireType.LEN, "InstrumentationScope.name"); scopeName = r.readString(); }
                        case 2 -> { r.expect(t, WireType.LEN, "InstrumentationScope.version"); scopeVersion = r.readString(); }
                        default -> r.skip(t);
                    }
                }
                r.popLimit(old);
            } else {
                r.skip(tag);
            }
        }
        int end = r.position();
        WireReader second = new WireReader(body, start, end - start, MALFORMED);
        int spanIndex = 0;
        while (!second.atEnd()) {
            int tag = second.readTag();
            if (tag >>> 3 == 2) {
                second.expect(tag, WireType.LEN, "ScopeSpans.spans");
                int old = second.pushLimit();
                Span s = readSpan(second, service, scopeName, scopeVersion, where + ".spans[" + spanIndex++ + "]", rejections);
                second.popLimit(old);
                if (s != null) {
                    out.add(s);
                }
            } else {
                second.skip(tag);
            }
        }
    }

    private static Span readSpan(WireReader r, String service, String scopeName, String scopeVersion, String where,
                                 SpanCheck.Rejections rejections) throws WireFormatException {
        byte[] traceId = null;
        byte[] spanId = null;
        byte[] parent = null;
        String name = "";
        long kind = 0;
        long start = 0;
        long end = 0;
        List<Attribute> attributes = new ArrayList<>();
        long statusCode = 0;
        String statusMessage = "";
        while (!r.atEnd()) {
            int tag = r.readTag();
            switch (tag >>> 3) {
                case 1 -> { r.expect(tag, WireType.LEN, "Span.trace_id"); traceId = r.readBytes(); }
                case 2 -> { r.expect(tag, WireType.LEN, "Span.span_id"); spanId = r.readBytes(); }
                case 4 -> { r.expect(tag, WireType.LEN, "Span.parent_span_id"); parent = r.readBytes(); }
                case 5 -> { r.expect(tag, WireType.LEN, "Span.name"); name = r.readString(); }
                case 6 -> { r.expect(tag, WireType.VARINT, "Span.kind"); kind = r.readVarint(); }
                case 7 -> { r.expect(tag, WireType.I64, "Span.start_time_unix_nano"); start = r.readFixed64(); }
                case 8 -> { r.expect(tag, WireType.I64, "Span.end_time_unix_nano"); end = r.readFixed64(); }
                case 9 -> {
                    r.expect(tag, WireType.LEN, "Span.attributes");
                    int old = r.pushLimit();
                    attributes.add(readKeyValue(r, 0));
                    r.popLimit(old);
                }
                case 15 -> {
                    r.expect(tag, WireType.LEN, "Span.status");
                    int old = r.pushLimit();
                    while (!r.atEnd()) {
                        int t = r.readTag();
                        switch (t >>> 3) {
                            case 2 -> { r.expect(t, WireType.LEN, "Status.message"); statusMessage = r.readString(); }
                            case 3 -> { r.expect(t, WireType.VARINT, "Status.code"); statusCode = r.readVarint(); }
                            default -> r.skip(t);
                        }
                    }
                    r.popLimit(old);
                }
                // 3 trace_state, 10-14 counts, events and links, 16 flags: not kept.
                default -> r.skip(tag);
            }
        }
        if (parent != null && SpanCheck.allZero(parent)) {
            parent = null; // some senders write eight zero bytes for "no parent"
        }
        String problem = SpanCheck.problem(traceId, spanId, parent, start, end);
        if (problem != null) {
            rejections.add(where + (name.isEmpty() ? "" : " '" + name + "'"), problem);
            return null;
        }
        return new Span(traceId, spanId, parent, name, SpanKind.of(kind), start, end, attributes,
                StatusCode.of(statusCode), statusMessage, service, scopeName, scopeVersion);
    }

    private static Attribute readKeyValue(WireReader r, int depth) throws WireFormatException {
        String key = "";
        AnyValue value = null;
        while (!r.atEnd()) {
            int tag = r.readTag();
            switch (tag >>> 3) {
                case 1 -> { r.expect(tag, WireType.LEN, "KeyValue.key"); key = r.readString(); }
                case 2 -> {
                    r.expect(tag, WireType.LEN, "KeyValue.value");
                    int old = r.pushLimit();
                    value = readAnyValue(r, depth + 1);
                    r.popLimit(old);
                }
                default -> r.skip(tag);
            }
        }
        return new Attribute(key, value == null ? new AnyValue.StringValue("") : value);
    }

    private static AnyValue readAnyValue(WireReader r, int depth) throws WireFormatException {
        if (depth > MAX_VALUE_DEPTH) {
            throw r.error("attribute values nested deeper than " + MAX_VALUE_DEPTH);
        }
        // An empty AnyValue reads as the empty string, in every decoder alike.
        AnyValue value = new AnyValue.StringValue("");
        while (!r.atEnd()) {
            int tag = r.readTag();
            switch (tag >>> 3) {
                case 1 -> { r.expect(tag, WireType.LEN, "AnyValue.string_value"); value = new AnyValue.StringValue(r.readString()); }
                case 2 -> { r.expect(tag, WireType.VARINT, "AnyValue.bool_value"); value = new AnyValue.BoolValue(r.readVarint() != 0); }
                case 3 -> { r.expect(tag, WireType.VARINT, "AnyValue.int_value"); value = new AnyValue.LongValue(r.readVarint()); }
                case 4 -> { r.expect(tag, WireType.I64, "AnyValue.double_value"); value = new AnyValue.DoubleValue(r.readDouble()); }
                case 5 -> {
                    r.expect(tag, WireType.LEN, "AnyValue.array_value");
                    int old = r.pushLimit();
                    List<AnyValue> values = new ArrayList<>();
                    while (!r.atEnd()) {
                        int t = r.readTag();
                        if (t >>> 3 == 1) {
                            r.expect(t, WireType.LEN, "ArrayValue.values");
                            int o = r.pushLimit();
                            values.add(readAnyValue(r, depth + 1));
                            r.popLimit(o);
                        } else {
                            r.skip(t);
                        }
                    }
                    r.popLimit(old);
                    value = new AnyValue.ArrayValue(values);
                }
                case 6 -> {
                    r.expect(tag, WireType.LEN, "AnyValue.kvlist_value");
                    int old = r.pushLimit();
                    List<Attribute> values = new ArrayList<>();
                    while (!r.atEnd()) {
                        int t = r.readTag();
                        if (t >>> 3 == 1) {
                            r.expect(t, WireType.LEN, "KeyValueList.values");
                            int o = r.pushLimit();
                            values.add(readKeyValue(r, depth + 1));
                            r.popLimit(o);
                        } else {
                            r.skip(t);
                        }
                    }
                    r.popLimit(old);
                    value = new AnyValue.KeyValueList(values);
                }
                case 7 -> { r.expect(tag, WireType.LEN, "AnyValue.bytes_value"); value = new AnyValue.BytesValue(r.readBytes()); }
                default -> r.skip(tag);
            }
        }
        return value;
    }

    /** The partial success of an ExportTraceServiceResponse (a sender's view; tests use it). */
    public record PartialSuccess(long rejectedSpans, String errorMessage) {}

    public static PartialSuccess decodeResponse(byte[] body) throws OtlpFormatException {
        return decode(body, OtlpProtobuf::readResponse);
    }

    private static PartialSuccess readResponse(byte[] body) throws WireFormatException {
        WireReader r = new WireReader(body, MALFORMED);
        long rejected = 0;
        String message = "";
        while (!r.atEnd()) {
            int tag = r.readTag();
            if (tag >>> 3 == 1) {
                r.expect(tag, WireType.LEN, "ExportTraceServiceResponse.partial_success");
                int old = r.pushLimit();
                while (!r.atEnd()) {
                    int t = r.readTag();
                    switch (t >>> 3) {
                        case 1 -> { r.expect(t, WireType.VARINT, "rejected_spans"); rejected = r.readVarint(); }
                        case 2 -> { r.expect(t, WireType.LEN, "error_message"); message = r.readString(); }
                        default -> r.skip(t);
                    }
                }
                r.popLimit(old);
            } else {
                r.skip(tag);
            }
        }
        return new PartialSuccess(rejected, message);
    }

    /** Reads a google.rpc.Status (the body of OTLP/HTTP error responses): its message. */
    public static String decodeRpcStatusMessage(byte[] body) throws OtlpFormatException {
        return decode(body, OtlpProtobuf::readRpcStatusMessage);
    }

    private static String readRpcStatusMessage(byte[] body) throws WireFormatException {
        WireReader r = new WireReader(body, MALFORMED);
        String message = "";
        while (!r.atEnd()) {
            int tag = r.readTag();
            if (tag >>> 3 == 2 && (tag & 7) == WireType.LEN) {
                message = r.readString();
            } else {
                r.skip(tag);
            }
        }
        return message;
    }

    // ---------------------------------------------------------------- encoding

    /**
     * Encodes spans as one ExportTraceServiceRequest: one ResourceSpans per service name and
     * one ScopeSpans per scope within it, in order of first appearance.
     */
    public static byte[] encodeRequest(List<Span> spans) {
        WireWriter w = new WireWriter(64 + spans.size() * 160);
        Map<String, Map<List<String>, List<Span>>> grouped = new LinkedHashMap<>();
        for (Span s : spans) {
            grouped.computeIfAbsent(s.serviceName(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(List.of(s.scopeName(), s.scopeVersion()), k -> new ArrayList<>())
                    .add(s);
        }
        for (var resource : grouped.entrySet()) {
            int rs = w.beginMessage(1);
            int res = w.beginMessage(1);
            writeAttribute(w, 1, Attribute.of(SERVICE_NAME, resource.getKey()));
            w.endMessage(res);
            for (var scope : resource.getValue().entrySet()) {
                int ss = w.beginMessage(2);
                int sc = w.beginMessage(1);
                if (!scope.getKey().get(0).isEmpty()) {
                    w.string(1, scope.getKey().get(0));
                }
                if (!scope.getKey().get(1).isEmpty()) {
                    w.string(2, scope.getKey().get(1));
                }
                w.endMessage(sc);
                for (Span s : scope.getValue()) {
                    int sp = w.beginMessage(2);
                    writeSpan(w, s);
                    w.endMessage(sp);
                }
                w.endMessage(ss);
            }
            w.endMessage(rs);
        }
        return w.toByteArray();
    }

    private static void writeSpan(WireWriter w, Span s) {
        w.bytes(1, s.traceIdRaw());
        w.bytes(2, s.spanIdRaw());
        if (!s.isRoot()) {
            w.bytes(4, s.parentSpanIdRaw());
        }
        w.string(5, s.name());
        if (s.kind() != SpanKind.UNSPECIFIED) {
            w.uint(6, s.kind().number());
        }
        w.fixed64(7, s.startEpochNs());
        w.fixed64(8, s.endEpochNs());
        for (Attribute a : s.attributes()) {
            writeAttribute(w, 9, a);
        }
        if (s.status() != StatusCode.UNSET || !s.statusMessage().isEmpty()) {
            int st = w.beginMessage(15);
            if (!s.statusMessage().isEmpty()) {
                w.string(2, s.statusMessage());
            }
            if (s.status() != StatusCode.UNSET) {
                w.uint(3, s.status().number());
            }
            w.endMessage(st);
        }
    }

    private static void writeAttribute(WireWriter w, int field, Attribute a) {
        int kv = w.beginMessage(field);
        w.string(1, a.key());
        int v = w.beginMessage(2);
        writeValue(w, a.value());
        w.endMessage(v);
        w.endMessage(kv);
    }

    private static void writeValue(WireWriter w, AnyValue value) {
        switch (value) {
            case AnyValue.StringValue s -> w.string(1, s.value());
            case AnyValue.BoolValue b -> w.uint(2, b.value() ? 1 : 0);
            case AnyValue.LongValue l -> w.uint(3, l.value());
            case AnyValue.DoubleValue d -> w.float64(4, d.value());
            case AnyValue.ArrayValue a -> {
                int m = w.beginMessage(5);
                for (AnyValue x : a.values()) {
                    int e = w.beginMessage(1);
                    writeValue(w, x);
                    w.endMessage(e);
                }
                w.endMessage(m);
            }
            case AnyValue.KeyValueList kv -> {
                int m = w.beginMessage(6);
                for (Attribute x : kv.values()) {
                    writeAttribute(w, 1, x);
                }
                w.endMessage(m);
            }
            case AnyValue.BytesValue b -> w.bytes(7, b.value());
        }
    }

    /** An ExportTraceServiceResponse; partial_success only when something was rejected or said. */
    public static byte[] encodeResponse(long rejectedSpans, String errorMessage) {
        WireWriter w = new WireWriter(32 + errorMessage.length() * 3);
        if (rejectedSpans != 0 || !errorMessage.isEmpty()) {
            int ps = w.beginMessage(1);
            if (rejectedSpans != 0) {
                w.uint(1, rejectedSpans);
            }
            if (!errorMessage.isEmpty()) {
                w.string(2, errorMessage);
            }
            w.endMessage(ps);
        }
        return w.toByteArray();
    }

    /** A google.rpc.Status, the body OTLP/HTTP sends with 4xx/5xx answers to protobuf requests. */
    public static byte[] encodeRpcStatus(int grpcCode, String message) {
        WireWriter w = new WireWriter(16 + message.length() * 3);
        if (grpcCode != 0) {
            w.uint(1, grpcCode);
        }
        if (!message.isEmpty()) {
            w.string(2, message);
        }
        return w.toByteArray();
    }
}
