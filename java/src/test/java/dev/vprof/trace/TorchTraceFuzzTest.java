package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.report.CaptureReport;
import dev.vprof.source.CaptureSources;
import dev.vprof.testing.FuzzSeeds;
import dev.vprof.timeline.Walks;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A PyTorch profiler trace is outside input. Contract: reading any bytes as a trace either throws
 * {@link CaptureFormatException} naming the file, or gives a capture that reports and lays out
 * without throwing; nothing else escapes, and the temporary capture is always removed.
 */
class TorchTraceFuzzTest {
    private static final Path FILE = scratch();
    private static final Path TEMP = tempDir();
    /** Small, so a mutation that inflates the input meets the bound rather than the time limit. */
    private static final TorchTraceOptions OPTIONS = new TorchTraceOptions(4L << 20, true);

    private static Path scratch() {
        Path p = FuzzSeeds.scratchFile("vprof-fuzz-trace");
        try {
            Path json = p.resolveSibling(p.getFileName() + ".json");
            json.toFile().deleteOnExit();
            return json;
        } catch (RuntimeException e) {
            throw e;
        }
    }

    private static Path tempDir() {
        try {
            Path d = Files.createTempDirectory("vprof-fuzz-trace-tmp");
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<Arguments> seeds() throws IOException {
        byte[] real;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(
                TraceOracle.REAL.resolve("hta/trace_compare/base/base.json.gz")))) {
            real = in.readAllBytes();
        }
        String small = """
                {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU", "numSms": 4}],
                 "distributedInfo": {"rank": 0, "world_size": 2},
                 "traceEvents": [
                  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10.5, "dur": 2.25,
                   "args": {"device": 0, "stream": 7, "correlation": 3, "grid": [1, 1, 1], "block": [32, 1, 1]}},
                  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 9,
                   "dur": 1, "args": {"cbid": 211, "correlation": 3}},
                  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 9, "tid": 9, "ts": 8, "dur": 9},
                  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 9, "tid": 9, "ts": 8.5, "dur": 1},
                  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
                   "ts": 12, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 4, "bytes": 64}}],
                 "baseTimeNanoseconds": 1700000000000000000}""";
        return Stream.of(real, small.getBytes(StandardCharsets.UTF_8)).map(b -> Arguments.of((Object) b));
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void anyBytesReadAsATraceOrAreRefusedByName(byte[] input) throws IOException {
        Files.write(FILE, input);
        CaptureReader reader;
        try {
            reader = CaptureSources.open(FILE, OPTIONS, TEMP);
        } catch (CaptureFormatException e) {
            assertTrue(e.getMessage().contains(FILE.toString()), "the refusal names the file: " + e.getMessage());
            assertNoTemporaryCapture();
            return;
        }
        try (reader) {
            CaptureReport.build(reader, 5);
            Walks.drain(CaptureTimeline.stream(reader, KernelNames.demangled(), null).source());
            for (String w : reader.warnings()) {
                assertTrue(w != null && !w.isBlank(), "an empty warning");
            }
        }
        assertNoTemporaryCapture();
    }

    private static void assertNoTemporaryCapture() throws IOException {
        try (Stream<Path> s = Files.list(TEMP)) {
            assertTrue(s.findAny().isEmpty(), "a temporary capture or spill file was left behind");
        }
    }
}
