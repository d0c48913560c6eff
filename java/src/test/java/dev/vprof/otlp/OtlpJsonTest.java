package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class OtlpJsonTest {

    @Test
    void encodedJsonDecodesToTheSameSpansAsProtobuf() throws Exception {
        List<Span> spans = TestSpans.mixed(4);
        List<Span> viaJson = OtlpJson.decodeRequest(OtlpJson.encodeRequest(spans)).spans();
        List<Span> viaProto = OtlpProtobuf.decodeRequest(OtlpProtobuf.encodeRequest(spans)).spans();
        assertEquals(TestSpans.sorted(spans), TestSpans.sorted(viaJson));
        assertEquals(viaProto, viaJson);
    }

    @Test
    void specFormIsRead() throws Exception {
        // As an OTLP/JSON exporter writes it: hex ids, 64-bit integers as strings, enum integers.
        String json = """
                {"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"vllm"}}]},
                 "scopeSpans":[{"scope":{"name":"vllm.llm_engine","version":"0.11"},"spans":[{
                   "traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7EC3C1B174","parentSpanId":"EEE19B7EC3C1B173",
                   "name":"llm_request","kind":2,"startTimeUnixNano":"1544712660000000000","endTimeUnixNano":"1544712661000000000",
                   "attributes":[{"key":"gen_ai.usage.prompt_tokens","value":{"intValue":"9007199254740993"}},
                                 {"key":"gen_ai.latency.e2e","value":{"doubleValue":1.0}},
                                 {"key":"ok","value":{"boolValue":true}},
                                 {"key":"b","value":{"bytesValue":"AAH/"}},
                                 {"key":"arr","value":{"arrayValue":{"values":[{"stringValue":"x"},{"intValue":3}]}}}],
                   "status":{"code":2,"message":"oops"},
                   "someFutureField":{"nested":[1,2,3]}}]}]}]}
                """;
        DecodedBatch batch = OtlpJson.decodeRequest(json.getBytes(StandardCharsets.UTF_8));
        assertEquals(0, batch.rejected());
        Span s = batch.spans().getFirst();
        assertEquals("5b8efff798038103d269b633813fc60c", s.traceIdHex());
        assertEquals("eee19b7ec3c1b173", s.parentSpanIdHex());
        assertEquals(SpanKind.SERVER, s.kind());
        assertEquals(1544712660000000000L, s.startEpochNs());
        assertEquals(9007199254740993L, ((AnyValue.LongValue) s.attribute("gen_ai.usage.prompt_tokens")).value());
        assertEquals(new AnyValue.BytesValue(new byte[] {0, 1, (byte) 0xff}), s.attribute("b"));
        assertEquals(new AnyValue.ArrayValue(List.of(AnyValue.of("x"), AnyValue.of(3L))), s.attribute("arr"));
        assertEquals(StatusCode.ERROR, s.status());
        assertEquals("oops", s.statusMessage());
        assertEquals("vllm", s.serviceName());
        assertEquals("0.11", s.scopeVersion());
    }

    @Test
    void snakeCaseNumbersAndEnumNamesAreTolerated() throws Exception {
        String json = """
                {"resource_spans":[{"scope_spans":[{"spans":[{
                   "trace_id":"5b8efff798038103d269b633813fc60c","span_id":"eee19b7ec3c1b174",
                   "name":"n","kind":"SPAN_KIND_CLIENT","start_time_unix_nano":1000,"end_time_unix_nano":2000,
                   "attributes":[{"key":"i","value":{"int_value":5}}],"status":{"code":"STATUS_CODE_OK"}}]}]}]}
                """;
        Span s = OtlpJson.decodeRequest(json.getBytes(StandardCharsets.UTF_8)).spans().getFirst();
        assertEquals(SpanKind.CLIENT, s.kind());
        assertEquals(StatusCode.OK, s.status());
        assertEquals(1000, s.startEpochNs());
        assertEquals(AnyValue.of(5L), s.attribute("i"));
        assertTrue(s.isRoot());
    }

    @Test
    void badSpansAreRejectedWithTheirPathAndGoodOnesKept() throws Exception {
        String json = """
                {"resourceSpans":[{"scopeSpans":[{"spans":[
                  {"traceId":"zz","spanId":"eee19b7ec3c1b174","name":"bad-hex"},
                  {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"good",
                   "startTimeUnixNano":"1","endTimeUnixNano":"2"},
                  {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b175","name":"bad-time",
                   "startTimeUnixNano":"soon","endTimeUnixNano":"2"}]}]}]}
                """;
        DecodedBatch batch = OtlpJson.decodeRequest(json.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("good"), batch.spans().stream().map(Span::name).toList());
        assertEquals(2, batch.rejected());
        assertTrue(batch.errorMessage().contains("resourceSpans[0].scopeSpans[0].spans[0]"), batch.errorMessage());
        assertTrue(batch.errorMessage().contains("'soon'"), batch.errorMessage());
    }

    @Test
    void malformedJsonNamesLineAndColumn() {
        OtlpFormatException e = assertThrows(OtlpFormatException.class,
                () -> OtlpJson.decodeRequest("{\"resourceSpans\":[\n{]".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertThrows(OtlpFormatException.class, () -> OtlpJson.decodeRequest("[1,2]".getBytes(StandardCharsets.UTF_8)));
        assertThrows(OtlpFormatException.class,
                () -> OtlpJson.decodeRequest("{\"resourceSpans\":5}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void responseUsesCamelCaseAndStringInt64() throws Exception {
        String body = new String(OtlpJson.encodeResponse(2, "x"), StandardCharsets.UTF_8);
        assertEquals("{\"partialSuccess\":{\"rejectedSpans\":\"2\",\"errorMessage\":\"x\"}}", body);
        assertEquals(new OtlpProtobuf.PartialSuccess(2, "x"), OtlpJson.decodeResponse(body.getBytes(StandardCharsets.UTF_8)));
        assertEquals("{}", new String(OtlpJson.encodeResponse(0, ""), StandardCharsets.UTF_8));
    }
}
