package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.diff.DiffResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nsight Systems SQLite exports wherever a capture is read: {@code vprof report}, {@code export},
 * {@code diff}, {@code import} and {@code report --html} on the two real nsys exports in
 * fixtures/real (2022.2, schema 2.9.1; 2026.2.1, schema 3.25.0). The oracle is SQL on the export
 * itself, run by Debian's {@code sqlite3} ({@link SqliteQueries#rows}), never vprof's reader; where
 * the figure is per kind or per name, vprof's own SQLite export of the input is queried the same
 * way and must give the same rows.
 */
@Timeout(300)
class NsysInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path NSYS_2026 = Path.of("../fixtures/real/nsys-ai/h100_2gpu_1s.sqlite");
    static final Path NSYS_2022 = Path.of("../fixtures/real/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");

    @TempDir
    Path dir;

    static Stream<Path> exports() {
        return Stream.of(NSYS_2026, NSYS_2022);
    }

    private static JsonNode reportJson(Path input) throws IOException {
        Cli.Result r = Cli.run("report", "--json", "--top", "10000", "--mangled", input.toString());
        assertEquals(ExitCode.OK.code(), r.code(), r.err());
        return JSON.readTree(r.out());
    }

    /** Rows of {@code sql} on {@code db} as text, in the query's order. */
    private static List<String> sql(Path db, String sql) {
        return SqliteQueries.rows(db, sql).stream().map(JsonNode::toString).toList();
    }

    /** Kernels by the name CUPTI reported (mangled where nsys has it), as `report --mangled` names them. */
    private static final String KERNELS_BY_NAME = """
            SELECT s.value AS name, count(*) AS n, sum(k.end - k.start) AS total
            FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = coalesce(k.mangledName, k.demangledName)
            GROUP BY s.value""";

    @ParameterizedTest
    @MethodSource("exports")
    void reportCountsEveryKernelAndEachNamesCountAndTotalAsSqlOnTheExportDoes(Path export) throws IOException {
        JsonNode report = reportJson(export);
        long kernels = SqliteQueries.value(export, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
        assertTrue(kernels > 0);
        assertEquals(kernels, report.path("totals").path("kernels").asLong());
        Map<String, List<Long>> want = new TreeMap<>();
        for (JsonNode row : SqliteQueries.rows(export, KERNELS_BY_NAME)) {
            want.put(row.get("name").asText(), List.of(row.get("n").asLong(), row.get("total").asLong()));
        }
        Map<String, List<Long>> got = new TreeMap<>();
        for (JsonNode k : report.get("top_kernels")) {
            got.put(k.get("name").asText(), List.of(k.get("count").asLong(), k.get("total_ns").asLong()));
        }
        assertEquals(want, got);
    }

    @ParameterizedTest
    @MethodSource("exports")
    void eachNsysProcessIsOneProcessWithItsKernelsCopiesAndCudaCalls(Path export) throws IOException {
        Map<Long, List<Long>> want = new TreeMap<>();
        for (JsonNode row : SqliteQueries.rows(export, """
                SELECT pid, sum(k) AS k, sum(m) AS m, sum(b) AS b, sum(a) AS a FROM (
                  SELECT (globalPid >> 24) & 0xFFFFFF AS pid, 1 AS k, 0 AS m, 0 AS b, 0 AS a FROM CUPTI_ACTIVITY_KIND_KERNEL
                  UNION ALL SELECT (globalPid >> 24) & 0xFFFFFF, 0, 1, bytes, 0 FROM CUPTI_ACTIVITY_KIND_MEMCPY
                  UNION ALL SELECT (globalTid >> 24) & 0xFFFFFF, 0, 0, 0, 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME
                    WHERE eventClass IN (0, 1))
                GROUP BY pid""")) {
            want.put(row.get("pid").asLong(), List.of(row.get("k").asLong(), row.get("m").asLong(),
                    row.get("b").asLong(), row.get("a").asLong()));
        }
        Map<Long, List<Long>> got = new TreeMap<>();
        JsonNode report = reportJson(export);
        for (JsonNode p : report.get("processes")) {
            got.put(p.get("pid").asLong(), List.of(p.get("kernels").asLong(), p.get("memcpys").asLong(),
                    p.get("memcpy_bytes").asLong(), p.get("api_calls").asLong()));
            assertEquals("nsight-systems-export", p.path("source").path("source").asText());
            String name = SqliteQueries.rows(export, "SELECT name FROM PROCESSES WHERE pid = " + p.get("pid").asLong())
                    .getFirst().get("name").asText();
            assertEquals(name, p.get("command").asText());
        }
        assertEquals(want, got);
    }

    @Test
    void gpusComeFromTargetInfoGpu() throws IOException {
        JsonNode gpu = SqliteQueries.rows(NSYS_2022, "SELECT id, name, smCount, totalMemory, computeMajor, computeMinor "
                + "FROM TARGET_INFO_GPU").getFirst();
        JsonNode d = reportJson(NSYS_2022).get("processes").get(0).get("devices").get(0);
        assertEquals(gpu.get("id").asInt(), d.get("id").asInt());
        assertEquals(gpu.get("name").asText(), d.get("name").asText());
        assertEquals(gpu.get("smCount").asInt(), d.get("sm_count").asInt());
        assertEquals(gpu.get("totalMemory").asLong(), d.get("global_memory_bytes").asLong());
        assertEquals(gpu.get("computeMajor").asInt(), d.get("compute_major").asInt());
        assertEquals(gpu.get("computeMinor").asInt(), d.get("compute_minor").asInt());
    }

    @ParameterizedTest
    @MethodSource("exports")
    void exportedAgainToSqliteTheCopiesNvtxRangesLaunchesAndTimesAreTheExportsOwn(Path export) throws IOException {
        Path again = dir.resolve("again.sqlite");
        Cli.Result r = Cli.run("export", export.toString(), "-o", again.toString());
        assertEquals(ExitCode.OK.code(), r.code(), r.err());
        SqliteQueries.assertIntact(again);
        // Bytes copied by kind, with the source and destination memory kinds.
        String copies = "SELECT copyKind, srcKind, dstKind, count(*) AS n, sum(bytes) AS bytes "
                + "FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1, 2, 3 ORDER BY 1, 2, 3";
        assertFalse(sql(export, copies).isEmpty());
        assertEquals(sql(export, copies), sql(again, copies));
        // NVTX ranges by name: count and total duration (nsys 2026 names them inline, 2022 through StringIds).
        String ranges = "SELECT coalesce(n.text, s.value) AS name, count(*) AS n, sum(n.end - n.start) AS total "
                + "FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = n.textId "
                + "WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL GROUP BY 1 ORDER BY 1";
        assertFalse(sql(export, ranges).isEmpty());
        assertEquals(sql(export, ranges), sql(again, ranges));
        // Each kernel finds the launch of its own process by correlation id, as in the export.
        String launches = "SELECT count(*) AS n FROM (" + SqliteQueries.KERNEL_LAUNCHES + ")";
        assertEquals(sql(export, launches), sql(again, launches));
        // The first kernel at the same epoch ns: utcEpochNs at the session clock's systemClockNs (0 in 2.x).
        long start = SqliteQueries.value(export, "SELECT t.utcEpochNs + (min(k.start) - "
                + (export.equals(NSYS_2026) ? "t.systemClockNs" : "0") + ") FROM CUPTI_ACTIVITY_KIND_KERNEL AS k, "
                + "TARGET_INFO_SESSION_START_TIME AS t");
        long startAgain = SqliteQueries.value(again, "SELECT t.utcEpochNs + min(k.start) "
                + "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k, TARGET_INFO_SESSION_START_TIME AS t");
        assertEquals(start, startAgain);
    }

    @Test
    void threadsKeepTheirNsysNames() throws IOException {
        Path again = dir.resolve("threads.sqlite");
        assertEquals(ExitCode.OK.code(), Cli.run("export", NSYS_2026.toString(), "-o", again.toString()).code());
        // NVTX ranges and API calls per named thread: nsys's ThreadNames in the export and in vprof's copy.
        String byThread = """
                SELECT (e.globalTid >> 24) & 0xFFFFFF AS pid, e.globalTid & 0xFFFFFF AS tid, tn.value AS thread,
                       count(*) AS n
                FROM (SELECT globalTid FROM NVTX_EVENTS WHERE eventType IN (59, 60)
                      UNION ALL SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)) AS e
                JOIN ThreadNames AS t ON t.globalTid = e.globalTid JOIN StringIds AS tn ON tn.id = t.nameId
                GROUP BY 1, 2, 3 ORDER BY 1, 2""";
        List<String> want = sql(NSYS_2026, byThread);
        assertFalse(want.isEmpty());
        assertEquals(want, sql(again, byThread));
    }

    @ParameterizedTest
    @MethodSource("exports")
    void diffOfTheExportAgainstItselfSaysNoChange(Path export) {
        Cli.Result r = Cli.run("diff", export.toString(), export.toString());
        assertEquals(ExitCode.OK.code(), r.code(), r.err());
        assertTrue(r.out().startsWith(DiffResult.NO_CHANGE + ":"), r.out());
    }

    @Test
    void importStoresTheExportAsACaptureWithTheSameKernels() throws IOException {
        Path out = dir.resolve("run.vprof");
        Cli.Result imp = Cli.run("import", NSYS_2026.toString(), "-o", out.toString());
        assertEquals(ExitCode.OK.code(), imp.code(), imp.err());
        assertTrue(imp.out().contains("schema 3.25.0"), imp.out());
        assertEquals(SqliteQueries.value(NSYS_2026, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
                reportJson(out).path("totals").path("kernels").asLong());
        Cli.Result diff = Cli.run("diff", NSYS_2026.toString(), out.toString()); // the export against its copy
        assertEquals(ExitCode.OK.code(), diff.code(), diff.err());
        assertTrue(diff.out().startsWith(DiffResult.NO_CHANGE + ":"), diff.out());
        Cli.Result again = Cli.run("import", NSYS_2026.toString(), "-o", out.toString());
        assertEquals(ExitCode.CANNOT.code(), again.code());
        assertTrue(again.err().contains("already exists"), again.err());
        Cli.Result mixed = Cli.run("import", NSYS_2026.toString(), NSYS_2022.toString(), "-o",
                dir.resolve("two.vprof").toString());
        assertEquals(ExitCode.CANNOT.code(), mixed.code());
        assertEquals(1, mixed.err().strip().lines().count(), mixed.err());
        assertFalse(Files.exists(dir.resolve("two.vprof")));
    }

    @Test
    void theHtmlReportOfAnExportNamesItsTopKernel() throws IOException {
        Path page = dir.resolve("page.html");
        Cli.Result r = Cli.run("report", "--html", page.toString(), NSYS_2022.toString());
        assertEquals(ExitCode.OK.code(), r.code(), r.err());
        String top = SqliteQueries.rows(NSYS_2022, "SELECT s.value AS name FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
                + "JOIN StringIds AS s ON s.id = k.shortName GROUP BY 1 ORDER BY sum(k.end - k.start) DESC LIMIT 1")
                .getFirst().get("name").asText();
        assertTrue(Files.readString(page).contains(top), top);
    }
}
