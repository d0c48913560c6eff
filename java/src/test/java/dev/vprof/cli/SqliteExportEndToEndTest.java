package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.source.CaptureSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture of the CUPTI test double's simulated GPU process (kernels, CUDA graph kernels, copies of
 * three kinds, sets, runtime and driver calls, NVTX ranges) exported with {@code vprof export -o
 * OUT.sqlite}, then queried with Debian's {@code sqlite3} the way Nsight Systems users query
 * {@code nsys export --type sqlite} files ({@link SqliteQueries}). The answers are checked against
 * {@code vprof report --json} and against the capture's records counted here on their own. The
 * figures are the double's, never a GPU's.
 */
class SqliteExportEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path capture;
    static Path db;
    static JsonNode report;
    static Recorded recorded;

    @BeforeAll
    static void captureAndExport() throws Exception {
        E2e e2e = E2e.nativeParts();
        capture = dir.resolve("a.vprof");
        E2e.run(List.of("--capture-range=cudaProfilerApi", "--kinds", "kernel,memcpy,memset,nvtx,runtime,driver",
                        "-o", capture.toString()),
                e2e.simLogged(dir.resolve("sim.log"), "--steps", "120", "--kernels-per-step", "8", "--profiler-range",
                        "10:110", "--nvtx", "--cuda-graph", "--step-us", "500"));
        db = dir.resolve("a.sqlite");
        Cli.Result export = E2e.ok(Cli.run("export", capture.toString(), "-o", db.toString()));
        assertTrue(export.out().contains("(sqlite, "), export.out());
        report = JSON.readTree(E2e.ok(Cli.run("report", "--json", "--top", "1000", capture.toString())).out());
        recorded = Recorded.of(capture);
    }

    private static JsonNode process() {
        assertEquals(1, report.get("processes").size());
        return report.get("processes").get(0);
    }

    /** How far a duration placed through the process's clock fit may differ from the one CUPTI recorded. */
    private static double tolerance(long count, long totalNs) {
        double drift = Math.abs(process().get("clock").get("drift_ppm").asDouble()) * 1e-6;
        return count + drift * totalNs;
    }

    @Test
    void theKernelSummaryByNameIsTheReportsTopKernels() {
        List<JsonNode> sql = SqliteQueries.rows(db, SqliteQueries.KERNEL_SUMMARY);
        JsonNode top = report.get("top_kernels");
        assertEquals(top.size(), sql.size(), "one row per kernel name: " + sql);
        Map<String, JsonNode> byName = new HashMap<>();
        sql.forEach(r -> byName.put(r.get("name").asText(), r));
        long kernels = 0;
        for (JsonNode k : top) {
            String name = k.get("name").asText();
            JsonNode r = byName.get(name);
            assertTrue(r != null, "the report's " + name + " is in the database: " + byName.keySet());
            long count = k.get("count").asLong();
            long total = k.get("total_ns").asLong();
            assertEquals(count, r.get("count").asLong(), name);
            // The database places both ends through the clock fit (as every export does); the report
            // takes CUPTI's durations as recorded: they differ by the rounding and the fit's drift only.
            double tol = tolerance(count, total);
            assertTrue(Math.abs(r.get("total").asLong() - total) <= tol,
                    name + ": total " + r.get("total") + " vs the report's " + total + " (within " + tol + ")");
            assertTrue(Math.abs(r.get("average").asDouble() - k.get("mean_ns").asLong()) <= 1 + tol / count,
                    name + ": average " + r.get("average") + " vs " + k.get("mean_ns"));
            assertTrue(k.get("percentiles_exact").asBoolean(), name);
            long p50 = k.get("p50_ns").asLong();
            assertTrue(Math.abs(r.get("median").asLong() - p50) <= tolerance(1, p50),
                    name + ": median " + r.get("median") + " vs the report's p50 " + p50);
            kernels += count;
        }
        assertEquals(process().get("kernels").asLong(), kernels);
        assertEquals(800, kernels, "the simulator's kernels_in_profiler_ranges");
    }

    @Test
    void kernelTimesAreTheRecordsOnTheTimelinesClockExactly() {
        List<JsonNode> sql = SqliteQueries.rows(db, """
                SELECT s.value AS name, count(*) AS count, sum(k.end - k.start) AS total
                FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.mangledName GROUP BY s.value""");
        Map<String, long[]> got = new TreeMap<>();
        sql.forEach(r -> got.put(r.get("name").asText(), new long[] {r.get("count").asLong(), r.get("total").asLong()}));
        Map<String, long[]> want = new TreeMap<>();
        recorded.kernels.forEach((name, ds) -> want.put(name, new long[] {ds.size(),
                ds.stream().mapToLong(Long::longValue).sum()}));
        assertEquals(want.keySet(), got.keySet());
        want.forEach((name, w) -> {
            assertEquals(w[0], got.get(name)[0], name);
            assertEquals(w[1], got.get(name)[1], name + ": durations as the clock fit places the records");
        });
    }

    @Test
    void everyKernelJoinsItsLaunchOnCorrelationIdWithBothNamesFromStringIds() {
        assertEquals(0, SqliteQueries.value(db, SqliteQueries.KERNELS_WITHOUT_LAUNCH), "every kernel has its launch");
        List<JsonNode> joined = SqliteQueries.rows(db, SqliteQueries.KERNEL_LAUNCHES);
        assertEquals(800, joined.size(), "each kernel joins exactly one runtime call");
        Map<String, Integer> apis = new TreeMap<>();
        for (JsonNode r : joined) {
            apis.merge(r.get("api").asText(), 1, Integer::sum);
            assertFalse(r.get("kernel").asText().isEmpty());
            assertFalse(r.get("shortName").asText().isEmpty());
            assertTrue(r.get("apiStart").asLong() <= r.get("kernelStart").asLong(), "launched before it ran: " + r);
        }
        assertEquals(Map.of("cudaGraphLaunch", 88 * 8, "cudaLaunchKernel", 96), apis,
                "eager kernels by cudaLaunchKernel, each graph's 8 kernels by its cudaGraphLaunch");
        assertEquals(88 * 8, SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL"),
                "graph kernels carry their node id");
        assertEquals(process().get("api_calls").asLong(),
                SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), "runtime and driver calls");
        assertTrue(SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 1") > 0,
                "driver calls too");
    }

    @Test
    void nvtxRangesJoinThreadNamesAndStringIds() {
        List<JsonNode> sql = SqliteQueries.rows(db, SqliteQueries.NVTX_BY_THREAD);
        assertEquals(1, sql.size(), sql.toString());
        JsonNode r = sql.getFirst();
        assertEquals("step", r.get("range").asText());
        assertEquals("vprof-simgpu", r.get("thread").asText(), "the main thread, named as its process");
        assertEquals(r.get("pid").asLong(), r.get("tid").asLong());
        assertEquals(process().get("pid").asLong(), r.get("pid").asLong(), "the pid decoded from globalTid");
        assertEquals(recorded.markerStarts, r.get("count").asLong(), "one range per START record");
        assertEquals(process().get("markers").asLong(), r.get("count").asLong(), "the report counts each range once");
    }

    @Test
    void memcpyBytesByKindAreTheRecords() {
        List<JsonNode> sql = SqliteQueries.rows(db, SqliteQueries.MEMCPY_BY_KIND);
        Map<Integer, long[]> got = new TreeMap<>();
        sql.forEach(r -> got.put(r.get("copyKind").asInt(), new long[] {r.get("count").asLong(), r.get("bytes").asLong()}));
        assertEquals(recorded.memcpyByKind.keySet(), got.keySet());
        assertEquals(3, got.size(), "HtoD, DtoH and the graphs' DtoD: " + got.keySet());
        long count = 0, bytes = 0;
        for (Map.Entry<Integer, long[]> e : recorded.memcpyByKind.entrySet()) {
            assertEquals(e.getValue()[0], got.get(e.getKey())[0], "copies of kind " + e.getKey());
            assertEquals(e.getValue()[1], got.get(e.getKey())[1], "bytes of kind " + e.getKey());
            count += e.getValue()[0];
            bytes += e.getValue()[1];
        }
        assertEquals(process().get("memcpys").asLong(), count);
        assertEquals(process().get("memcpy_bytes").asLong(), bytes);
        assertEquals(process().get("memsets").asLong(), SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
        assertEquals(process().get("memset_bytes").asLong(),
                SqliteQueries.value(db, "SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
    }

    @Test
    void theProducerTheSchemaAndTheSessionStartAreRecorded() {
        Map<String, String> meta = new HashMap<>();
        SqliteQueries.rows(db, "SELECT name, value FROM EXPORT_META_DATA")
                .forEach(r -> meta.put(r.get("name").asText(), r.get("value").asText()));
        assertEquals("vprof", meta.get("EXPORT_PRODUCT_NAME"));
        assertEquals("3.25.0", meta.get("EXPORT_SCHEMA_VERSION"));
        assertEquals("0", meta.get("VPROF_SKIPPED_COUNT"));
        long base = SqliteQueries.value(db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
        assertEquals(Long.parseLong(meta.get("VPROF_TIME_BASE_EPOCH_NS")), base);
        // Times count from the session start: the capture range begins at it or after it.
        JsonNode range = report.get("ranges").get(0);
        long rangeStart = SqliteQueries.value(db, "SELECT min(start) FROM VPROF_CAPTURE_RANGES");
        assertTrue(Math.abs(base + rangeStart - range.get("start_ns").asLong()) < 1_000_000,
                "utcEpochNs + start is the epoch time: " + (base + rangeStart) + " vs " + range.get("start_ns"));
        assertEquals("NVIDIA H200 (simulated by vprof)", SqliteQueries.rows(db, "SELECT name FROM TARGET_INFO_GPU")
                .getFirst().get("name").asText());
    }

    @Test
    void enumColumnsAreSetAsNsysSetsThemAndSqliteFindsTheFileIntact() {
        // Kernels, copies, sets, runtime and driver calls, NVTX: each enum column of today's nsys export checked.
        assertTrue(NsysEnumColumns.assertSetAsNsysSetsThem(db) >= 8);
        SqliteQueries.assertIntact(db);
        assertEquals(0, SqliteQueries.value(db, "SELECT count(*) FROM NVTX_EVENTS n LEFT JOIN ThreadNames t "
                + "ON t.globalTid = n.globalTid WHERE t.nameId IS NULL"), "every NVTX range joins its thread");
    }

    @Test
    void anExistingDatabaseIsKeptWithoutForce() throws Exception {
        Path out = dir.resolve("again.sqlite");
        Files.writeString(out, "keep me");
        Cli.Result refused = Cli.run("export", capture.toString(), "-o", out.toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("already exists; pass --force"), refused.err());
        assertEquals("keep me", Files.readString(out));
        E2e.ok(Cli.run("export", capture.toString(), "-o", out.toString(), "--force"));
        assertEquals(800, SqliteQueries.value(out, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    }

    /** The capture's records counted here, without the export: the kernels on the timeline's clock. */
    static final class Recorded implements RecordVisitor {
        final Map<Integer, ClockMapping> clocks;
        final Map<String, List<Long>> kernels = new TreeMap<>();
        final Map<Integer, long[]> memcpyByKind = new TreeMap<>();
        long markerStarts;

        Recorded(Map<Integer, ClockMapping> clocks) {
            this.clocks = clocks;
        }

        static Recorded of(Path capture) throws Exception {
            try (CaptureReader reader = CaptureSources.open(capture)) {
                Recorded r = new Recorded(reader.clocks());
                reader.forEachRecord(r);
                return r;
            }
        }

        @Override
        public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
            ClockMapping c = clocks.getOrDefault(pid, ClockMapping.identity());
            long s = c.toEpochNs(start);
            long e = Math.max(s, c.toEpochNs(end));
            kernels.computeIfAbsent(name, n -> new ArrayList<>()).add(e - s);
        }

        @Override
        public void memcpy(int pid, MemcpyEvent m) {
            long[] a = memcpyByKind.computeIfAbsent(m.copyKind(), k -> new long[2]);
            a[0]++;
            a[1] += m.bytes();
        }

        @Override
        public void memset(int pid, MemsetEvent m) {}

        @Override
        public void marker(int pid, MarkerEvent m) {
            if ((m.flags() & VprofRing.MARKER_START) != 0) {
                markerStarts++;
            }
        }
    }
}
