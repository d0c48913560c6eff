package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ChunkInfo;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.export.sqlite.Databases;
import dev.vprof.source.CaptureSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof export -o OUT.sqlite} on captures whose answers are known: every Nsight Systems table
 * and column it writes is one the real nsys exports have (today's, else the 2022 one) and readers of
 * the 2022 schema find theirs, the request phases carry the GPU time the
 * capture was built with, and a damaged chunk is skipped and said.
 */
class SqliteExportTest {
    /** A real {@code nsys export --type sqlite} file (nsys 2022.2, export schema 2.9.1). */
    static final Path NSYS = Path.of("../fixtures/real/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
    /** A real one of today's nsys (2026.2.1, export schema 3.25.0). */
    static final Path NSYS_NOW = Path.of("../fixtures/real/nsys-ai/h100_2gpu_1s.sqlite");

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path exported() throws Exception {
        Path capture = SyntheticCapture.write(dir.resolve("s.vprof"), true);
        Path db = dir.resolve("s.sqlite");
        E2e.ok(Cli.run("export", capture.toString(), "-o", db.toString()));
        return db;
    }

    @Test
    void everyNsysTableIsTodaysNsysExportsOrThe2022OnesWithTheSameColumns() throws Exception {
        Map<String, List<String>> ours = Databases.columns(exported());
        Map<String, List<String>> now = Databases.columns(NSYS_NOW);
        Map<String, List<String>> old = Databases.columns(NSYS);
        assertTrue(ours.keySet().containsAll(now.keySet()), "every table of the 2026.2.1 export: " + ours.keySet());
        for (Map.Entry<String, List<String>> t : ours.entrySet()) {
            if (t.getKey().startsWith("VPROF_")) {
                continue;
            }
            List<String> real = now.containsKey(t.getKey()) ? now.get(t.getKey()) : old.get(t.getKey());
            assertEquals(real, t.getValue(), t.getKey() + ": columns, types, NOT NULL and key as the real export has them");
        }
        assertTrue(ours.keySet().containsAll(List.of("TARGET_INFO_GPU", "CUDA_CALLCHAINS", "OSRT_API", "CUDA_GRAPH_EVENTS",
                "EXPORT_META_DATA", "META_DATA_EXPORT", "META_DATA_CAPTURE", "ENUM_CUDA_KERNEL_LAUNCH_TYPE",
                "ENUM_CUDA_MEMCPY_OPER")), ours.keySet().toString());
        assertTrue(ours.keySet().containsAll(List.of("VPROF_REQUESTS", "VPROF_REQUEST_PHASES", "VPROF_SPANS",
                "VPROF_METRIC_SAMPLES", "VPROF_CAPTURE_RANGES", "VPROF_DROPS", "VPROF_CAPTURE_FACTS", "VPROF_THREADS",
                "VPROF_CPU_OPS")), ours.keySet().toString());
    }

    /** Columns pipit added to its copy of the 2022 export (ALTER TABLE: after the closing parenthesis of nsys's DDL). */
    private static final Map<String, Set<String>> ADDED_BY_PIPIT = Map.of(
            "CUPTI_ACTIVITY_KIND_MEMCPY", Set.of("name TEXT 0 0"), "CUPTI_ACTIVITY_KIND_RUNTIME", Set.of("name TEXT 0 0"));

    @Test
    void readersOfThe2022SchemaFindEveryColumnTheyRead() throws Exception {
        Map<String, List<String>> ours = Databases.columns(exported());
        Map<String, List<String>> old = Databases.columns(NSYS);
        // The tables vprof wrote in the 2.9.1 schema; 3.25.0 keeps their columns (TARGET_INFO_SYSTEM_ENV's
        // globalVid lost its NOT NULL, a table vprof does not fill).
        for (String t : List.of("StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "ThreadNames", "PROCESSES",
                "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME", "EXPORT_META_DATA", "CUDA_GRAPH_EVENTS")) {
            Set<String> missing = new TreeSet<>(old.get(t));
            missing.removeAll(ours.get(t));
            missing.removeAll(ADDED_BY_PIPIT.getOrDefault(t, Set.of()));
            assertEquals(Set.of(), missing, t + ": 2.9.1 columns the export lacks");
        }
    }

    @Test
    void everyEnumTableHoldsNsyssValues() throws Exception {
        Path db = exported();
        for (JsonNode t : SqliteQueries.rows(NSYS_NOW, "SELECT name FROM sqlite_master WHERE name LIKE 'ENUM!_%' ESCAPE '!'")) {
            String q = "SELECT id, name, label FROM " + t.get("name").asText() + " ORDER BY id";
            assertEquals(SqliteQueries.rows(NSYS_NOW, q), SqliteQueries.rows(db, q), t.get("name").asText());
        }
    }

    @Test
    void exportMetaDataUsesNsysNamesOrVprofsOwn() throws Exception {
        Path db = exported();
        Set<String> nsysNames = new TreeSet<>();
        SqliteQueries.rows(NSYS, "SELECT name FROM EXPORT_META_DATA").forEach(r -> nsysNames.add(r.get("name").asText()));
        for (JsonNode r : SqliteQueries.rows(db, "SELECT name FROM EXPORT_META_DATA")) {
            String name = r.get("name").asText();
            assertTrue(name.startsWith("VPROF_") || nsysNames.contains(name), name + " is not an nsys name: " + nsysNames);
        }
        Set<String> now = new TreeSet<>();
        SqliteQueries.rows(NSYS_NOW, "SELECT name FROM META_DATA_EXPORT").forEach(r -> now.add(r.get("name").asText()));
        for (JsonNode r : SqliteQueries.rows(db, "SELECT name FROM META_DATA_EXPORT")) {
            String name = r.get("name").asText();
            assertTrue(name.startsWith("VPROF_") || now.contains(name), name + " is not a 3.25.0 name: " + now);
        }
    }

    @Test
    void requestPhasesCarryTheGpuTimeTheCaptureWasBuiltWith() throws Exception {
        Path db = exported();
        List<JsonNode> rows = SqliteQueries.rows(db, """
                SELECT r.traceId AS traceId, p.phase AS phase, p.end - p.start AS dur, p.gpuNs AS gpuNs
                FROM VPROF_REQUESTS r JOIN VPROF_REQUEST_PHASES p ON p.requestId = r.id ORDER BY r.start, p.start""");
        Map<String, Long> gpu = new LinkedHashMap<>();
        Map<String, Long> dur = new HashMap<>();
        for (JsonNode r : rows) {
            String key = r.get("traceId").asText() + " " + r.get("phase").asText();
            gpu.put(key, r.get("gpuNs").asLong());
            dur.put(key, r.get("dur").asLong());
        }
        long ms = SyntheticCapture.MS;
        // SyntheticCapture's class comment: A's prefill runs gemm 1.6-1.8 and attn 1.7-1.9 (union 300 ms), ...
        String a = SyntheticCapture.traceHex(1);
        String b = SyntheticCapture.traceHex(2);
        Map<String, Long> want = new LinkedHashMap<>();
        want.put(a + " queue", 50 * ms);
        want.put(a + " prefill", 300 * ms);
        want.put(a + " decode", 100 * ms);
        want.put(b + " queue", 0L);
        want.put(b + " prefill", 300 * ms);
        want.put(b + " decode", 500 * ms);
        assertEquals(want.keySet(), gpu.keySet(), "requests A and B (C lies after the window)");
        want.forEach((k, v) -> assertTrue(Math.abs(gpu.get(k) - v) < ms / 100, k + ": " + gpu.get(k) + " ns, want " + v));
        assertEquals(500 * ms, dur.get(a + " queue"));
        assertEquals(2000 * ms, dur.get(b + " queue"));
        assertEquals(1, SqliteQueries.value(db, "SELECT count(*) FROM VPROF_SPANS WHERE service = 'api-server'"),
                "the api-server's span in the window (\"late\" lies after it, as on every export)");
        List<JsonNode> waiting = SqliteQueries.rows(db, "SELECT value FROM VPROF_METRIC_SAMPLES "
                + "WHERE name = 'vllm:num_requests_waiting' ORDER BY timestamp");
        assertFalse(waiting.isEmpty(), "the scraped gauge");
        assertEquals(1, SqliteQueries.value(db, "SELECT count(*) FROM VPROF_CAPTURE_RANGES WHERE source = 'profiler'"));
    }

    @Test
    void aDamagedChunkIsSkippedWhatIsWholeIsExportedAndTheSkipIsInExportMetaData() throws Exception {
        Path capture = dir.resolve("damaged.vprof");
        long t0 = 1_760_000_000_000_000_000L;
        try (CaptureWriter w = CaptureWriter.create(capture, new CaptureMetadata("host", t0, "0.1.0", List.of("x"), Map.of()))) {
            w.process(new ProcessInfo(7, 1, "worker", 130000, 1, 1 << 20, t0));
            RingRecords r = new RingRecords();
            r.string(1, "k").kernelDesc(1, 1, 0, 7).writeTo(w, 7);
            w.flush();
            for (int chunk = 0; chunk < 3; chunk++) {
                for (int i = 0; i < 10; i++) {
                    long s = t0 + (chunk * 10L + i) * 1_000_000;
                    r.kernel(s, s + 500_000, chunk * 10 + i + 1, 1);
                }
                r.writeTo(w, 7);
                w.flush(); // a RECORDS chunk each
            }
        }
        ChunkInfo second;
        try (CaptureReader reader = CaptureSources.open(capture)) {
            List<ChunkInfo> records = reader.chunks(CaptureFormat.KIND_RECORDS);
            assertEquals(4, records.size());
            second = records.get(2);
        }
        byte[] bytes = Files.readAllBytes(capture);
        bytes[(int) second.offset() + CaptureFormat.CHUNK_HEADER_SIZE + 40] ^= 0x5a;
        Files.write(capture, bytes);

        Path db = dir.resolve("damaged.sqlite");
        // A damaged capture is exported as far as it is whole, and says so: exit 3, "read partly".
        Cli.Result export = Cli.run("export", capture.toString(), "-o", db.toString());
        assertEquals(ExitCode.READ_PARTLY.code(), export.code(), export.err());
        assertTrue(export.err().contains("fails its checksum"), export.err());
        assertEquals(20, SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
                "the two whole chunks' kernels");
        Cli.Result partly = Cli.run("report", "--json", capture.toString());
        assertEquals(ExitCode.READ_PARTLY.code(), partly.code(), partly.err());
        JsonNode report = JSON.readTree(partly.out());
        assertEquals(report.get("totals").get("kernels").asLong(), 20);
        List<JsonNode> skipped = SqliteQueries.rows(db, "SELECT value FROM EXPORT_META_DATA WHERE name = 'VPROF_SKIPPED'");
        assertEquals(1, skipped.size(), skipped.toString());
        assertTrue(skipped.getFirst().get("value").asText().contains("RECORDS chunk at byte " + second.offset()),
                skipped.toString());
        assertEquals(1, SqliteQueries.value(db, "SELECT value FROM EXPORT_META_DATA WHERE name = 'VPROF_SKIPPED_COUNT'"));
        assertEquals(20, SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId <= 10 "
                + "OR correlationId > 20"), "chunks 1 and 3 whole, chunk 2 skipped");
    }
}
