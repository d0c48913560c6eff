package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture's read health, judged once ({@link ReadStats}): every way a file can be incomplete is
 * read partly and says how much was recovered and how much is missing; a file still being written
 * (its writer's lock held, here or in another process) is a live capture, not a damaged one; a
 * copy of a live file is not live.
 */
class ReadStatsTest {
    @TempDir
    Path dir;

    /** Header, METADATA, PROCESS, three RECORDS chunks of 100 kernels each, then the footer. */
    private Path whole() throws IOException {
        return CaptureFileTest.kernelChunks(dir.resolve("whole.vprof"), 100, 100, 100);
    }

    private Path cut(Path whole, String name, long length) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, Arrays.copyOf(Files.readAllBytes(whole), (int) length));
        return p;
    }

    private static ReadStats read(Path file) throws IOException {
        try (CaptureReader r = CaptureReader.open(file)) {
            r.forEachRecord(new RecordVisitor() {});
            return r.readStats();
        }
    }

    private static void saysWhatIsMissing(ReadStats s, String... parts) {
        String summary = s.summary();
        assertNotNull(summary, "read partly: " + s.texts());
        assertTrue(s.readPartly());
        for (String p : parts) {
            assertTrue(summary.contains(p), "'" + p + "' in: " + summary);
        }
        assertFalse(summary.contains(" 0 bytes"), "0 bytes never stands for what is unknown: " + summary);
    }

    @Test
    void aWholeFileIsNotReadPartlyAndHasNoSummary() throws IOException {
        ReadStats s = read(whole());
        assertFalse(s.readPartly());
        assertNull(s.summary());
        assertEquals(List.of(), s.sentences());
        assertTrue(s.counters().stream().allMatch(c -> c.value() == 0), s.counters().toString());
    }

    @Test
    void aFileCutInsideItsHeaderIsReadPartlyWithNothingRecovered() throws IOException {
        Path file = cut(whole(), "ten.vprof", 10);
        ReadStats s = read(file);
        assertEquals(1, s.get(ReadStats.Stat.CUT_SHORT));
        saysWhatIsMissing(s, file + " was read only partly", "it ends at byte 10, inside its 16-byte file header",
                "the rest of the file after byte 10 is missing", "nothing in it was readable");
    }

    @Test
    void aFileOfOnlyItsHeaderWasNeverClosedAndNothingInItWasReadable() throws IOException {
        Path file = cut(whole(), "sixteen.vprof", 16);
        ReadStats s = read(file);
        assertEquals(1, s.get(ReadStats.Stat.NOT_CLOSED));
        assertEquals(1, s.get(ReadStats.Stat.NO_METADATA));
        saysWhatIsMissing(s, "never closed by its writer, which is no longer running",
                "whatever it would have written after byte 16 is missing, and how much that was is not known",
                "nothing in it was readable");
    }

    @Test
    void aFileOfOnlyItsMetadataWasNeverClosedAndSaysWhatItHolds() throws IOException {
        Path whole = whole();
        long metadataEnd;
        try (CaptureReader r = CaptureReader.open(whole)) {
            ChunkInfo m = r.chunks(CaptureFormat.KIND_METADATA).getFirst();
            metadataEnd = m.offset() + CaptureFormat.CHUNK_HEADER_SIZE + CaptureFormat.align8(m.length());
        }
        Path file = cut(whole, "metadata.vprof", metadataEnd);
        ReadStats s = read(file);
        assertEquals(1, s.get(ReadStats.Stat.NOT_CLOSED));
        assertEquals(0, s.get(ReadStats.Stat.NO_METADATA));
        saysWhatIsMissing(s, "after byte " + metadataEnd + " is missing", "covers the 1 whole chunk read ("
                + ReadStats.bytes(metadataEnd) + " of its " + ReadStats.bytes(metadataEnd) + ")");
    }

    @Test
    void aFileCutInsideAChunkSaysWhereItEndsAndWhatWasKept() throws IOException {
        Path whole = whole();
        ChunkInfo last;
        try (CaptureReader r = CaptureReader.open(whole)) {
            last = r.chunks(CaptureFormat.KIND_RECORDS).getLast();
        }
        long at = last.offset() + CaptureFormat.CHUNK_HEADER_SIZE + last.length() / 2 + 3;
        Path file = cut(whole, "mid.vprof", at);
        ReadStats s = read(file);
        assertEquals(1, s.get(ReadStats.Stat.CUT_SHORT));
        assertTrue(s.get(ReadStats.Stat.UNVERIFIED_RECORDS) > 0);
        assertTrue(s.get(ReadStats.Stat.TRUNCATED_TAIL_BYTES) > 0, "the 3 bytes of a record cut in two");
        saysWhatIsMissing(s, "it ends at byte " + at + " in the middle of a chunk (cut short)",
                "the rest of the file after byte " + at + " is missing",
                "except the " + s.get(ReadStats.Stat.UNVERIFIED_RECORDS) + " whole records before the cut");
    }

    @Test
    void aBadChecksumIsCountedOnceHoweverManyPassesMeetIt() throws IOException {
        Path file = whole();
        ChunkInfo second = CaptureFileTest.recordsChunk(file, 1);
        byte[] b = Files.readAllBytes(file);
        b[(int) second.offset() + CaptureFormat.CHUNK_HEADER_SIZE + 40] ^= 0x11;
        Files.write(file, b);
        try (CaptureReader r = CaptureReader.open(file)) {
            assertFalse(r.readStats().readPartly(), "an indexed file's checksums are met when its chunks are read");
            r.verify();
            ReadStats s = r.readStats();
            r.forEachRecord(new RecordVisitor() {});
            r.forEachRecord(new RecordVisitor() {});
            assertEquals(1, s.get(ReadStats.Stat.DAMAGED_CHUNKS));
            long chunkBytes = (long) CaptureFormat.CHUNK_HEADER_SIZE + CaptureFormat.align8(second.length());
            assertEquals(chunkBytes, s.get(ReadStats.Stat.DAMAGED_BYTES));
            saysWhatIsMissing(s, "1 damaged chunk (" + ReadStats.bytes(chunkBytes) + " of its "
                    + ReadStats.bytes(b.length) + ") was skipped", "covers the " + (r.chunks().size() - 1) + " whole chunks read");
            assertTrue(s.sentences().stream().anyMatch(x -> x.severity() == ReadStats.Severity.DATA_LOSS
                    && x.text().contains("fails its checksum")), s.sentences().toString());
        }
    }

    @Test
    void aCaptureStillBeingWrittenIsLiveNotDamagedAndACopyOfItIsNotLive() throws IOException {
        Path file = dir.resolve("live.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            w.process(CaptureFileTest.PROC);
            RingRecords r = new RingRecords().string(1, "k").kernelDesc(1, 1, 0, 0).kernel(1, 2, 1, 1);
            r.writeTo(w, 1);
            w.flush();
            ReadStats live = read(file);
            assertTrue(live.live(), live.texts().toString());
            assertFalse(live.readPartly(), "a live capture lost nothing: " + live.summary());
            assertTrue(live.texts().getFirst().contains("is a live capture, still being written by a running vprof"),
                    live.texts().toString());

            Path copy = dir.resolve("copy.vprof");
            Files.copy(file, copy);
            ReadStats dead = read(copy);
            assertFalse(dead.live());
            assertEquals(1, dead.get(ReadStats.Stat.NOT_CLOSED));
        }
        ReadStats closed = read(file);
        assertFalse(closed.live());
        assertFalse(closed.readPartly());
        assertEquals(List.of(), closed.sentences());
    }

    @Test
    void aWriterInAnotherProcessMakesTheCaptureLiveUntilItExits() throws Exception {
        Path whole = whole();
        Path file = cut(whole, "other.vprof", Files.size(whole) - CaptureFormat.TRAILER_SIZE - 40);
        // util-linux flock(1) takes the same kind of lock (flock(2)) as vprof's writer, in its own process.
        Process holder = new ProcessBuilder("flock", "--exclusive", "--close", file.toString(), "sleep", "30")
                .redirectErrorStream(true).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!WriterLock.held(file) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            ReadStats s = read(file);
            assertTrue(s.live(), s.texts().toString());
            assertFalse(s.readPartly(), "the chunk being written is not lost: " + s.summary());
        } finally {
            holder.descendants().forEach(ProcessHandle::destroyForcibly);
            holder.destroyForcibly().waitFor();
        }
        ReadStats after = read(file);
        assertFalse(after.live());
        assertEquals(1, after.get(ReadStats.Stat.CUT_SHORT), "its writer gone, the cut is a cut");
    }
}
