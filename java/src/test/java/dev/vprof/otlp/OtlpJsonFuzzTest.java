package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OTLP/JSON bodies (HTTP receiver, span import lines). Contract: decoding throws nothing but
 * {@link OtlpFormatException}; every span it keeps is valid; what it kept encodes and decodes
 * again to the same bytes.
 */
class OtlpJsonFuzzTest {
    static Stream<Arguments> seeds() {
        return Stream.of(OtlpJson.encodeRequest(TestSpans.mixed(3)), OtlpJson.encodeRequest(TestSpans.mixed(1)),
                        firstLine(dev.vprof.testing.FuzzSeeds.resource("/otlp/collector-file-export.jsonl")))
                .map(b -> Arguments.of((Object) b));
    }

    private static byte[] firstLine(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != '\n') {
            n++;
        }
        return java.util.Arrays.copyOf(b, n);
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void decodingThrowsOnlyFormatErrorsAndKeepsOnlyValidSpans(byte[] body) {
        try {
            OtlpFuzzChecks.keptSpansRoundTrip(body, OtlpJson::decodeRequest, OtlpJson::encodeRequest);
        } catch (OtlpFormatException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "a format error without a message");
        }
    }
}
