package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpanImportTest {

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(SpanImportTest.class.getResource("/otlp/" + name).toURI());
    }

    @Test
    void collectorFileExportKeepsGoodSpansAndNamesBadLines() throws Exception {
        SpanImport.Result r = SpanImport.read(resource("collector-file-export.jsonl"));
        assertEquals(SpanImport.Format.OTLP_JSON_LINES, r.format());
        assertEquals(List.of("llm_request", "POST /v1/completions", "llm_request"), r.spans().stream().map(Span::name).toList());
        assertEquals(List.of("vllm", "router", "vllm"), r.spans().stream().map(Span::serviceName).toList());
        assertEquals(2, r.errorCount(), r.errors().toString());
        assertTrue(r.errors().get(0).startsWith("collector-file-export.jsonl line 2: malformed JSON"), r.errors().get(0));
        assertTrue(r.errors().get(1).startsWith("collector-file-export.jsonl line 4: "), r.errors().get(1));
        assertTrue(r.errors().get(1).contains("traceId 'not-hex'"), r.errors().get(1));
        // The imported llm_request becomes a request with phases, as a received one would.
        RequestSlice req = RequestPhases.of(r.spans().getFirst());
        assertEquals("cmpl-a", req.requestId());
        assertEquals(600_000_000L, req.phase("decode").durationNs());
    }

    @Test
    void jaegerExportMapsTagsBackToSpanFields() throws Exception {
        SpanImport.Result r = SpanImport.read(resource("jaeger-export.json"));
        assertEquals(SpanImport.Format.JAEGER_JSON, r.format());
        assertEquals(3, r.spans().size());
        Span root = r.spans().get(0);
        assertEquals("router", root.serviceName());
        assertEquals(SpanKind.SERVER, root.kind());
        assertEquals(StatusCode.ERROR, root.status());
        assertEquals("fastapi", root.scopeName());
        assertEquals(1_760_000_000_000_000_000L, root.startEpochNs());
        assertEquals(1_200_000_000L, root.durationNs());
        assertEquals(List.of(Attribute.of("http.status_code", 500L)), root.attributes());

        Span llm = r.spans().get(1);
        assertEquals("vllm", llm.serviceName());
        assertEquals("00f067aa0ba902b7", llm.parentSpanIdHex());
        assertEquals(StatusCode.OK, llm.status());
        assertEquals(AnyValue.of(0.3), llm.attribute("gen_ai.latency.time_in_queue"));
        assertEquals(300_000_000L, RequestPhases.of(llm).phase("queue").durationNs());

        Span legacy = r.spans().get(2);
        assertEquals("0000000000000000a3ce929d0e0e4736", legacy.traceIdHex());
        assertEquals("0000000000003331", legacy.spanIdHex());
        assertEquals("0000000000002222", legacy.parentSpanIdHex());

        assertEquals(1, r.errorCount());
        assertTrue(r.errors().getFirst().startsWith("data[0].spans[2] (spanID xyz-not-hex)"), r.errors().getFirst());
    }

    @Test
    void aPrettyPrintedOtlpRequestIsReadWhole(@TempDir Path dir) throws Exception {
        List<Span> spans = TestSpans.mixed(2);
        String pretty = OtlpJson.mapper().writerWithDefaultPrettyPrinter()
                .writeValueAsString(OtlpJson.mapper().readTree(OtlpJson.encodeRequest(spans)));
        Path f = Files.writeString(dir.resolve("request.json"), pretty);
        SpanImport.Result r = SpanImport.read(f);
        assertEquals(SpanImport.Format.OTLP_JSON, r.format());
        assertEquals(TestSpans.sorted(spans), TestSpans.sorted(r.spans()));
    }

    @Test
    void otherFilesAreRefusedWithWhatTheyLookedLike(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.json"), "\n\n");
        assertTrue(assertThrows(OtlpFormatException.class, () -> SpanImport.read(empty)).getMessage().contains("empty"));
        Path other = Files.writeString(dir.resolve("other.json"), "{\"hello\": 1}");
        assertTrue(assertThrows(OtlpFormatException.class, () -> SpanImport.read(other)).getMessage()
                .contains("neither OTLP"));
        Path text = Files.writeString(dir.resolve("notes.txt"), "just text");
        assertTrue(assertThrows(OtlpFormatException.class, () -> SpanImport.read(text)).getMessage().contains("not JSON"));
    }

    /** Found by SpanImportFuzzTest: a byte that is not UTF-8 ended the import with "Input length = 1". */
    @Test
    void aByteThatIsNotUtf8CostsNoSpans(@TempDir Path dir) throws Exception {
        byte[] line = OtlpJson.encodeRequest(TestSpans.mixed(1));
        String text = new String(line, java.nio.charset.StandardCharsets.UTF_8);
        byte[] damaged = line.clone();
        damaged[text.indexOf("\"name\":\"") + 8] = (byte) 0xff; // the first letter of the first name
        Path f = dir.resolve("spans.jsonl");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(line);
        out.write('\n');
        out.writeBytes(damaged);
        out.write('\n');
        Files.write(f, out.toByteArray());
        SpanImport.Result r = SpanImport.read(f);
        assertEquals(SpanImport.Format.OTLP_JSON_LINES, r.format());
        assertEquals(0, r.errorCount(), r.errors().toString());
        assertEquals(2 * TestSpans.mixed(1).size(), r.spans().size());
        assertTrue(r.spans().stream().anyMatch(sp -> (sp.name() + sp.scopeName()).contains("\uFFFD")),
                "the damaged name kept, marked as not decodable");
    }

    /** Found by SpanImportFuzzTest (long run): a startTime past 2^63 ns ended the import with "long overflow". */
    @Test
    void aJaegerTimePastTheYear2262IsOneBadSpanNotTheEndOfTheImport(@TempDir Path dir) throws Exception {
        String good = "{\"traceID\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"spanID\":\"00f067aa0ba902b7\","
                + "\"operationName\":\"ok\",\"startTime\":1760000000000000,\"duration\":5}";
        String late = good.replace("00f067aa0ba902b7", "00f067aa0ba902b8").replace("1760000000000000", "21760000000000000");
        Path f = Files.writeString(dir.resolve("jaeger.json"),
                "{\"data\":[{\"traceID\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"spans\":[" + good + "," + late + "]}]}");
        SpanImport.Result r = SpanImport.read(f);
        assertEquals(1, r.spans().size(), r.errors().toString());
        assertEquals(1, r.errorCount());
        assertTrue(r.errors().get(0).contains("past the year 2262"), r.errors().get(0));
    }

    /**
     * Found by SpanImportFuzzTest: bytes 01 00 00 00 before an OTLP line made Jackson guess UTF-32
     * and end the import with a CharConversionException. The file is UTF-8 text: refused as neither
     * format, or read line by line, never an exception of the wrong kind.
     */
    @Test
    void aFileJacksonWouldTakeForUtf32IsReadAsUtf8(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("odd.jsonl");
        try (java.io.InputStream in = SpanImportTest.class.getResourceAsStream("/dev/vprof/otlp/SpanImportFuzzTestInputs/"
                + "importThrowsOnlyFormatErrorsAndKeepsOnlyValidSpans/crash-666f402cec798f4619961efc0e4d380790e103a8")) {
            Files.write(f, in.readAllBytes());
        }
        try {
            SpanImport.Result r = SpanImport.read(f);
            assertTrue(r.errorCount() > 0, "the broken first line is an error: " + r);
        } catch (OtlpFormatException e) {
            assertTrue(e.getMessage().contains("not JSON") || e.getMessage().contains("neither"), e.getMessage());
        }
    }

    /**
     * Jaeger's int64 tags and microsecond times are read by OTLP/JSON's one int64 reader: a decimal
     * string or a number that fits is taken; one past 2^63 (once cut to its low 64 bits as a tag)
     * or a fraction is one bad span, named.
     */
    @Test
    void jaegerIntegersAreReadAsOtlpJsonReadsInt64(@TempDir Path dir) throws Exception {
        String span = "{\"traceID\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"spanID\":\"00f067aa0ba902b#\","
                + "\"operationName\":\"ok\",\"startTime\":\"1760000000000000\",\"duration\":5,"
                + "\"tags\":[{\"key\":\"n\",\"type\":\"int64\",\"value\":@}]}";
        List<String> values = List.of("\"-42\"", "42", "9223372036854775808", "\"9223372036854775808\"", "4.5");
        StringBuilder spans = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            spans.append(i == 0 ? "" : ",").append(span.replace("#", Integer.toString(i)).replace("@", values.get(i)));
        }
        Path f = Files.writeString(dir.resolve("jaeger.json"),
                "{\"data\":[{\"traceID\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"spans\":[" + spans + "]}]}");
        SpanImport.Result r = SpanImport.read(f);
        assertEquals(List.of(-42L, 42L), r.spans().stream()
                .map(sp -> ((AnyValue.LongValue) sp.attributes().stream().filter(a -> a.key().equals("n")).findFirst()
                        .orElseThrow().value()).value()).sorted().toList(), r.errors().toString());
        assertEquals(3, r.errorCount(), r.errors().toString());
        assertTrue(r.errors().stream().allMatch(e -> e.contains("tag 'n'")), r.errors().toString());
    }
}
