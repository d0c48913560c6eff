package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
