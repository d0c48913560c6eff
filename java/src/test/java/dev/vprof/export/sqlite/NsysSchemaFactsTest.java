package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The fact files the export's schema is made from ({@code nsys-tables.sql}, {@code nsys-enums.tsv})
 * are what the two real Nsight Systems exports in fixtures/real hold: the 2026.2.1 one (export schema
 * 3.25.0) and, for the tables it lacks, the 2022.2 one (2.9.1).
 */
class NsysSchemaFactsTest {
    static final Path NSYS_NOW = Path.of("../fixtures/real/nsys-ai/h100_2gpu_1s.sqlite");
    static final Path NSYS_2022 = Path.of("../fixtures/real/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");

    /** The fact file's tables, made by SQLite in memory. */
    private static Map<String, List<String>> ours() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:"); Statement st = c.createStatement()) {
            for (NsysSchema.Table t : NsysSchema.NSYS) {
                st.execute(t.ddl());
            }
            return Databases.columns(c);
        }
    }

    @Test
    void everyTableOfTodaysExportIsInTheFactFileAsItIsThere() throws SQLException {
        Map<String, List<String>> ours = ours();
        Map<String, List<String>> now = Databases.columns(NSYS_NOW);
        assertEquals(47, now.size(), "the 2026.2.1 export's tables");
        now.forEach((table, cols) -> assertEquals(cols, ours.get(table), table + ": columns, types, NOT NULL, key"));
    }

    @Test
    void theOtherTablesAreThe2022ExportsAsTheyAreThere() throws SQLException {
        Map<String, List<String>> ours = ours();
        Map<String, List<String>> now = Databases.columns(NSYS_NOW);
        Map<String, List<String>> old = Databases.columns(NSYS_2022);
        TreeSet<String> others = new TreeSet<>(ours.keySet());
        others.removeAll(now.keySet());
        assertEquals(new TreeSet<>(List.of("CUDA_CALLCHAINS", "CUDA_GRAPH_EVENTS", "EXPORT_META_DATA", "OSRT_API",
                "OSRT_CALLCHAINS", "TARGET_INFO_GPU")), others);
        others.forEach(t -> assertEquals(old.get(t), ours.get(t), t));
    }

    @Test
    void theEnumFileIsEveryRowOfEveryEnumTableOfTodaysExport() throws SQLException {
        List<String> real = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + NSYS_NOW.toAbsolutePath());
             Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' "
                    + "AND name LIKE 'ENUM!_%' ESCAPE '!' ORDER BY name")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertEquals(24, tables.size(), "the enum tables nsys 2026.2.1 writes");
            for (String t : tables) {
                try (ResultSet rs = st.executeQuery("SELECT id, name, label FROM " + t + " ORDER BY id")) {
                    while (rs.next()) {
                        real.add(t + "|" + rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
                    }
                }
            }
        }
        List<String> facts = NsysEnums.VALUES.stream().map(v -> v.table() + "|" + v.id() + "|" + v.name() + "|" + v.label())
                .toList();
        assertEquals(real, facts);
        assertTrue(facts.contains("ENUM_CUDA_KERNEL_LAUNCH_TYPE|1|CUDA_KERNEL_LAUNCH_TYPE_REGULAR|Regular"));
    }

    @Test
    void theConstantsTheExportWritesAreValuesOfTheirEnums() {
        assertTrue(has("ENUM_CUDA_KERNEL_LAUNCH_TYPE", NsysSchema.LAUNCH_TYPE_REGULAR, "CUDA_KERNEL_LAUNCH_TYPE_REGULAR"));
        assertTrue(has("ENUM_CUDA_FUNC_CACHE_CONFIG", NsysSchema.CACHE_CONFIG_AS_NSYS_WRITES, "CU_FUNC_CACHE_PREFER_SHARED"));
        assertTrue(has("ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", NsysSchema.SHARED_MEM_LIMIT_DEFAULT, "CUDA_SHARED_MEM_LIMIT_DEFAULT"));
        assertTrue(has("ENUM_CUDA_MEM_KIND", NsysSchema.MEMORY_KIND_UNKNOWN, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN"));
        assertTrue(has("ENUM_CUDA_MEM_KIND", NsysSchema.memoryKind(3), "CUDA_MEMOPR_MEMORY_KIND_DEVICE"), "CUPTI's device");
        assertTrue(has("ENUM_CUDA_MEM_KIND", NsysSchema.memoryKind(1), "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE"));
        assertTrue(has("ENUM_CUDA_MEM_KIND", NsysSchema.memoryKind(0), "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN"));
        assertTrue(has("ENUM_CUPTI_STREAM_TYPE", NsysSchema.STREAM_TYPE_UNKNOWN, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN"));
        assertTrue(has("ENUM_NSYS_EVENT_TYPE", NsysSchema.NVTX_PUSH_POP_RANGE, "NvtxPushPopRange"));
        assertTrue(has("ENUM_NSYS_EVENT_TYPE", NsysSchema.NVTX_DOMAIN_CREATE, "NvtxDomainCreate"));
        assertTrue(has("ENUM_NSYS_EVENT_CLASS", NsysSchema.EVENT_CLASS_RUNTIME, "TRACE_PROCESS_EVENT_CUDA_RUNTIME"));
        assertTrue(has("ENUM_NSYS_EVENT_CLASS", NsysSchema.EVENT_CLASS_DRIVER, "TRACE_PROCESS_EVENT_CUDA_DRIVER"));
    }

    private static boolean has(String table, int id, String name) {
        return NsysEnums.VALUES.contains(NsysEnums.VALUES.stream()
                .filter(v -> v.table().equals(table) && v.id() == id && v.name().equals(name)).findFirst().orElse(null));
    }

    @Test
    void theFactFileParsesIntoTablesWithTheirColumnsInOrder() {
        NsysSchema.Table k = NsysSchema.table("CUPTI_ACTIVITY_KIND_KERNEL");
        assertEquals(40, k.columns().size());
        assertEquals(0, k.column("start"));
        assertEquals("tensorSizeMinusOneElements", k.columns().getLast());
        assertEquals(List.of("id", "symbol", "module", "unresolved", "originalIP", "stackDepth"),
                NsysSchema.table("CUDA_CALLCHAINS").columns(), "a composite key is not a column");
        assertTrue(NsysSchema.VPROF.stream().allMatch(t -> t.name().startsWith("VPROF_")));
    }
}
