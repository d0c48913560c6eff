package dev.vprof.otlp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * {@code --spans FILE}: spans recorded elsewhere, imported instead of received. Two formats,
 * told apart by their content:
 * <ul>
 * <li>OTLP JSON lines, as the OpenTelemetry Collector's file exporter writes them: one
 *     ExportTraceServiceRequest per line (a single, possibly pretty-printed request is also read);</li>
 * <li>a Jaeger JSON export ({@code {"data":[{"traceID","spans":[...],"processes":{...}}]}}),
 *     as the Jaeger UI's "Download JSON" and its query API produce.</li>
 * </ul>
 * Bad lines and bad spans do not stop the import: each becomes an error that names its line
 * (or its place in the Jaeger document), and every good span is kept.
 */
public final class SpanImport {
    private SpanImport() {}

    public enum Format { OTLP_JSON_LINES, OTLP_JSON, JAEGER_JSON }

    /**
     * The errors list is capped at {@link #MAX_ERRORS} entries; {@code errorCount} is the true count.
     * {@code requests} hold the spans as the capture stores them: each OTLP request as read from the
     * file (a line, or the whole document); a Jaeger export, which is not OTLP, as requests vprof
     * encodes from the spans it read.
     */
    public record Result(Format format, List<Span> spans, List<ExportRequest> requests, List<String> errors,
                         long errorCount) {
        public Result {
            spans = List.copyOf(spans);
            requests = List.copyOf(requests);
            errors = List.copyOf(errors);
        }
    }

    /** Spans per request when a Jaeger export is stored as OTLP. */
    private static final int SPANS_PER_REQUEST = 10_000;

    static final int MAX_ERRORS = 100;

    /**
     * Reads {@code file}.
     *
     * @throws OtlpFormatException when the file is neither format at all (the message says what it looked like)
     */
    public static Result read(Path file) throws IOException, OtlpFormatException {
        String firstLine = firstNonBlankLine(file);
        if (firstLine == null) {
            throw new OtlpFormatException(file + ": the file is empty; expected OTLP JSON lines or a Jaeger JSON export");
        }
        JsonNode first = tryParse(firstLine);
        if (first != null && first.isObject() && isOtlp(first)) {
            return readLines(file);
        }
        if (first != null && first.isObject() && first.has("data")) {
            return readJaeger(first);
        }
        // Not one request per line: a pretty-printed document, or lines whose first is broken.
        JsonNode whole;
        try {
            try (BufferedReader in = lines(file)) {
                whole = OtlpJson.mapper().readTree(in); // as UTF-8 text: no guessing of UTF-16 or UTF-32
            }
        } catch (JsonProcessingException e) {
            if (first == null && lineCount(file) > 1) {
                return readLines(file);
            }
            throw new OtlpFormatException(file + ": not JSON: " + e.getOriginalMessage() + OtlpJson.location(e));
        }
        if (whole != null && whole.isObject() && whole.has("data")) {
            return readJaeger(whole);
        }
        if (whole != null && whole.isObject() && isOtlp(whole)) {
            Errors errors = new Errors();
            DecodedBatch b = decodeOrError(whole, "", errors);
            List<Span> spans = b == null ? List.of() : b.spans();
            return new Result(Format.OTLP_JSON, spans, spans.isEmpty() ? List.of()
                    : List.of(new ExportRequest(ExportRequest.Encoding.JSON, Files.readAllBytes(file), spans)),
                    errors.list, errors.count);
        }
        throw new OtlpFormatException(file + ": JSON, but neither OTLP (no \"resourceSpans\") nor a Jaeger export "
                + "(no \"data\" array)");
    }

    private static boolean isOtlp(JsonNode n) {
        return n.has("resourceSpans") || n.has("resource_spans");
    }

    private static final class Errors {
        final List<String> list = new ArrayList<>();
        long count;

        void add(String e) {
            count++;
            if (list.size() < MAX_ERRORS) {
                list.add(e);
            }
        }
    }

