package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vprof.testing.FuzzSeeds;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A /metrics body is whatever the scraped server sends. Contract: in either format the parser
 * returns (it never throws for input under its size limit), every error it reports names a line
 * of the body (or the one after it, for a missing {@code # EOF}), and every sample has a name.
 */
class ExpositionFuzzTest {
    private static final ExpositionParser PARSER = new ExpositionParser(1 << 20, 64 << 10);

    static Stream<Arguments> seeds() {
        return Stream.of(
                FuzzSeeds.prefixed(0, FuzzSeeds.resource("/metrics/vllm-0.11-prometheus-text.txt")),
                FuzzSeeds.prefixed(0, FuzzSeeds.resource("/metrics/vllm-0.6-legacy-names.txt")),
                FuzzSeeds.prefixed(0, FuzzSeeds.resource("/metrics/prometheus-server-own.txt")),
                FuzzSeeds.prefixed(1, FuzzSeeds.resource("/metrics/openmetrics-exemplars.txt")))
                .map(b -> Arguments.of((Object) b));
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void anyBodyParsesToNamedSamplesAndLineNumberedErrors(byte[] input) {
        if (input.length == 0) {
            return;
        }
        // The first byte picks the format the server claimed in its Content-Type.
        ExpositionFormat format = (input[0] & 1) == 1 ? ExpositionFormat.OPENMETRICS : ExpositionFormat.PROMETHEUS_TEXT;
        byte[] body = Arrays.copyOfRange(input, 1, input.length);
        Exposition e = PARSER.parse(body, format);
        long lines = 1;
        for (byte b : body) {
            if (b == '\n') {
                lines++;
            }
        }
        for (ParseError err : e.errors()) {
            long line = err.line();
            // One past the last line: where OpenMetrics' missing '# EOF' was expected.
            long max = lines + 1;
            assertTrue(line >= 1 && line <= max, () -> "error on line " + line + " of " + max + ": " + err);
        }
        for (Sample s : e.samples()) {
            assertTrue(s.name() != null && !s.name().isEmpty(), "a sample without a name");
        }
    }
}
