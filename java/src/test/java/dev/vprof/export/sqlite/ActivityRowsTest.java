package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.trace.TorchTraceImport;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One event of each kind through {@link ActivityRows}: each lands in its table with every column as
 * docs/sqlite.md says, the columns vprof does not record as nsys writes them, and a PyTorch trace's
 * CPU ops, Python functions and GPU annotations in vprof's tables, not NVTX_EVENTS.
 */
class ActivityRowsTest {
    static final long BASE = 1_700_000_000_000_000_000L;

    @TempDir
    static Path dir;

    static Path db;
    static StringIds strings;

    @BeforeAll
    static void write() throws Exception {
        ListTimeline t = new ListTimeline();
        var p = t.process(4242, "worker", List.of("worker"));
        GpuStream stream = p.device(1).stream(13).context(3);
        CpuThread main = p.thread(4242);
        int kernel = t.intern("_Z5saxpyifPfS_");
        t.kernel(stream, kernel, BASE + 1_000, BASE + 3_000, 77, 120, 2, 1, 256, 1, 1, 32, 4096).graphNode(9);
        t.kernel(stream, kernel, BASE + 4_000, BASE + 5_000, 0, 1, 1, 1, 32, 1, 1, 16, 0);
        t.memcpy(stream, t.intern("Memcpy HtoD"), BASE + 6_000, BASE + 7_000, 78, 1 << 20, 1, 2, 3);
        t.memcpy(stream, t.intern("Memcpy DtoD"), BASE + 7_000, BASE + 7_500, 79, 64, 8, 0, 0);
        t.memset(stream, t.intern("Memset"), BASE + 8_000, BASE + 8_100, 80, 512, 7);
        t.apiCall(main, ApiKind.RUNTIME, t.intern("cudaLaunchKernel"), BASE + 500, BASE + 900, 77, 211);
        t.apiCall(main, ApiKind.DRIVER, t.intern("cuLaunchKernel"), BASE + 600, BASE + 800, 77, 307);
        t.range(main, t.intern("step"), BASE + 100, BASE + 9_000, 0);
        t.range(main, t.intern("mine"), BASE + 200, BASE + 300, t.intern("my.domain"));
        t.slice(main, ThreadSliceKind.CPU_OP, t.intern("aten::mm"), BASE + 400, BASE + 450, t.intern("cpu_op"));
        t.slice(main, ThreadSliceKind.PYTHON_FUNCTION, t.intern("model.py(12): forward"), BASE + 410, BASE + 440,
                t.intern("python_function"));
        t.range(p.thread(13), t.intern("ProfilerStep#1"), BASE + 1_000, BASE + 5_000,
                t.intern(TorchTraceImport.DOMAIN_GPU_ANNOTATION));

        db = dir.resolve("a.sqlite");
        List<String> ddl = NsysSchema.all().stream().map(NsysSchema.Table::ddl).toList();
        Databases.create(db, 65536, "StringIds", ddl.toArray(String[]::new));
        Map<String, Integer> roots = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name, rootpage FROM sqlite_schema")) {
            while (rs.next()) {
                roots.put(rs.getString(1), rs.getInt(2));
            }
        }
        strings = new StringIds(t.strings());
        try (SqliteFile file = SqliteFile.open(db, 0)) {
            ActivityRows rows = new ActivityRows(file, roots, BASE, strings, new ThreadIds(t.layout()), t.strings());
            t.walk(rows);
            rows.finish();
            file.finish();
            assertEquals(9_000, rows.lastTime());
            assertEquals(2, rows.kernels());
            assertEquals(2, rows.nvtxRanges());
            assertEquals(1, rows.cpuOps());
            assertEquals(3, rows.traceEvents());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath())) {
            strings.write(c);
        }
    }

    /** The rows of {@code sql}, each column by name (NULL as null). */
    private static List<Map<String, Object>> rows(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            List<Map<String, Object>> out = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.put(rs.getMetaData().getColumnName(i), rs.getObject(i));
                }
                out.add(row);
            }
            return out;
        }
    }

    private static long n(Object o) {
        return ((Number) o).longValue();
    }

    @Test
    void theFileIsIntact() {
        Databases.assertIntact(db);
    }

    @Test
    void aKernelHasItsLaunchShapeNamesAndTheColumnsNsysAlwaysWrites() throws Exception {
        List<Map<String, Object>> k = rows("SELECT k.*, d.value AS d, s.value AS s, m.value AS m FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                + "JOIN StringIds d ON d.id = k.demangledName JOIN StringIds s ON s.id = k.shortName "
                + "JOIN StringIds m ON m.id = k.mangledName ORDER BY k.start");
        assertEquals(2, k.size());
        Map<String, Object> a = k.getFirst();
        assertEquals(1_000L, n(a.get("start")));
        assertEquals(3_000L, n(a.get("end")));
        assertEquals(1L, n(a.get("deviceId")));
        assertEquals(3L, n(a.get("contextId")));
        assertEquals(13L, n(a.get("streamId")));
        assertEquals(77L, n(a.get("correlationId")));
        assertEquals(NsysSchema.globalPid(4242), n(a.get("globalPid")));
        assertEquals("saxpy(int, float, float*, float*)", a.get("d"));
        assertEquals("saxpy", a.get("s"));
        assertEquals("_Z5saxpyifPfS_", a.get("m"));
        assertEquals(List.of(120L, 2L, 1L, 256L, 1L, 1L, 32L, 4096L, 0L, 9L),
                List.of(n(a.get("gridX")), n(a.get("gridY")), n(a.get("gridZ")), n(a.get("blockX")), n(a.get("blockY")),
                        n(a.get("blockZ")), n(a.get("registersPerThread")), n(a.get("staticSharedMemory")),
                        n(a.get("dynamicSharedMemory")), n(a.get("graphNodeId"))));
        assertEquals(1L, n(a.get("launchType")));
        assertEquals(1L, n(a.get("cacheConfig")));
        assertEquals(0L, n(a.get("sharedMemoryLimitConfig")));
        assertEquals("[]", a.get("tensorSizeMinusOneElements"));
        assertEquals(null, a.get("greenContextId"), "not recorded");
        assertEquals(null, k.get(1).get("correlationId"), "no correlation id: NULL");
        assertEquals(null, k.get(1).get("graphNodeId"), "outside a graph: NULL");
    }

    @Test
    void copiesAndSetsHaveNsysMemoryKindsAndUnknownWhereNotRecorded() throws Exception {
        List<Map<String, Object>> m = rows("SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY start");
        assertEquals(List.of(1L, 1L << 20, 1L, 2L), List.of(n(m.get(0).get("copyKind")) , n(m.get(0).get("bytes")),
                n(m.get(0).get("srcKind")), n(m.get(0).get("dstKind"))), "CUPTI's pinned (2) and device (3) as nsys's 1 and 2");
        assertEquals(List.of(8L, 7L, 7L), List.of(n(m.get(1).get("copyKind")), n(m.get(1).get("srcKind")),
                n(m.get(1).get("dstKind"))), "kinds not recorded: ENUM_CUDA_MEM_KIND's Unknown");
        List<Map<String, Object>> s = rows("SELECT * FROM CUPTI_ACTIVITY_KIND_MEMSET");
        assertEquals(List.of(7L, 512L, 80L, 7L), List.of(n(s.getFirst().get("value")), n(s.getFirst().get("bytes")),
                n(s.getFirst().get("correlationId")), n(s.getFirst().get("memKind"))));
    }

    @Test
    void apiCallsAreRuntimeOrDriverOnTheirThread() throws Exception {
        List<Map<String, Object>> r = rows("SELECT r.*, s.value AS name FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                + "JOIN StringIds s ON s.id = r.nameId ORDER BY r.start");
        assertEquals("cudaLaunchKernel", r.get(0).get("name"));
        assertEquals(0L, n(r.get(0).get("eventClass")));
        assertEquals("cuLaunchKernel", r.get(1).get("name"));
        assertEquals(1L, n(r.get(1).get("eventClass")));
        assertEquals(NsysSchema.globalPid(4242) | 4242, n(r.get(0).get("globalTid")));
        assertEquals(0L, n(r.get(0).get("returnValue")));
        assertEquals(List.of(500L, 900L), List.of(n(r.get(0).get("start")), n(r.get(0).get("end"))));
    }

    @Test
    void nvtxHoldsOnlyNvtxAndATracesOtherEventsHaveTablesOfTheirOwn() throws Exception {
        List<Map<String, Object>> n = rows("SELECT n.eventType, n.start, n.end, n.domainId, n.text, s.value AS name "
                + "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId ORDER BY n.eventType, n.start");
        assertEquals(3, n.size(), n.toString());
        assertEquals("step", n.get(0).get("name"));
        assertEquals(0L, n(n.get(0).get("domainId")));
        assertEquals("mine", n.get(1).get("name"));
        long domain = n(n.get(1).get("domainId"));
        assertEquals(75L, n(n.get(2).get("eventType")), "the domain's NvtxDomainCreate row");
        assertEquals("my.domain", n.get(2).get("text"));
        assertEquals(domain, n(n.get(2).get("domainId")));
        for (String[] t : new String[][] {{"VPROF_CPU_OPS", "aten::mm"}, {"VPROF_PYTHON_FUNCTIONS", "model.py(12): forward"},
                {"VPROF_GPU_ANNOTATIONS", "ProfilerStep#1"}}) {
            List<Map<String, Object>> r = rows("SELECT s.value AS name FROM " + t[0] + " c JOIN StringIds s ON s.id = c.nameId");
            assertEquals(List.of(Map.of("name", t[1])), r, t[0]);
        }
    }
}
