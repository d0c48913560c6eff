package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vprof.testing.FuzzSeeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --spans FILE}: OTLP JSON lines (the collector's file exporter) or a Jaeger JSON export.
 * Contract: reading any file throws nothing but {@link OtlpFormatException} (a file that is
 * neither format); otherwise bad lines and spans become errors, counted, and every span kept
 * is valid.
 */
class SpanImportFuzzTest {
    private static final Path FILE = FuzzSeeds.scratchFile("vprof-fuzz-spans");

    static Stream<Arguments> seeds() {
        return FuzzSeeds.resources("/otlp/collector-file-export.jsonl", "/otlp/jaeger-export.json");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void importThrowsOnlyFormatErrorsAndKeepsOnlyValidSpans(byte[] content) throws IOException {
        Files.write(FILE, content);
        try {
            SpanImport.Result r = SpanImport.read(FILE);
            OtlpFuzzChecks.validSpans(new DecodedBatch(r.spans(), 0, java.util.List.of()));
            assertTrue(r.errors().size() <= SpanImport.MAX_ERRORS && r.errorCount() >= r.errors().size(),
                    () -> r.errors().size() + " errors listed, " + r.errorCount() + " counted");
        } catch (OtlpFormatException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "a format error without a message");
        }
    }
}
