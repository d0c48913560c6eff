package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordLists;
import dev.vprof.capture.SyncEvent;
import dev.vprof.export.PerfettoTraceReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --kinds sync}: the CUPTI test double's synchronization records, asked for by
 * {@code vprof-simgpu --sync stream|device} (one call per step), reach the capture inside its
 * range and show in the exports as slices on the host thread. The figures are the double's.
 */
class SyncEndToEndTest {
    private static final int STEPS = 12;
    /** TrackEvent.Type TYPE_SLICE_BEGIN. */
    private static final int SLICE_BEGIN = 1;

    @TempDir
    Path dir;

    private final E2e e2e = E2e.nativeParts();

    private static RecordLists read(Path file) throws Exception {
        RecordLists seen = new RecordLists();
        try (CaptureReader c = CaptureReader.open(file)) {
            c.forEachRecord(seen);
            assertEquals(List.of(), c.warnings());
        }
        return seen;
    }

    @Test
    void everyStreamSynchronizeTheDoubleMadeIsCapturedInsideTheRangeAndExported() throws Exception {
        Path file = dir.resolve("sync.vprof");
        E2e.run(List.of("--kinds", "kernel,sync", "-o", file.toString()),
                e2e.sim("--steps", String.valueOf(STEPS), "--sync", "stream"));
        RecordLists seen = read(file);
        assertEquals(STEPS, seen.syncs.size(), seen.syncs.toString());
        RangeEvent begin = seen.ranges.stream().filter(r -> r.edge() == VprofRing.RANGE_BEGIN).findFirst().orElseThrow();
        RangeEvent end = seen.ranges.stream().filter(r -> r.edge() == VprofRing.RANGE_END).findFirst().orElseThrow();
        long blocked = 0;
        for (SyncEvent s : seen.syncs) {
            assertEquals(VprofRing.SYNC_STREAM_SYNCHRONIZE, s.type(), s.toString());
            assertEquals(7, s.streamId(), "the legacy default stream's CUPTI id: " + s);
            assertTrue(!s.hasEvent(), s.toString());
            assertTrue(s.start() >= begin.cuptiNs() && s.end() <= end.cuptiNs() && s.start() <= s.end(),
                    s + " inside " + begin.cuptiNs() + ".." + end.cuptiNs());
            blocked += s.end() - s.start();
        }
        assertTrue(blocked > 0, "the host waited for the step's kernels");

        Path chrome = dir.resolve("sync.json");
        E2e.ok(Cli.run("export", file.toString(), "-o", chrome.toString(), "--format", "chrome"));
        JsonNode trace = new ObjectMapper().readTree(chrome.toFile());
        int slices = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            if ("cudaStreamSynchronize (sync)".equals(e.path("name").asText()) && "X".equals(e.path("ph").asText())) {
                slices++;
                assertTrue(e.path("dur").asDouble() >= 0, e.toString());
            }
        }
        assertEquals(STEPS, slices, "one slice per synchronize call");

        Path perfetto = dir.resolve("sync.pftrace");
        E2e.ok(Cli.run("export", file.toString(), "-o", perfetto.toString()));
        PerfettoTraceReader pt = PerfettoTraceReader.read(Files.readAllBytes(perfetto));
        long begins = pt.events.stream()
                .filter(e -> "cudaStreamSynchronize (sync)".equals(e.name()) && e.type() == SLICE_BEGIN)
                .count();
        assertEquals(STEPS, begins, "one Perfetto slice per synchronize call");

        // SQLite: a runtime API row (Nsight's CUPTI_ACTIVITY_KIND_SYNCHRONIZATION needs a deviceId
        // CUPTI's record does not carry; the call's row is what a query over API calls finds)
        Path db = dir.resolve("sync.sqlite");
        E2e.ok(Cli.run("export", file.toString(), "-o", db.toString()));
        assertEquals(STEPS, SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                + "JOIN StringIds s ON s.id = r.nameId WHERE s.value = 'cudaStreamSynchronize (sync)'"));

        Path kineto = dir.resolve("kineto");
        Files.createDirectories(kineto);
        E2e.ok(Cli.run("export", file.toString(), "-o", kineto.resolve("trace.json").toString(), "--format", "kineto"));
        int runtime = 0;
        try (var files = Files.list(kineto)) {
            for (Path f : files.toList()) {
                for (JsonNode e : new ObjectMapper().readTree(f.toFile()).get("traceEvents")) {
                    if ("cudaStreamSynchronize (sync)".equals(e.path("name").asText())) {
                        runtime++;
                        assertEquals("cuda_runtime", e.path("cat").asText(), e.toString());
                    }
                }
            }
        }
        assertEquals(STEPS, runtime, "one cuda_runtime event per synchronize call");
    }

    @Test
    void withoutTheSyncKindTheSameRunHasNoSyncRecordsAndDeviceSynchronizeIsTyped() throws Exception {
        Path off = dir.resolve("off.vprof");
        E2e.run(List.of("--kinds", "kernel", "-o", off.toString()), e2e.sim("--steps", "4", "--sync", "device"));
        assertEquals(List.of(), read(off).syncs);
        Path on = dir.resolve("on.vprof");
        E2e.run(List.of("--kinds", "kernel,sync", "-o", on.toString()), e2e.sim("--steps", "4", "--sync", "device"));
        List<SyncEvent> syncs = read(on).syncs;
        assertEquals(4, syncs.size(), syncs.toString());
        for (SyncEvent s : syncs) {
            assertEquals(VprofRing.SYNC_CONTEXT_SYNCHRONIZE, s.type(), s.toString());
            assertTrue(!s.hasStream() && !s.hasEvent(), s.toString());
        }
    }
}
