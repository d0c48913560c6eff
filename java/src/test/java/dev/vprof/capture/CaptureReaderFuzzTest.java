package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.names.KernelNames;
import dev.vprof.report.CaptureReport;
import dev.vprof.testing.FuzzSeeds;
import dev.vprof.timeline.Walks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A .vprof file may be cut short, damaged on disk or made by hand. Contract: opening throws
 * nothing but {@link CaptureFormatException} (for a file that is not a capture at all), and for
 * any file that opens, building the report and the export's timeline throws nothing; what was
 * wrong is in the warnings.
 *
 * <p>The first input byte says whether to fix up the chunk checksums after mutation: without
 * that, nearly every mutation would only exercise the checksum test, never the record decoder,
 * the JSON chunks or the metrics and spans codecs behind it.
 */
class CaptureReaderFuzzTest {
    private static final Path FILE = FuzzSeeds.scratchFile("vprof-fuzz-capture");

    static Stream<Arguments> seeds() throws IOException {
        Path tmp = Files.createTempFile("vprof-fuzz-seed", ".bin");
        try {
            byte[] full = Files.readAllBytes(SyntheticCapture.write(tmp, true));
            byte[] bare = Files.readAllBytes(SyntheticCapture.write(tmp, false));
            return Stream.of(prefixed(1, full), prefixed(1, bare), prefixed(0, Arrays.copyOf(full, full.length / 2)))
                    .map(b -> Arguments.of((Object) b));
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static byte[] prefixed(int flag, byte[] b) {
        return FuzzSeeds.prefixed(flag, b);
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void anyFileOpensOrIsRefusedAndReadsWithoutThrowing(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        byte[] file = Arrays.copyOfRange(input, 1, input.length);
        if ((input[0] & 1) == 1) {
            fixChecksums(file);
        }
        Files.write(FILE, file);
        CaptureReader reader;
        try {
            reader = CaptureReader.open(FILE);
        } catch (CaptureFormatException e) {
            assertTrue(e.getMessage().contains(FILE.toString()), "the refusal names the file: " + e.getMessage());
            return;
        }
        try (reader) {
            reader.processes();
            reader.metadata();
            reader.counters();
            CaptureReport.build(reader, 5);
            Walks.drain(CaptureTimeline.stream(reader, KernelNames.demangled(), null).source());
            for (String w : reader.warnings()) {
                assertTrue(w != null && !w.isBlank(), "an empty warning");
            }
        }
    }

    /** Recomputes each chunk's CRC32C along the chain of chunk headers, as a writer would have. */
    static void fixChecksums(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        long pos = CaptureFormat.FILE_HEADER_SIZE;
        while (pos + CaptureFormat.CHUNK_HEADER_SIZE <= file.length) {
            int at = (int) pos;
            int length = b.getInt(at + CaptureFormat.CHUNK_LENGTH);
            if (length < 0 || at + CaptureFormat.CHUNK_HEADER_SIZE + (long) length > file.length) {
                return;
            }
            crc.reset();
            crc.update(file, at, 8);
            crc.update(file, at + CaptureFormat.CHUNK_FLAGS, 4);
            crc.update(file, at + CaptureFormat.CHUNK_HEADER_SIZE, length);
            b.putInt(at + CaptureFormat.CHUNK_CRC, (int) crc.getValue());
            pos += CaptureFormat.CHUNK_HEADER_SIZE + CaptureFormat.align8((long) length);
        }
    }
}
