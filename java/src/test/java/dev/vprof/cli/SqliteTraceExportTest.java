package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.trace.TraceOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
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
    @TempDir
    static Path dir;

    /** Each trace is exported and reported once for all the tests. */
    private static final RunsOnce ONCE = new RunsOnce("t");

    static Stream<Path> traces() {
        return Stream.of(TraceOracle.REAL.resolve("hta/trace_filter/sampled_rank-0.json.gz"),
                TraceOracle.REAL.resolve("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"),
                TraceOracle.REAL.resolve("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"));
    }

    private static Path export(Path trace) {
        return ONCE.sqlite(dir, trace);
    }

    private static JsonNode report(Path trace) throws Exception {
        return ONCE.json("report", "--json", "--top", "100000", trace.toString());
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

    /** The trace's host threads and their names: Kineto's last {@code thread_name} for each, in its parentheses. */
    private static Map<Long, String> threadNames(JsonNode root) {
        Long cpuPid = null;
        for (JsonNode e : root.get("traceEvents")) {
            if (e.path("ph").asText().equals("M") && e.path("name").asText().equals("process_labels")
                    && e.path("args").path("labels").asText().equals("CPU")) {
                cpuPid = e.get("pid").asLong();
            }
        }
        Map<Long, String> names = new TreeMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.path("ph").asText().equals("M") && e.path("name").asText().equals("thread_name")
                    && cpuPid != null && e.path("pid").asLong() == cpuPid) {
                String n = e.get("args").get("name").asText();
                names.put(e.get("tid").asLong() & 0xFFFF_FFFFL, n.replaceFirst("^thread \\d+ \\((.*)\\)$", "$1"));
            }
        }
        return names;
    }

    @ParameterizedTest
    @MethodSource("traces")
    void everyThreadHasItsTraceNameAndJoiningRowsToThreadsLosesNone(Path trace) throws Exception {
        Path db = export(trace);
        // A reader joins each row to its thread's name: none may fall out (ns_resolution_trace: thread 1262
        // has 8,436 runtime calls and, before CPU ops had a table of their own, 12,001 NVTX rows).
        for (String table : List.of("NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME", "VPROF_CPU_OPS")) {
            long rows = SqliteQueries.value(db, "SELECT count(*) FROM " + table);
            assertEquals(rows, SqliteQueries.value(db, "SELECT count(*) FROM " + table
                    + " AS n JOIN ThreadNames AS t ON t.globalTid = n.globalTid"), table + " rows lost joining ThreadNames");
        }
        Map<Long, String> want = threadNames(TraceOracle.tree(trace));
        Map<Long, String> got = new TreeMap<>();
        SqliteQueries.rows(db, """
                SELECT v.tid & 4294967295 AS tid, s.value AS name FROM VPROF_THREADS v
                JOIN ThreadNames t ON t.globalTid = v.globalTid JOIN StringIds s ON s.id = t.nameId
                WHERE v.namedBySource = 1""").forEach(r -> got.put(r.get("tid").asLong(), r.get("name").asText()));
        assertEquals(want, got, "the trace's thread names");
        assertEquals(0, SqliteQueries.value(db, "SELECT count(*) FROM (SELECT globalTid FROM ThreadNames GROUP BY globalTid "
                + "HAVING count(*) > 1)"), "one name per thread");
    }

    @ParameterizedTest
    @MethodSource("traces")
    void cpuOpsHaveATableOfTheirOwnAndNvtxEventsHoldOnlyTheAnnotations(Path trace) throws Exception {
        Path db = export(trace);
        long cpuOps = 0;
        long annotations = 0;
        for (JsonNode e : TraceOracle.tree(trace).get("traceEvents")) {
            if (e.path("ph").asText().equals("X") && e.has("dur")) {
                cpuOps += e.path("cat").asText().equals("cpu_op") ? 1 : 0;
                annotations += e.path("cat").asText().equals("user_annotation") ? 1 : 0;
            }
        }
        assertEquals(cpuOps, SqliteQueries.value(db, "SELECT count(*) FROM VPROF_CPU_OPS"), "the trace's CPU ops");
        assertEquals(annotations, SqliteQueries.value(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"),
                "NVTX_EVENTS: the user annotations alone");
        assertEquals(0, SqliteQueries.value(db, "SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.domainId "
                + "WHERE n.domainId != 0 AND s.value LIKE 'pytorch.%'"), "no PyTorch domain in NVTX_EVENTS");
    }

    @ParameterizedTest
    @MethodSource("traces")
    void enumColumnsAreSetAsNsysSetsThemAndTheGpuIsTheTraces(Path trace) throws Exception {
        Path db = export(trace);
        NsysEnumColumns.assertSetAsNsysSetsThem(db);
        assertEquals(0, SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE launchType != 1"));
        SqliteQueries.assertIntact(db);
        JsonNode props = TraceOracle.tree(trace).path("deviceProperties");
        if (props.isArray() && !props.isEmpty()) {
            JsonNode d = props.get(0);
            JsonNode gpu = SqliteQueries.rows(db, "SELECT name, smCount, totalMemory, computeMajor, computeMinor "
                    + "FROM TARGET_INFO_GPU WHERE id = " + d.get("id").asInt()).getFirst();
            assertEquals(d.get("name").asText(), gpu.get("name").asText());
            assertEquals(d.get("numSms").asLong(), gpu.get("smCount").asLong());
            assertEquals(d.get("totalGlobalMem").asLong(), gpu.get("totalMemory").asLong());
            assertEquals(d.get("computeMajor").asLong(), gpu.get("computeMajor").asLong());
            assertEquals(d.get("computeMinor").asLong(), gpu.get("computeMinor").asLong());
        }
    }

    /** Per correlation id, the runtime calls of one trace that carry it. */
    private static Map<Long, Long> runtimeCalls(JsonNode root) {
        Map<Long, Long> calls = new HashMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.path("cat").asText().equals("cuda_runtime") && e.path("ph").asText().equals("X")
                    && e.path("args").has("correlation")) {
                calls.merge(e.get("args").get("correlation").asLong(), 1L, Long::sum);
            }
        }
        return calls;
    }

    private static List<Long> kernelCorrelations(JsonNode root) {
        List<Long> ids = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.path("cat").asText().equals("kernel") && e.path("ph").asText().equals("X")) {
                ids.add(e.get("args").get("correlation").asLong());
            }
        }
        return ids;
    }

    @Test
    void correlationIdsArePerProcessAndTheJoinWithThePidPartFindsEachLaunchOnce() throws Exception {
        // Two ranks of one job, exported together: their CUPTI correlation ids overlap.
        Path folder = TraceOracle.REAL.resolve("hta/trace_filter");
        Path db = dir.resolve("ranks.sqlite");
        E2e.ok(Cli.run("export", folder.toString(), "-o", db.toString()));
        JsonNode a = TraceOracle.tree(folder.resolve("sampled_rank-0.json.gz"));
        JsonNode b = TraceOracle.tree(folder.resolve("sampled_rank-1.json.gz"));
        long own = 0;
        long other = 0;
        for (JsonNode[] pair : new JsonNode[][] {{a, b}, {b, a}}) {
            Map<Long, Long> mine = runtimeCalls(pair[0]);
            Map<Long, Long> theirs = runtimeCalls(pair[1]);
            for (long c : kernelCorrelations(pair[0])) {
                own += mine.getOrDefault(c, 0L);
                other += theirs.getOrDefault(c, 0L);
            }
        }
        assertTrue(other > 0, "the ranks share correlation ids, as every two CUDA processes may");
        // docs/sqlite.md's join: correlationId and the process part of globalTid.
        assertEquals(own, SqliteQueries.rows(db, SqliteQueries.KERNEL_LAUNCHES).size(), "each kernel with its own launch");
        assertEquals(own + other, SqliteQueries.value(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                + "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId"), "without the process part");
        // Nsight Systems numbers them the same way: the join needs the process part on its exports too.
        Path nsys = NsysEnumColumns.NSYS_NOW;
        long nsysJoined = SqliteQueries.value(nsys, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                + "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
                + "AND ((r.globalTid >> 24) & 0xFFFFFF) = ((k.globalPid >> 24) & 0xFFFFFF)");
        long nsysNaive = SqliteQueries.value(nsys, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                + "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId");
        assertTrue(nsysNaive > nsysJoined, "the real export's two processes share ids too: " + nsysNaive + " vs " + nsysJoined);
    }
}
