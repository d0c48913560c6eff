package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files cut short, damaged or hostile: read what can be read, warn, never throw or run away. */
class CaptureDamageTest {

    @TempDir
    Path dir;

    /** Five RECORDS chunks of 100, 200, ... 500 kernels, for process 1. */
    private Path fiveChunks() throws IOException {
        return CaptureFileTest.kernelChunks(dir.resolve("five.vprof"), 100, 200, 300, 400, 500);
    }

    private static long kernels(CaptureReader c) {
        CollectingVisitor v = new CollectingVisitor();
        c.forEachRecord(v);
        return v.kernels;
    }

    /** A kernel record's length in the ring (header and payload, 8-aligned). */
    private static final long KERNEL_RECORD = new RingRecords().kernel(0, 1, 0, 1).size();

    /**
     * A cut at a chunk boundary loses nothing; a cut inside a RECORDS chunk gives back every whole
     * record before it, counted as unverified and said so in a warning.
     */
    @Test
    void aFileCutInsideAChunkGivesBackEveryWholeRecordBeforeTheCutMarkedUnverified() throws IOException {
        Path whole = fiveChunks();
        byte[] bytes = Files.readAllBytes(whole);
        List<ChunkInfo> records;
        try (CaptureReader c = CaptureReader.open(whole)) {
            records = c.chunks(CaptureFormat.KIND_RECORDS);
            assertEquals(1500, kernels(c));
        }
        assertEquals(5, records.size());
        List<Long> cuts = new ArrayList<>();
        for (ChunkInfo ch : records) {
            cuts.add(ch.offset());                    // at a chunk boundary
            cuts.add(ch.offset() + 5);                // inside the chunk header
            cuts.add(ch.offset() + ch.length() / 2);  // inside the payload
        }
        cuts.add((long) bytes.length - 1);            // inside the trailer
        cuts.add((long) bytes.length - 20);           // inside the index
        for (long cut : cuts) {
            Path file = dir.resolve("cut-" + cut + ".vprof");
            Files.write(file, Arrays.copyOf(bytes, (int) cut));
            long expected = 0;
            long unverified = 0;
            for (int i = 0; i < records.size(); i++) {
                ChunkInfo ch = records.get(i);
                long payload = ch.offset() + CaptureFormat.CHUNK_HEADER_SIZE;
                if (payload + ch.length() <= cut) {
                    expected += 100L * (i + 1);
                } else if (cut > payload + CaptureFormat.RECORDS_HEADER_SIZE) {
                    // Cut inside this chunk's records: the string, the desc and the whole kernels before the cut.
                    long present = (cut - payload - CaptureFormat.RECORDS_HEADER_SIZE) / 8 * 8;
                    RingRecords head = new RingRecords().string(1, "k").kernelDesc(1, 1, 0, 0);
                    long kernelBytes = Math.max(0, present - head.size());
                    unverified = 2 + kernelBytes / KERNEL_RECORD;
                    expected += kernelBytes / KERNEL_RECORD;
                }
            }
            try (CaptureReader c = CaptureReader.open(file)) {
                assertFalse(c.complete());
                assertEquals(expected, kernels(c), "cut at " + cut);
                assertEquals(List.of(CaptureFileTest.PROC), c.processes(), "cut at " + cut);
                assertFalse(c.warnings().isEmpty(), "cut at " + cut);
                assertTrue(c.warnings().get(0).contains("cut short"), c.warnings().toString());
                assertEquals(unverified, c.unverifiedRecords(), "cut at " + cut);
                if (unverified > 0) {
                    assertTrue(c.warnings().get(1).contains(unverified + " whole records were recovered")
                            && c.warnings().get(1).contains("unverified"), c.warnings().toString());
                }
            }
        }
    }