    private static Result readLines(Path file) throws IOException {
        List<Span> spans = new ArrayList<>();
        List<ExportRequest> requests = new ArrayList<>();
        Errors errors = new Errors();
        try (BufferedReader in = lines(file)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                String where = file.getFileName() + " line " + number;
                JsonNode tree;
                try {
                    tree = OtlpJson.mapper().readTree(line);
                } catch (JsonProcessingException e) {
                    errors.add(where + ": malformed JSON: " + e.getOriginalMessage()
                            + (e.getLocation() == null ? "" : " (column " + e.getLocation().getColumnNr() + ")"));
                    continue;
                }
                DecodedBatch b = decodeOrError(tree, where, errors);
                if (b != null && !b.spans().isEmpty()) {
                    spans.addAll(b.spans());
                    requests.add(new ExportRequest(ExportRequest.Encoding.JSON, line.getBytes(StandardCharsets.UTF_8),
                            b.spans()));
                }
            }
        }
        return new Result(Format.OTLP_JSON_LINES, spans, requests, errors.list, errors.count);
    }

    private static DecodedBatch decodeOrError(JsonNode tree, String where, Errors errors) {
        String prefix = where.isEmpty() ? "" : where + ": ";
        try {
            DecodedBatch b = OtlpJson.decodeRequest(tree);
            for (String r : b.rejectReasons()) {
                errors.add(prefix + r);
            }
            for (long i = b.rejectReasons().size(); i < b.rejected(); i++) {
                errors.add(prefix + "another span rejected");
            }
            return b;
        } catch (OtlpFormatException e) {
            errors.add(prefix + e.getMessage());
            return null;
        }
    }

    // ---------------------------------------------------------------- Jaeger

    private static Result readJaeger(JsonNode root) throws OtlpFormatException {
        JsonNode data = root.get("data");
        if (!data.isArray()) {
            throw new OtlpFormatException("Jaeger export: \"data\" must be an array of traces");
        }
        List<Span> spans = new ArrayList<>();
        Errors errors = new Errors();
        for (int t = 0; t < data.size(); t++) {
            JsonNode trace = data.get(t);
            JsonNode list = trace.get("spans");
            if (list == null || !list.isArray()) {
                errors.add("data[" + t + "]: no \"spans\" array");
                continue;
            }
            JsonNode processes = trace.get("processes");
            for (int s = 0; s < list.size(); s++) {
                JsonNode js = list.get(s);
                String where = "data[" + t + "].spans[" + s + "]" + (js.has("spanID") ? " (spanID " + js.get("spanID").asText() + ")" : "");
                try {
                    spans.add(jaegerSpan(js, processes));
                } catch (OtlpJson.BadSpan e) {
                    errors.add(where + ": " + e.getMessage());
                }
            }
        }
        List<ExportRequest> requests = new ArrayList<>();
        for (int i = 0; i < spans.size(); i += SPANS_PER_REQUEST) {
            requests.add(ExportRequest.of(spans.subList(i, Math.min(spans.size(), i + SPANS_PER_REQUEST))));
        }
        return new Result(Format.JAEGER_JSON, spans, requests, errors.list, errors.count);
    }

    private static Span jaegerSpan(JsonNode js, JsonNode processes) throws OtlpJson.BadSpan {
        if (!js.isObject()) {
            throw new OtlpJson.BadSpan("span is not a JSON object");
        }
        byte[] traceId = jaegerId(js.get("traceID"), Span.TRACE_ID_BYTES, "traceID");
        byte[] spanId = jaegerId(js.get("spanID"), Span.SPAN_ID_BYTES, "spanID");
        byte[] parent = new byte[0];
        JsonNode refs = js.get("references");
        if (refs != null && refs.isArray()) {
            // CHILD_OF is the parent; FOLLOWS_FROM stands in when it is the only reference.
            for (String wanted : new String[] {"CHILD_OF", "FOLLOWS_FROM"}) {
                for (JsonNode ref : refs) {
                    if (parent.length == 0 && wanted.equals(OtlpJson.text(ref.get("refType")))) {
                        parent = jaegerId(ref.get("spanID"), Span.SPAN_ID_BYTES, "references.spanID");
                    }
                }
            }
        }
        if (parent.length == 0 && js.hasNonNull("parentSpanID")) {
            parent = jaegerId(js.get("parentSpanID"), Span.SPAN_ID_BYTES, "parentSpanID");
            if (isZero(parent)) {
                parent = new byte[0];
            }
        }
        long startUs = micros(js.get("startTime"), "startTime");
        long durationUs = micros(js.get("duration"), "duration");
        if (durationUs < 0) {
            throw new OtlpJson.BadSpan("negative duration " + durationUs + " us");
        }
        // In ns, both must fit a signed long (the year 2262): anything later is not a real time.
        if (startUs < 0 || startUs > Long.MAX_VALUE / 1000 || durationUs > Long.MAX_VALUE / 1000 - startUs) {
            throw new OtlpJson.BadSpan("startTime " + startUs + " us + duration " + durationUs
                    + " us is past the year 2262; not a real timestamp");
        }
        long start = startUs * 1000L;
        long end = (startUs + durationUs) * 1000L;
        String problem = SpanCheck.problem(traceId, spanId, parent, start, end);
        if (problem != null) {
            throw new OtlpJson.BadSpan(problem);
        }
        String service = "";
        JsonNode process = js.get("process");
        if (process == null && processes != null && js.has("processID")) {
            process = processes.get(js.get("processID").asText());
        }
        if (process != null) {
            service = OtlpJson.text(process.get("serviceName"));
        }
        SpanKind kind = SpanKind.UNSPECIFIED;
        StatusCode status = StatusCode.UNSET;
        String statusMessage = "";
        String scopeName = "";
        String scopeVersion = "";
        boolean errorTag = false;
        List<Attribute> attributes = new ArrayList<>();
        JsonNode tags = js.get("tags");
        if (tags != null && tags.isArray()) {
            for (JsonNode tag : tags) {
                String key = OtlpJson.text(tag.get("key"));
                AnyValue value = jaegerValue(tag, key);
                // The tags Jaeger's OTLP translation adds for OTLP fields go back to those fields.
                switch (key) {
                    case "span.kind" -> kind = SpanKind.ofName(value.asText());
                    case "otel.status_code" -> status = StatusCode.ofName(value.asText());
                    case "otel.status_description" -> statusMessage = value.asText();
                    case "otel.scope.name", "otel.library.name" -> scopeName = value.asText();
                    case "otel.scope.version", "otel.library.version" -> scopeVersion = value.asText();
                    case "error" -> errorTag = value instanceof AnyValue.BoolValue b ? b.value() : "true".equals(value.asText());
                    case "internal.span.format" -> { }
                    default -> attributes.add(new Attribute(key, value));
                }
            }
        }
        if (errorTag && status == StatusCode.UNSET) {
            status = StatusCode.ERROR;
        }
        return new Span(traceId, spanId, parent, OtlpJson.text(js.get("operationName")), kind, start, end, attributes,
                status, statusMessage, service, scopeName, scopeVersion);
    }

    private static AnyValue jaegerValue(JsonNode tag, String key) throws OtlpJson.BadSpan {
        JsonNode v = tag.get("value");
        String type = OtlpJson.text(tag.get("type")).toLowerCase(Locale.ROOT);
        if (v == null || v.isNull()) {
            return new AnyValue.StringValue("");
        }
        try {
            return switch (type) {
                case "bool" -> new AnyValue.BoolValue(v.isBoolean() ? v.booleanValue() : Boolean.parseBoolean(v.asText()));
                case "int64" -> new AnyValue.LongValue(OtlpJson.int64(v, "tag '" + key + "'"));
                case "float64" -> new AnyValue.DoubleValue(v.isNumber() ? v.doubleValue() : Double.parseDouble(v.asText().trim()));
                case "binary" -> new AnyValue.BytesValue(Base64.getDecoder().decode(v.asText()));
                default -> new AnyValue.StringValue(v.asText());
            };
        } catch (IllegalArgumentException e) { // NumberFormatException included
            throw new OtlpJson.BadSpan("tag '" + key + "' of type " + type + " has value " + v);
        }
    }

    /** Jaeger ids are hex without leading zeroes (and 64-bit trace ids are 16 digits): pad left. */
    private static byte[] jaegerId(JsonNode n, int bytes, String what) throws OtlpJson.BadSpan {
        String s = OtlpJson.text(n).trim();
        if (s.isEmpty() || s.length() > bytes * 2) {
            throw new OtlpJson.BadSpan(what + " '" + s + "' is not a hex id of at most " + bytes * 2 + " digits");
        }
        String padded = "0".repeat(bytes * 2 - s.length()) + s;
        try {
            return HexFormat.of().parseHex(padded);
        } catch (IllegalArgumentException e) {
            throw new OtlpJson.BadSpan(what + " '" + s + "' is not hex");
        }
    }

    private static long micros(JsonNode n, String what) throws OtlpJson.BadSpan {
        if (n == null || n.isNull()) {
            throw new OtlpJson.BadSpan("no " + what);
        }
        return OtlpJson.int64(n, what + " (microseconds)");
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static String firstNonBlankLine(Path file) throws IOException {
        try (BufferedReader in = lines(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.isBlank()) {
                    return line;
                }
            }
        }
        return null;
    }

    private static long lineCount(Path file) throws IOException {
        try (BufferedReader in = lines(file)) {
            return in.lines().filter(l -> !l.isBlank()).limit(2).count();
        }
    }

    /**
     * The file's lines with bytes that are not UTF-8 replaced by U+FFFD: a stray byte in one
     * attribute must not cost the spans around it, nor end the import with a decoder error.
     */
    private static BufferedReader lines(Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)));
    }

    private static JsonNode tryParse(String line) {
        try {
            return OtlpJson.mapper().readTree(line);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
