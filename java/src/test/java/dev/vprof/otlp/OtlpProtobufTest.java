package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.wire.WireType;
import dev.vprof.wire.WireWriter;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class OtlpProtobufTest {

    @Test
    void encodedRequestDecodesToTheSameSpans() throws Exception {
        List<Span> spans = TestSpans.mixed(5);
        DecodedBatch batch = OtlpProtobuf.decodeRequest(OtlpProtobuf.encodeRequest(spans));
        assertEquals(0, batch.rejected());
        assertEquals(TestSpans.sorted(spans), TestSpans.sorted(batch.spans()));
    }

    @Test
    void unknownFieldsAtEveryLevelAreSkipped() throws Exception {
        Span s = TestSpans.mixed(1).get(1);
        WireWriter w = new WireWriter();
        w.uint(99, 7); // unknown, top level
        int rs = w.beginMessage(1);
        w.string(3, "https://opentelemetry.io/schemas/1.27.0"); // schema_url
        w.fixed64(77, 1); // unknown I64
        int ss = w.beginMessage(2);
        w.tag(55, WireType.I32);
        w.fixed32(5); // unknown I32
        int sp = w.beginMessage(2);
        w.bytes(1, s.traceId());
        w.bytes(2, s.spanId());
        w.string(3, "vendor=x"); // trace_state: not kept
        w.string(5, "llm_request");
        w.fixed64(7, 10);
        w.fixed64(8, 20);
        int ev = w.beginMessage(11); // an event: skipped whole
        w.fixed64(1, 15);
        w.string(2, "first token");
        w.endMessage(ev);
        int link = w.beginMessage(13);
        w.bytes(1, s.traceId());
        w.endMessage(link);
        w.tag(16, WireType.I32);
        w.fixed32(0x301); // flags
        w.string(200, "from the future");
        w.endMessage(sp);
        w.endMessage(ss);
        // The resource after its spans: still applies to them.
        int res = w.beginMessage(1);
        int kv = w.beginMessage(1);
        w.string(1, "service.name");
        int v = w.beginMessage(2);
        w.string(1, "vllm");
        w.endMessage(v);
        w.endMessage(kv);
        w.endMessage(res);
        w.endMessage(rs);

        DecodedBatch batch = OtlpProtobuf.decodeRequest(w.toByteArray());
        assertEquals(1, batch.spans().size());
        Span got = batch.spans().getFirst();
        assertEquals("llm_request", got.name());
        assertEquals("vllm", got.serviceName());
        assertEquals(10, got.startEpochNs());
        assertEquals(20, got.endEpochNs());
        assertTrue(got.attributes().isEmpty());
    }

    @Test
    void truncatedBodiesAreRejectedWithAnOffset() {
        byte[] good = OtlpProtobuf.encodeRequest(TestSpans.mixed(2));
        for (int cut : new int[] {1, 5, good.length / 2, good.length - 1}) {
            byte[] bad = Arrays.copyOf(good, cut);
            OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> OtlpProtobuf.decodeRequest(bad),
                    "cut at " + cut);
            assertTrue(e.getMessage().contains("at byte"), e.getMessage());
        }
    }

    @Test
    void aHugeDeclaredLengthFailsWithoutAllocating() {
        // resource_spans with a length of 2^62: must fail on the bound check, not try to allocate.
        byte[] bad = {0x0a, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, 0x40, 1, 2, 3};
        OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> OtlpProtobuf.decodeRequest(bad));
        assertTrue(e.getMessage().contains("runs past the end"), e.getMessage());
    }

    @Test
    void anOverlongVarintAndAGroupWireTypeAreMalformed() {
        byte[] varint = new byte[12];
        varint[0] = 0x08; // field 1 varint... with 11 continuation bytes
        Arrays.fill(varint, 1, 12, (byte) 0x80);
        assertThrows(OtlpFormatException.class, () -> OtlpProtobuf.decodeRequest(varint));
        assertThrows(OtlpFormatException.class, () -> OtlpProtobuf.decodeRequest(new byte[] {0x0b, 0x0c}));
        // A known field with the wrong wire type (resource_spans as a varint).
        assertThrows(OtlpFormatException.class, () -> OtlpProtobuf.decodeRequest(new byte[] {0x08, 0x01}));
    }

    @Test
    void deeplyNestedValuesAreRefusedInsteadOfOverflowingTheStack() {
        // Build an attribute value nested 10,000 arrays deep, inside out.
        byte[] value = new byte[] {0x0a, 0x00}; // AnyValue{string_value=""}
        for (int i = 0; i < 10_000; i++) {
            WireWriter w = new WireWriter();
            int arr = w.beginMessage(5);
            w.bytes(1, value);
            w.endMessage(arr);
            value = w.toByteArray();
        }
        WireWriter w = new WireWriter();
        int rs = w.beginMessage(1);
        int res = w.beginMessage(1);
        int kv = w.beginMessage(1);
        w.string(1, "deep");
        w.bytes(2, value);
        w.endMessage(kv);
        w.endMessage(res);
        w.endMessage(rs);
        OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> OtlpProtobuf.decodeRequest(w.toByteArray()));
        assertTrue(e.getMessage().contains("nested deeper"), e.getMessage());
    }

    @Test
    void spansWithBadIdsOrTimesAreRejectedAndTheRestKept() throws Exception {
        List<Span> good = TestSpans.mixed(1);
        WireWriter w = new WireWriter();
        int rs = w.beginMessage(1);
        int ss = w.beginMessage(2);
        int sp = w.beginMessage(2);
        w.bytes(1, new byte[5]); // short trace id
        w.bytes(2, TestSpans.spanId(9));
        w.string(5, "short-trace");
        w.endMessage(sp);
        sp = w.beginMessage(2);
        w.bytes(1, TestSpans.traceId(9));
        w.bytes(2, TestSpans.spanId(9));
        w.fixed64(7, 100);
        w.fixed64(8, 50); // ends before it starts
        w.endMessage(sp);
        w.endMessage(ss);
        w.endMessage(rs);
        byte[] body = concat(OtlpProtobuf.encodeRequest(good), w.toByteArray());

        DecodedBatch batch = OtlpProtobuf.decodeRequest(body);
        assertEquals(TestSpans.sorted(good), TestSpans.sorted(batch.spans()));
        assertEquals(2, batch.rejected());
        assertTrue(batch.errorMessage().contains("short-trace"), batch.errorMessage());
        assertTrue(batch.errorMessage().contains("trace id must be 16 bytes"), batch.errorMessage());
        assertTrue(batch.errorMessage().contains("before start time"), batch.errorMessage());
    }

    @Test
    void responseCarriesPartialSuccessOnlyWhenSomethingWasRejected() throws Exception {
        assertEquals(0, OtlpProtobuf.encodeResponse(0, "").length);
        OtlpProtobuf.PartialSuccess ps = OtlpProtobuf.decodeResponse(OtlpProtobuf.encodeResponse(3, "bad ids"));
        assertEquals(3, ps.rejectedSpans());
        assertEquals("bad ids", ps.errorMessage());
        assertEquals("no", OtlpProtobuf.decodeRpcStatusMessage(OtlpProtobuf.encodeRpcStatus(3, "no")));
    }

    @Test
    void longMessagesGetMultiByteLengthPrefixes() throws Exception {
        // Nested lengths over 127 and over 16383 exercise the length compaction in WireWriter.
        String big = "x".repeat(20_000);
        Span s = TestSpans.span(1, 1, -1, "svc", big, 0, 10, List.of(Attribute.of("k", big)));
        assertEquals(List.of(s), OtlpProtobuf.decodeRequest(OtlpProtobuf.encodeRequest(List.of(s))).spans());
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