    @Test
    void aChunkFailingItsChecksumIsSkippedAndTheRestIsRead() throws IOException {
        Path file = fiveChunks();
        ChunkInfo third = CaptureFileTest.recordsChunk(file, 2);
        flipByte(file, third.offset() + CaptureFormat.CHUNK_HEADER_SIZE + 100);
        try (CaptureReader c = CaptureReader.open(file)) {
            assertTrue(c.complete());
            assertEquals(1500 - 300, kernels(c));
            assertTrue(c.warnings().stream().anyMatch(w -> w.contains("RECORDS chunk at byte " + third.offset())
                    && w.contains("fails its checksum")), c.warnings().toString());
        }
    }

    @Test
    void inAFileWithoutFooterReadingStopsAtAChunkFailingItsChecksum() throws IOException {
        Path file = fiveChunks();
        byte[] bytes = Files.readAllBytes(file);
        ChunkInfo third = CaptureFileTest.recordsChunk(file, 2);
        bytes = Arrays.copyOf(bytes, bytes.length - 30);
        bytes[(int) third.offset() + 40] ^= 0x10;
        Files.write(file, bytes);
        try (CaptureReader c = CaptureReader.open(file)) {
            assertEquals(100 + 200, kernels(c));
            assertTrue(c.warnings().get(0).contains("fails its checksum"), c.warnings().toString());
        }
    }

    @Test
    void aDamagedFooterIndexFallsBackToReadingChunkByChunk() throws IOException {
        Path file = fiveChunks();
        long size = Files.size(file);
        flipByte(file, size - CaptureFormat.TRAILER_SIZE - 3); // inside the index payload
        try (CaptureReader c = CaptureReader.open(file)) {
            assertFalse(c.complete());
            assertEquals(1500, kernels(c));
            assertEquals(1, c.warnings().size(), c.warnings().toString());
            assertTrue(c.warnings().get(0).contains("footer index"), c.warnings().toString());
        }
    }

    @Test
    void aFileThatIsNotACaptureIsRefusedWithAClearMessage() throws IOException {
        Path text = dir.resolve("x.txt");
        Files.writeString(text, "hello, this is not a capture file at all\n");
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureReader.open(text));
        assertEquals(text + " is not a vprof capture file (bad magic)", e.getMessage());

