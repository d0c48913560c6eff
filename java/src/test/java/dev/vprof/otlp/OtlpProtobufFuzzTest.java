package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vprof.testing.FuzzSeeds;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OTLP/protobuf bodies arrive from any client on the receiver's port, and responses from any
 * collector vprof forwards to. Contract: decoding throws nothing but {@link OtlpFormatException};
 * every span it keeps is valid (ids of 16 and 8 bytes, end not before start); and what it kept
 * encodes and decodes again to the same bytes.
 */
class OtlpProtobufFuzzTest {
    static Stream<Arguments> seeds() {
        return Stream.of(
                FuzzSeeds.prefixed(0, OtlpProtobuf.encodeRequest(TestSpans.mixed(3))),
                FuzzSeeds.prefixed(0, OtlpProtobuf.encodeRequest(TestSpans.mixed(1))),
                FuzzSeeds.prefixed(1, OtlpProtobuf.encodeResponse(7, "rejected: bad trace id")),
                FuzzSeeds.prefixed(2, OtlpProtobuf.encodeRpcStatus(8, "request too large")))
                .map(b -> Arguments.of((Object) b));
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void decodingThrowsOnlyFormatErrorsAndKeepsOnlyValidSpans(byte[] input) {
        if (input.length == 0) {
            return;
        }
        byte[] body = Arrays.copyOfRange(input, 1, input.length);
        try {
            switch (input[0] & 3) {
                case 1 -> OtlpProtobuf.decodeResponse(body);
                case 2 -> OtlpProtobuf.decodeRpcStatusMessage(body);
                default -> {
                    OtlpFuzzChecks.keptSpansRoundTrip(body, OtlpProtobuf::decodeRequest, OtlpProtobuf::encodeRequest);
                }
            }
        } catch (OtlpFormatException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "a format error without a message");
        }
    }
}
