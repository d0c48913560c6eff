package dev.vprof.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * OTLP/JSON for traces (the protobuf JSON mapping with OTLP's deviations): lowerCamelCase
 * field names, trace and span ids as hex strings (not base64), 64-bit integers as decimal
 * strings, enums as integers. Decoding is lenient where it costs nothing: snake_case names,
 * 64-bit integers as JSON numbers, enums by name, base64 ids from older senders, and the old
 * {@code instrumentationLibrarySpans} name. Unknown fields are ignored.
 */
public final class OtlpJson {
    private OtlpJson() {}

    /** Nesting bounded so a hostile body cannot exhaust the stack of the tree reader. */
    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
            .build());
    private static final HexFormat HEX = HexFormat.of();

    // ---------------------------------------------------------------- decoding

    /** Decodes one ExportTraceServiceRequest in JSON. */
    public static DecodedBatch decodeRequest(byte[] body) throws OtlpFormatException {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new OtlpFormatException("malformed JSON: " + e.getOriginalMessage() + location(e));
        } catch (IOException e) {
            throw new OtlpFormatException("unreadable JSON body: " + e.getMessage(), e);
        }
        return decodeRequest(root);
    }

    /** Decodes an ExportTraceServiceRequest already parsed as a tree (span import uses this). */
    public static DecodedBatch decodeRequest(JsonNode root) throws OtlpFormatException {
        if (root == null || !root.isObject()) {
            throw new OtlpFormatException("expected a JSON object (ExportTraceServiceRequest), got "
                    + (root == null ? "nothing" : root.getNodeType().toString().toLowerCase(Locale.ROOT)));
        }
        List<Span> spans = new ArrayList<>();
        SpanCheck.Rejections rejections = new SpanCheck.Rejections();
        JsonNode resourceSpans = field(root, "resourceSpans", "resource_spans");
        if (resourceSpans == null) {
            return new DecodedBatch(spans, 0, List.of());
        }
        requireArray(resourceSpans, "resourceSpans");
        for (int i = 0; i < resourceSpans.size(); i++) {
            JsonNode rs = resourceSpans.get(i);
            String where = "resourceSpans[" + i + "]";
            requireObject(rs, where);
            String service = serviceName(field(rs, "resource", "resource"));
            JsonNode scopes = field(rs, "scopeSpans", "scope_spans");
            if (scopes == null) {
                scopes = field(rs, "instrumentationLibrarySpans", "instrumentation_library_spans");
            }
            if (scopes == null) {
                continue;
            }
            requireArray(scopes, where + ".scopeSpans");
            for (int j = 0; j < scopes.size(); j++) {
                JsonNode ss = scopes.get(j);
                String sWhere = where + ".scopeSpans[" + j + "]";
                requireObject(ss, sWhere);
                JsonNode scope = field(ss, "scope", "scope");
                if (scope == null) {
                    scope = field(ss, "instrumentationLibrary", "instrumentation_library");
                }
                String scopeName = scope != null && scope.isObject() ? text(scope.get("name")) : "";
                String scopeVersion = scope != null && scope.isObject() ? text(scope.get("version")) : "";
                JsonNode list = field(ss, "spans", "spans");
                if (list == null) {
                    continue;
                }
                requireArray(list, sWhere + ".spans");
                for (int k = 0; k < list.size(); k++) {
                    String spWhere = sWhere + ".spans[" + k + "]";
                    try {
                        Span s = readSpan(list.get(k), service, scopeName, scopeVersion);
                        if (s != null) {
                            spans.add(s);
                        }
                    } catch (BadSpan e) {
                        rejections.add(spWhere, e.getMessage());
                    }
                }
            }
        }
        return new DecodedBatch(spans, rejections.count, rejections.reasons);
    }

    /** Why one span is rejected (caught per span: the rest of the request is kept). */
    static final class BadSpan extends Exception {
        private static final long serialVersionUID = 1L;

        BadSpan(String message) {
            super(message, null, false, false);
        }
    }

    private static String serviceName(JsonNode resource) throws OtlpFormatException {
        if (resource == null || !resource.isObject()) {
            return "";
        }
        JsonNode attrs = resource.get("attributes");
        if (attrs == null || !attrs.isArray()) {
            return "";
        }
        for (JsonNode kv : attrs) {
            if (kv.isObject() && "service.name".equals(text(kv.get("key")))) {
                JsonNode v = kv.get("value");
                JsonNode s = v == null ? null : field(v, "stringValue", "string_value");
                return s == null ? "" : s.asText();
            }
        }
        return "";
    }

    private static Span readSpan(JsonNode n, String service, String scopeName, String scopeVersion) throws BadSpan {
        if (n == null || !n.isObject()) {
            throw new BadSpan("span is not a JSON object");
        }
        byte[] traceId = id(field(n, "traceId", "trace_id"), "traceId");
        byte[] spanId = id(field(n, "spanId", "span_id"), "spanId");
        byte[] parent = id(field(n, "parentSpanId", "parent_span_id"), "parentSpanId");
        if (parent.length == Span.SPAN_ID_BYTES && SpanCheck.allZero(parent)) {
            parent = new byte[0];
        }
        long start = uint64(field(n, "startTimeUnixNano", "start_time_unix_nano"), "startTimeUnixNano");
        long end = uint64(field(n, "endTimeUnixNano", "end_time_unix_nano"), "endTimeUnixNano");
        String problem = SpanCheck.problem(traceId, spanId, parent, start, end);
        if (problem != null) {
            throw new BadSpan(problem);
        }
        String name = text(n.get("name"));
        SpanKind kind = SpanKind.UNSPECIFIED;
        JsonNode k = n.get("kind");
        if (k != null && !k.isNull()) {
            kind = k.isTextual() && !isInteger(k.asText()) ? SpanKind.ofName(k.asText()) : SpanKind.of(int64(k, "kind"));
        }
        List<Attribute> attributes = attributes(n.get("attributes"), "attributes", 0);
        StatusCode status = StatusCode.UNSET;
        String statusMessage = "";
        JsonNode st = n.get("status");
        if (st != null && st.isObject()) {
            JsonNode c = st.get("code");
            if (c != null && !c.isNull()) {
                status = c.isTextual() && !isInteger(c.asText()) ? StatusCode.ofName(c.asText()) : StatusCode.of(int64(c, "status.code"));
            }
            statusMessage = text(st.get("message"));
        }
        return new Span(traceId, spanId, parent, name, kind, start, end, attributes, status, statusMessage,
                service, scopeName, scopeVersion);
    }

    static List<Attribute> attributes(JsonNode list, String where, int depth) throws BadSpan {
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new BadSpan(where + " is not an array");
        }
        List<Attribute> out = new ArrayList<>(list.size());
        for (JsonNode kv : list) {
            if (!kv.isObject()) {
                throw new BadSpan(where + " holds a non-object");
            }
            String key = text(kv.get("key"));
            out.add(new Attribute(key, value(kv.get("value"), where + "." + key, depth + 1)));
        }
        return out;
    }

    private static AnyValue value(JsonNode v, String where, int depth) throws BadSpan {
        if (depth > OtlpProtobuf.MAX_VALUE_DEPTH) {
            throw new BadSpan(where + ": attribute values nested too deep");
        }
        if (v == null || v.isNull() || !v.isObject()) {
            return new AnyValue.StringValue("");
        }
        JsonNode x;
        if ((x = field(v, "stringValue", "string_value")) != null) {
            return new AnyValue.StringValue(x.asText());
        }
        if ((x = field(v, "boolValue", "bool_value")) != null) {
            if (x.isBoolean()) {
                return new AnyValue.BoolValue(x.booleanValue());
            }
            if (x.isTextual() && (x.asText().equals("true") || x.asText().equals("false"))) {
                return new AnyValue.BoolValue(Boolean.parseBoolean(x.asText()));
            }
            throw new BadSpan(where + ": boolValue is not a boolean");
        }
        if ((x = field(v, "intValue", "int_value")) != null) {
            return new AnyValue.LongValue(int64(x, where));
        }
        if ((x = field(v, "doubleValue", "double_value")) != null) {
            return new AnyValue.DoubleValue(dbl(x, where));
        }
        if ((x = field(v, "arrayValue", "array_value")) != null) {
            JsonNode values = x.get("values");
            List<AnyValue> out = new ArrayList<>();
            if (values != null && values.isArray()) {
                for (JsonNode e : values) {
                    out.add(value(e, where, depth + 1));
                }
            }
            return new AnyValue.ArrayValue(out);
        }
        if ((x = field(v, "kvlistValue", "kvlist_value")) != null) {
            return new AnyValue.KeyValueList(attributes(x.get("values"), where, depth + 1));
        }
        if ((x = field(v, "bytesValue", "bytes_value")) != null) {
            try {
                return new AnyValue.BytesValue(Base64.getDecoder().decode(x.asText()));
            } catch (IllegalArgumentException e) {
                throw new BadSpan(where + ": bytesValue is not base64");
            }
        }
        return new AnyValue.StringValue("");
    }

    /** Hex ids (OTLP/JSON); base64 accepted when the length says so (older senders). */
    private static byte[] id(JsonNode n, String what) throws BadSpan {
        if (n == null || n.isNull()) {
            return new byte[0];
        }
        String s = n.asText().trim();
        if (s.isEmpty()) {
            return new byte[0];
        }
        if ((s.length() & 1) == 0 && isHex(s)) {
            return HEX.parseHex(s);
        }
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new BadSpan(what + " '" + s + "' is neither hex nor base64");
        }
    }

    private static long uint64(JsonNode n, String what) throws BadSpan {
        if (n == null || n.isNull()) {
            return 0;
        }
        if (n.isIntegralNumber()) {
            if (n.canConvertToLong()) {
                return n.longValue();
            }
            try {
                return Long.parseUnsignedLong(n.bigIntegerValue().toString());
            } catch (NumberFormatException e) {
                throw new BadSpan(what + " " + n + " does not fit 64 bits");
            }
        }
        if (n.isTextual()) {
            return decimal(n, what, Long::parseUnsignedLong, "an unsigned 64-bit decimal");
        }
        throw new BadSpan(what + " is not an integer: " + n);
    }

    /** A JSON string holding a decimal, read by {@code parse}; {@code kind} says what it must be. */
    private static long decimal(JsonNode n, String what, ToLongFunction<String> parse, String kind) throws BadSpan {
        try {
            return parse.applyAsLong(n.asText().trim());
        } catch (NumberFormatException e) {
            throw new BadSpan(what + " '" + n.asText() + "' is not " + kind);
        }
    }

    /**
     * A signed 64-bit integer as OTLP/JSON writes one: a decimal string (the JSON mapping of
     * protobuf's int64), or a JSON number that fits; the one reader of such integers, for
     * OTLP/JSON and for the Jaeger files {@link SpanImport} reads.
     */
    static long int64(JsonNode n, String what) throws BadSpan {
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return n.longValue();
        }
        if (n.isTextual()) {
            return decimal(n, what, Long::parseLong, "a 64-bit decimal");
        }
        throw new BadSpan(what + " is not a 64-bit integer: " + n);
    }

    private static double dbl(JsonNode n, String what) throws BadSpan {
        if (n.isNumber()) {
            return n.doubleValue();
        }
        if (n.isTextual()) {
            String s = n.asText().trim();
            switch (s) {
                case "NaN": return Double.NaN;
                case "Infinity": return Double.POSITIVE_INFINITY;
                case "-Infinity": return Double.NEGATIVE_INFINITY;
                default:
                    try {
                        return Double.parseDouble(s);
                    } catch (NumberFormatException e) {
                        throw new BadSpan(what + " '" + s + "' is not a number");
                    }
            }
        }
        throw new BadSpan(what + " is not a number: " + n);
    }

    static JsonNode field(JsonNode n, String camel, String snake) {
        JsonNode x = n.get(camel);
        return x != null ? x : n.get(snake);
    }

    static String text(JsonNode n) {
        return n == null || n.isNull() ? "" : n.asText();
    }

    private static boolean isInteger(String s) {
        return !s.isEmpty() && s.trim().chars().allMatch(c -> c == '-' || (c >= '0' && c <= '9'));
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static void requireArray(JsonNode n, String where) throws OtlpFormatException {
        if (!n.isArray()) {
            throw new OtlpFormatException(where + " must be a JSON array, got " + n.getNodeType().toString().toLowerCase(Locale.ROOT));
        }
    }

    private static void requireObject(JsonNode n, String where) throws OtlpFormatException {
        if (!n.isObject()) {
            throw new OtlpFormatException(where + " must be a JSON object, got " + n.getNodeType().toString().toLowerCase(Locale.ROOT));
        }
    }

    static String location(JsonProcessingException e) {
        var loc = e.getLocation();
        return loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }

    // ---------------------------------------------------------------- encoding

    /** Encodes spans as one OTLP/JSON ExportTraceServiceRequest on a single line. */
    public static byte[] encodeRequest(List<Span> spans) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + spans.size() * 400);
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            Map<String, Map<List<String>, List<Span>>> grouped = new LinkedHashMap<>();
            for (Span s : spans) {
                grouped.computeIfAbsent(s.serviceName(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(List.of(s.scopeName(), s.scopeVersion()), k -> new ArrayList<>())
                        .add(s);
            }
            g.writeStartObject();
            g.writeArrayFieldStart("resourceSpans");
            for (var resource : grouped.entrySet()) {
                g.writeStartObject();
                g.writeObjectFieldStart("resource");
                g.writeArrayFieldStart("attributes");
                writeAttribute(g, Attribute.of("service.name", resource.getKey()));
                g.writeEndArray();
                g.writeEndObject();
                g.writeArrayFieldStart("scopeSpans");
                for (var scope : resource.getValue().entrySet()) {
                    g.writeStartObject();
                    g.writeObjectFieldStart("scope");
                    g.writeStringField("name", scope.getKey().get(0));
                    g.writeStringField("version", scope.getKey().get(1));
                    g.writeEndObject();
                    g.writeArrayFieldStart("spans");
                    for (Span s : scope.getValue()) {
                        writeSpan(g, s);
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return out.toByteArray();
    }

    private static void writeSpan(JsonGenerator g, Span s) throws IOException {
        g.writeStartObject();
        g.writeStringField("traceId", HEX.formatHex(s.traceIdRaw()));
        g.writeStringField("spanId", HEX.formatHex(s.spanIdRaw()));
        if (!s.isRoot()) {
            g.writeStringField("parentSpanId", HEX.formatHex(s.parentSpanIdRaw()));
        }
        g.writeStringField("name", s.name());
        g.writeNumberField("kind", s.kind().number());
        g.writeStringField("startTimeUnixNano", Long.toUnsignedString(s.startEpochNs()));
        g.writeStringField("endTimeUnixNano", Long.toUnsignedString(s.endEpochNs()));
        g.writeArrayFieldStart("attributes");
        for (Attribute a : s.attributes()) {
            writeAttribute(g, a);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("status");
        if (!s.statusMessage().isEmpty()) {
            g.writeStringField("message", s.statusMessage());
        }
        g.writeNumberField("code", s.status().number());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void writeAttribute(JsonGenerator g, Attribute a) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", a.key());
        g.writeFieldName("value");
        writeValue(g, a.value());
        g.writeEndObject();
    }

    private static void writeValue(JsonGenerator g, AnyValue v) throws IOException {
        g.writeStartObject();
        switch (v) {
            case AnyValue.StringValue s -> g.writeStringField("stringValue", s.value());
            case AnyValue.BoolValue b -> g.writeBooleanField("boolValue", b.value());
            case AnyValue.LongValue l -> g.writeStringField("intValue", Long.toString(l.value()));
            case AnyValue.DoubleValue d -> {
                double x = d.value();
                if (Double.isNaN(x)) {
                    g.writeStringField("doubleValue", "NaN");
                } else if (Double.isInfinite(x)) {
                    g.writeStringField("doubleValue", x > 0 ? "Infinity" : "-Infinity");
                } else {
                    g.writeNumberField("doubleValue", x);
                }
            }
            case AnyValue.ArrayValue a -> writeValues(g, "arrayValue", a.values(), OtlpJson::writeValue);
            case AnyValue.KeyValueList kv -> writeValues(g, "kvlistValue", kv.values(), OtlpJson::writeAttribute);
            case AnyValue.BytesValue b -> g.writeStringField("bytesValue", Base64.getEncoder().encodeToString(b.value()));
        }
        g.writeEndObject();
    }

    /** How one element of a list is written. */
    private interface ElementWriter<T> {
        void write(JsonGenerator g, T x) throws IOException;
    }

    /** {@code "field": {"values": [...]}}, the shape of both ArrayValue and KeyValueList. */
    private static <T> void writeValues(JsonGenerator g, String field, List<T> xs, ElementWriter<T> element)
            throws IOException {
        g.writeObjectFieldStart(field);
        g.writeArrayFieldStart("values");
        for (T x : xs) {
            element.write(g, x);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** An ExportTraceServiceResponse in JSON (int64 as a decimal string, per the JSON mapping). */
    public static byte[] encodeResponse(long rejectedSpans, String errorMessage) {
        var root = MAPPER.createObjectNode();
        if (rejectedSpans != 0 || !errorMessage.isEmpty()) {
            var ps = root.putObject("partialSuccess");
            ps.put("rejectedSpans", Long.toString(rejectedSpans));
            ps.put("errorMessage", errorMessage);
        }
        return toBytes(root);
    }

    /** A google.rpc.Status in JSON, the body of OTLP/HTTP error answers to JSON requests. */
    public static byte[] encodeRpcStatus(int grpcCode, String message) {
        var root = MAPPER.createObjectNode();
        root.put("code", grpcCode);
        root.put("message", message);
        return toBytes(root);
    }

    /** Reads a JSON ExportTraceServiceResponse's partial success (a sender's view; tests use it). */
    public static OtlpProtobuf.PartialSuccess decodeResponse(byte[] body) throws OtlpFormatException {
        try {
            JsonNode root = MAPPER.readTree(body);
            JsonNode ps = root == null ? null : field(root, "partialSuccess", "partial_success");
            if (ps == null || !ps.isObject()) {
                return new OtlpProtobuf.PartialSuccess(0, "");
            }
            JsonNode rejected = field(ps, "rejectedSpans", "rejected_spans");
            return new OtlpProtobuf.PartialSuccess(rejected == null ? 0 : int64(rejected, "rejectedSpans"),
                    text(field(ps, "errorMessage", "error_message")));
        } catch (IOException | BadSpan e) {
            throw new OtlpFormatException("malformed JSON response: " + e.getMessage(), e);
        }
    }

    private static byte[] toBytes(JsonNode n) {
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