        Path empty = dir.resolve("empty.vprof");
        Files.write(empty, new byte[0]);
        e = assertThrows(CaptureFormatException.class, () -> CaptureReader.open(empty));
        assertEquals(empty + " is not a vprof capture file (0 bytes, too short for a header)", e.getMessage());
    }

    @Test
    void aNewerFormatVersionIsRefusedWithAClearMessage() throws IOException {
        Path file = fiveChunks();
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 7), 8);
        }
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureReader.open(file));
        assertEquals(file + " was written in capture format version 7, newer than this vprof reads (up to 1);"
                + " read it with a newer vprof", e.getMessage());
    }

    @Test
    void hostileRecordLengthsAndIdsAreSkippedWithWarnings() throws IOException {
        Path file = dir.resolve("hostile.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            // A good run, then runs that each end in a different impossible record header.
            new RingRecords().string(-1, "max_id").kernelDesc(-2, -1, 0, 0).kernel(1, 2, 1, -2).writeTo(w, 1);
            w.flush();
            new RingRecords().raw(16, 0, VprofRing.REC_KERNEL).kernel(3, 4, 2, -2).writeTo(w, 1);
            w.flush();
            new RingRecords().raw(16, -8, VprofRing.REC_KERNEL).writeTo(w, 1);
            w.flush();
            new RingRecords().raw(16, 12, VprofRing.REC_KERNEL).writeTo(w, 1);
            w.flush();
            new RingRecords().raw(16, Integer.MAX_VALUE & ~7, VprofRing.REC_KERNEL).writeTo(w, 1);
            w.flush();
            // Records of the right length field but too short for their type, an unknown type,
            // a STRING whose len runs past its record, a STRING with id 0: skipped, counted.
            RingRecords odd = new RingRecords()
                    .raw(16, 16, VprofRing.REC_KERNEL)
                    .raw(16, 16, VprofRing.REC_RANGE)
                    .raw(24, 24, 99)
                    .raw(24, 24, -5);
            odd.string(3, "abc");
            MemorySegment s = odd.segment();
            s.set(ValueLayout.JAVA_INT_UNALIGNED, s.byteSize() - 24 + 12, 1000); // len 1000 in a 24-byte record
            odd.string(0, "zero");
            odd.kernel(5, 6, 3, -2).writeTo(w, 1);
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            CollectingVisitor v = new CollectingVisitor();
            c.forEachRecord(v);
            assertEquals(List.of("1 kernel 1..2 corr=1 max_id dev=0 stream=0",
                    "1 kernel 5..6 corr=3 max_id dev=0 stream=0"), v.lines);
            String all = String.join("\n", c.warnings());
            assertTrue(all.contains("4 record runs had a damaged record header"), all);
            assertTrue(all.contains("skipped 1 KERNEL records"), all);
            assertTrue(all.contains("skipped 1 RANGE records"), all);
            assertTrue(all.contains("skipped 2 STRING records"), all);
            assertTrue(all.contains("skipped 2 records of unknown type"), all);
        }
    }

    @Test
    void randomlyDamagedFilesNeverThrowNorRunAway() throws IOException {
        Path good = fiveChunks();
        byte[] original = Files.readAllBytes(good);
        Random random = new Random(42);
        Path file = dir.resolve("fuzz.vprof");
        for (int round = 0; round < 300; round++) {
            byte[] bytes = original.clone();
            int flips = 1 + random.nextInt(8);
            for (int f = 0; f < flips; f++) {
                // Bias toward headers and the footer, where lengths and offsets live.
                int at = switch (random.nextInt(3)) {
                    case 0 -> random.nextInt(64);
                    case 1 -> bytes.length - 1 - random.nextInt(Math.min(bytes.length, 200));
                    default -> random.nextInt(bytes.length);
                };
                bytes[at] = (byte) random.nextInt(256);
            }
            if (random.nextBoolean()) {
                bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
            }
            Files.write(file, bytes);
            try (CaptureReader c = CaptureReader.open(file)) {
                assertTrue(kernels(c) <= 1500);
                c.clocks();
                c.payloads(CaptureFormat.KIND_METRICS);
            } catch (CaptureFormatException expected) {
                // header damaged: refused with a message, which is fine
                assertFalse(expected.getMessage().isBlank());
            }
        }
    }

    @Test
    void randomRecordPayloadsInIntactChunksNeverThrow() throws IOException {
        Random random = new Random(7);
        Path file = dir.resolve("garbage.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            MemorySegment run = Arena.ofAuto().allocate(64 * 1024, 8);
            for (int chunk = 0; chunk < 50; chunk++) {
                long pos = 0;
                while (pos < run.byteSize() - 64) {
                    int len = 8 * (1 + random.nextInt(8));
                    for (long i = 0; i < len; i += 4) {
                        run.set(ValueLayout.JAVA_INT_UNALIGNED, pos + i, random.nextInt());
                    }
                    run.set(ValueLayout.JAVA_INT_UNALIGNED, pos, len);
                    run.set(ValueLayout.JAVA_INT_UNALIGNED, pos + 4, random.nextInt(14));
                    if (random.nextInt(10) == 0) {
                        run.set(ValueLayout.JAVA_INT_UNALIGNED, pos + 12, random.nextInt(64)); // plausible STRING len
                    }
                    pos += len;
                }
                w.records(random.nextInt(3), run, 0, pos);
                w.flush();
            }
        }
        try (CaptureReader c = CaptureReader.open(file)) {
            kernels(c);
            c.clocks();
            assertTrue(c.warnings().size() <= Warnings.MAX + 1);
        }
    }

    private static void flipByte(Path file, long at) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) at] ^= 0x5a;
        Files.write(file, bytes);
    }
}
