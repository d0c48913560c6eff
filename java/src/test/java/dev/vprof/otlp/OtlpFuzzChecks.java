package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

/** What every span a decoder keeps must satisfy, whatever it was decoded from. */
final class OtlpFuzzChecks {
    private OtlpFuzzChecks() {}

    static void validSpans(DecodedBatch batch) {
        for (Span s : batch.spans()) {
            assertEquals(16, s.traceId().length, "trace id length");
            assertEquals(8, s.spanId().length, "span id length");
            assertTrue(s.parentSpanId().length == 0 || s.parentSpanId().length == 8, "parent span id length");
            assertTrue(s.endEpochNs() >= s.startEpochNs(), "a span that ends before it starts");
            assertTrue(s.name() != null && s.serviceName() != null, "a span without a name or service");
        }
        assertTrue(batch.rejected() >= batch.rejectReasons().size(), "more reasons than rejections");
    }

    /** A decoder of request bodies of one wire format. */
    interface Decoder {
        DecodedBatch decode(byte[] body) throws OtlpFormatException;
    }

    /**
     * {@code body} decodes to valid spans only, and the spans it kept, encoded again, decode with
     * none rejected and encode to the same bytes once more.
     */
    static void keptSpansRoundTrip(byte[] body, Decoder decode, Function<List<Span>, byte[]> encode)
            throws OtlpFormatException {
        DecodedBatch batch = decode.decode(body);
        validSpans(batch);
        byte[] again = encode.apply(batch.spans());
        DecodedBatch second = decode.decode(again);
        assertEquals(0, second.rejected(), "a kept span is rejected when sent again");
        assertArrayEquals(again, encode.apply(second.spans()), "re-encoding is not stable");
    }
}
