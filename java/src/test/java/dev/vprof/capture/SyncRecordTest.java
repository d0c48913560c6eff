package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SYNC records (--kinds sync): decoded field by field; short or damaged ones skipped with a warning. */
class SyncRecordTest {
    private static final int NONE = (int) VprofRing.SYNC_NONE;

    @TempDir
    Path dir;

    private record Read(List<SyncEvent> syncs, List<String> warnings, List<String> lines) {}

    private Read read(RingRecords r) throws IOException {
        Path file = dir.resolve("f.vprof");
        ProcessInfo info = new ProcessInfo(10, 1, "python -m vllm", 130001, 1, 1 << 20, 5L, 1, 1, 2);
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            w.process(info);
            r.writeTo(w, info.pid());
        }
        List<SyncEvent> syncs = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        RecordVisitor v = new RecordVisitor() {
            @Override
            public void sync(int pid, SyncEvent s) {
                syncs.add(s);
                lines.add(s.toString());
            }

            @Override
            public void api(int pid, ApiEvent a) {
                lines.add(a.toString());
            }
        };
        try (CaptureReader c = CaptureReader.open(file)) {
            c.forEachRecord(v);
            return new Read(syncs, c.warnings(), lines);
        }
    }

    @Test
    void everyFieldOfEachSynchronizationTypeIsDecoded() throws IOException {
        Read read = read(new RingRecords()
                .sync(1_000, 5_000, 41, VprofRing.SYNC_STREAM_SYNCHRONIZE, 1, 13, NONE)
                .sync(6_000, 9_000, 42, VprofRing.SYNC_CONTEXT_SYNCHRONIZE, 1, NONE, NONE)
                .sync(9_500, 9_700, 43, VprofRing.SYNC_EVENT_SYNCHRONIZE, 2, NONE, 7)
                .sync(9_800, 9_800, 44, VprofRing.SYNC_STREAM_WAIT_EVENT, 2, 14, 7));
        assertEquals(List.of(), read.warnings());
        assertEquals(List.of(
                new SyncEvent(1_000, 5_000, 41, VprofRing.SYNC_STREAM_SYNCHRONIZE, 1, 13, NONE),
                new SyncEvent(6_000, 9_000, 42, VprofRing.SYNC_CONTEXT_SYNCHRONIZE, 1, NONE, NONE),
                new SyncEvent(9_500, 9_700, 43, VprofRing.SYNC_EVENT_SYNCHRONIZE, 2, NONE, 7),
                new SyncEvent(9_800, 9_800, 44, VprofRing.SYNC_STREAM_WAIT_EVENT, 2, 14, 7)), read.syncs());
        SyncEvent first = read.syncs().getFirst();
        assertTrue(first.hasStream());
        assertFalse(first.hasEvent());
        assertEquals("cudaStreamSynchronize", SyncEvent.callName(first.type()));
        assertEquals("cudaDeviceSynchronize", SyncEvent.callName(VprofRing.SYNC_CONTEXT_SYNCHRONIZE));
        assertEquals("SYNC", RecordDecoder.typeName(VprofRing.REC_SYNC));
    }

    @Test
    void aShortSyncRecordIsSkippedAndCountedAndTheRecordsAroundItStillRead() throws IOException {
        Read read = read(new RingRecords()
                .sync(1_000, 2_000, 1, VprofRing.SYNC_STREAM_SYNCHRONIZE, 1, 13, NONE)
                .raw(40, 40, VprofRing.REC_SYNC) // a format that ended before event_id
                .api(3_000, 4_000, 2, 131, VprofRing.API_RUNTIME, 77));
        assertEquals(1, read.syncs().size());
        assertEquals(2, read.lines().size(), "the API record after it: " + read.lines());
        assertEquals(1, read.warnings().size(), read.warnings().toString());
        assertTrue(read.warnings().getFirst().contains("1 SYNC records shorter than their type"),
                read.warnings().getFirst());
    }

    @Test
    void aSyncOfAnUnknownTypeOrEndingBeforeItStartsIsSkippedAsDamaged() throws IOException {
        Read read = read(new RingRecords()
                .sync(1_000, 2_000, 1, 99, 1, 13, NONE)
                .sync(5_000, 4_000, 2, VprofRing.SYNC_CONTEXT_SYNCHRONIZE, 1, NONE, NONE)
                .sync(6_000, 7_000, 3, VprofRing.SYNC_CONTEXT_SYNCHRONIZE, 1, NONE, NONE));
        assertEquals(List.of(new SyncEvent(6_000, 7_000, 3, VprofRing.SYNC_CONTEXT_SYNCHRONIZE, 1, NONE, NONE)),
                read.syncs());
        assertEquals(1, read.warnings().size(), read.warnings().toString());
        assertTrue(read.warnings().getFirst().contains("2 SYNC records"), read.warnings().getFirst());
    }
}
