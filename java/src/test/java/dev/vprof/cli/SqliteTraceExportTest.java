package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.trace.TraceOracle;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real PyTorch profiler traces (from real GPUs, {@code fixtures/real/}) exported with {@code vprof
 * export -o OUT.sqlite} and queried with Debian's {@code sqlite3} the way Nsight Systems users query
 * an nsys export ({@link SqliteQueries}). The answers are checked against {@code vprof report
 * --json} and against the trace itself, read here as a plain JSON tree ({@link TraceOracle}).
 */
class SqliteTraceExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    /** Each trace is exported and reported once for all the tests. */
    private static final Map<Path, Path> databases = new HashMap<>();
    private static final Map<Path, JsonNode> reports = new HashMap<>();

    static Stream<Path> traces() {
        return Stream.of(TraceOracle.REAL.resolve("hta/trace_filter/sampled_rank-0.json.gz"),
                TraceOracle.REAL.resolve("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"),
                TraceOracle.REAL.resolve("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"));
    }

    private static synchronized Path export(Path trace) {
        return databases.computeIfAbsent(trace, t -> {
            Path db = dir.resolve("t" + databases.size() + ".sqlite");
            E2e.ok(Cli.run("export", t.toString(), "-o", db.toString()));
            return db;
        });
    }

    private static synchronized JsonNode report(Path trace) throws Exception {
        JsonNode r = reports.get(trace);
        if (r == null) {
            r = JSON.readTree(E2e.ok(Cli.run("report", "--json", "--top", "100000", trace.toString())).out());
            reports.put(trace, r);
        }
        return r;
    }

    @ParameterizedTest
    @MethodSource("traces")
    void theKernelSummaryByNameIsTheReportsAndTheTraces(Path trace) throws Exception {
        Path db = export(trace);
        JsonNode report = report(trace);
        TraceOracle.Kernels oracle = TraceOracle.kernels(trace);
        Map<String, JsonNode> sql = new TreeMap<>();
        SqliteQueries.rows(db, SqliteQueries.KERNEL_SUMMARY).forEach(r -> sql.put(r.get("name").asText(), r));
        assertEquals(oracle.byName().keySet(), sql.keySet(), "one row per kernel name of the trace");
        oracle.byName().forEach((name, c) -> {
            assertEquals(c[0], sql.get(name).get("count").asLong(), name);
            assertEquals(c[1], sql.get(name).get("total").asLong(), name + ": ns as the trace says");
        });
        // The trace's clock is the timeline's (the fit is the identity): the report's figures exactly.
        JsonNode top = report.get("top_kernels");
        assertEquals(top.size(), sql.size());
        for (JsonNode k : top) {
            JsonNode r = sql.get(k.get("name").asText());
            assertEquals(k.get("count").asLong(), r.get("count").asLong(), k.toString());
            assertEquals(k.get("total_ns").asLong(), r.get("total").asLong(), k.toString());
            assertEquals(k.get("mean_ns").asLong(), (long) Math.floor(r.get("average").asDouble()), k.toString());
            if (k.get("percentiles_exact").asBoolean()) {
                assertEquals(k.get("p50_ns").asLong(), r.get("median").asLong(), k.toString());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("traces")
    void kernelsJoinTheirLaunchesWhereTheTraceHasThem(Path trace) throws Exception {
        Path db = export(trace);
        JsonNode root = TraceOracle.tree(trace);
        Set<Long> runtime = new HashSet<>();
        Set<Long> anyApi = new HashSet<>();
        for (JsonNode e : root.get("traceEvents")) {
            String cat = e.path("cat").asText();
            if ((cat.equals("cuda_runtime") || cat.equals("cuda_driver")) && e.path("ph").asText().equals("X")
                    && e.path("args").has("correlation")) {
                long c = e.get("args").get("correlation").asLong();
                anyApi.add(c);
                if (cat.equals("cuda_runtime")) {
                    runtime.add(c);
                }
            }
        }
        long kernels = 0;
        long launched = 0;
        long withCall = 0;
        for (JsonNode e : root.get("traceEvents")) {
            if (e.path("cat").asText().equals("kernel") && e.path("ph").asText().equals("X")) {
                kernels++;
                long c = e.get("args").get("correlation").asLong();
                launched += runtime.contains(c) ? 1 : 0;
                withCall += anyApi.contains(c) ? 1 : 0;
            }
        }
        List<JsonNode> joined = SqliteQueries.rows(db, SqliteQueries.KERNEL_LAUNCHES);
        assertEquals(launched, joined.size(), "kernels whose runtime call is in the trace (of " + kernels + ")");
        assertEquals(kernels - withCall, SqliteQueries.value(db, SqliteQueries.KERNELS_WITHOUT_LAUNCH),
                "kernels with no runtime or driver call of theirs in the trace");
        assertTrue(launched > 0);
        for (JsonNode r : joined) {
            assertTrue(r.get("api").asText().startsWith("cuda") || r.get("api").asText().startsWith("cu"), r.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("traces")
    void annotationsAreNvtxRangesByNameAndMemcpyBytesByKindAreTheTraces(Path trace) throws Exception {
        Path db = export(trace);
        JsonNode root = TraceOracle.tree(trace);
        Map<String, Long> annotations = new TreeMap<>();
        Map<Integer, long[]> copies = new TreeMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (!e.path("ph").asText().equals("X")) {
                continue;
            }
            String cat = e.path("cat").asText();
            if (cat.equals("user_annotation")) {
                annotations.merge(e.get("name").asText(), 1L, Long::sum);
            } else if (cat.equals("gpu_memcpy")) {
                String name = e.get("name").asText();
                int kind = name.startsWith("Memcpy HtoD") ? 1 : name.startsWith("Memcpy DtoH") ? 2
                        : name.startsWith("Memcpy DtoD") ? 8 : -1;
                long[] c = copies.computeIfAbsent(kind, k -> new long[2]);
                c[0]++;
                c[1] += e.get("args").get("bytes").asLong();
            }
        }
        // User annotations are ranges of the default domain (0); the CPU ops have domains of their own.
        Map<String, Long> ranges = new TreeMap<>();
        SqliteQueries.rows(db, """
                SELECT s.value AS range, count(*) AS count FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId
                LEFT JOIN ThreadNames t ON t.globalTid = n.globalTid
                WHERE n.eventType = 59 AND n.domainId = 0 GROUP BY s.value""")
                .forEach(r -> ranges.put(r.get("range").asText(), r.get("count").asLong()));
        assertEquals(annotations, ranges);
        // The whole NVTX query, with the thread names: one row per (thread, name) whose counts add up.
        Map<String, Long> byThread = new HashMap<>();
        SqliteQueries.rows(db, SqliteQueries.NVTX_BY_THREAD)
                .forEach(r -> byThread.merge(r.get("range").asText(), r.get("count").asLong(), Long::sum));
        annotations.forEach((name, n) -> assertTrue(byThread.getOrDefault(name, 0L) >= n, name));
        Map<Integer, long[]> got = new TreeMap<>();
        SqliteQueries.rows(db, SqliteQueries.MEMCPY_BY_KIND).forEach(r -> got.put(r.get("copyKind").asInt(),
                new long[] {r.get("count").asLong(), r.get("bytes").asLong()}));
        assertEquals(copies.keySet(), got.keySet());
        copies.forEach((k, c) -> {
            assertEquals(c[0], got.get(k)[0], "copies of kind " + k);
            assertEquals(c[1], got.get(k)[1], "bytes of kind " + k);
        });
        JsonNode p = report(trace).get("processes").get(0);
        assertEquals(p.get("memcpy_bytes").asLong(), copies.values().stream().mapToLong(c -> c[1]).sum());
    }
}
