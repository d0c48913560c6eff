package dev.vprof.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The numbers the reader decides on, against the real nsys exports in fixtures/real: the event
 * types and classes it reads are the ones the 3.25.0 export's own enum tables name (the 2.9.1
 * export has no enum tables), and the pid it unpacks from every {@code globalPid} is the pid nsys
 * wrote beside it in {@code PROCESSES}, in both exports.
 */
class NsysIdsTest {
    private static final String NSYS_2026 = "../fixtures/real/nsys-ai/h100_2gpu_1s.sqlite";
    private static final String NSYS_2022 = "../fixtures/real/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

    private static Connection open(String file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:file:" + Path.of(file).toAbsolutePath() + "?mode=ro");
    }

    private static Map<Integer, String> names(Connection db, String table) throws SQLException {
        Map<Integer, String> m = new HashMap<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT id, name FROM " + table)) {
            while (rs.next()) {
                m.put(rs.getInt(1), rs.getString(2));
            }
        }
        return m;
    }

    @Test
    void eventTypesAndClassesAreTheOnesTheExportsEnumTablesName() throws SQLException {
        try (Connection db = open(NSYS_2026)) {
            Map<Integer, String> types = names(db, "ENUM_NSYS_EVENT_TYPE");
            assertEquals("NvtxMark", types.get(NsysIds.NVTX_MARK));
            assertEquals("NvtxPushPopRange", types.get(NsysIds.NVTX_PUSH_POP_RANGE));
            assertEquals("NvtxStartEndRange", types.get(NsysIds.NVTX_START_END_RANGE));
            assertEquals("NvtxDomainCreate", types.get(NsysIds.NVTX_DOMAIN_CREATE));
            Map<Integer, String> classes = names(db, "ENUM_NSYS_EVENT_CLASS");
            assertEquals("TRACE_PROCESS_EVENT_CUDA_RUNTIME", classes.get(NsysIds.EVENT_CLASS_RUNTIME));
            assertEquals("TRACE_PROCESS_EVENT_CUDA_DRIVER", classes.get(NsysIds.EVENT_CLASS_DRIVER));
            assertEquals("TRACE_PROCESS_EVENT_CUDABACKTRACE", classes.get(NsysIds.EVENT_CLASS_CUDA_BACKTRACE));
            // CUPTI's memory kinds are nsys's plus one; nsys's last value is its own "unknown".
            Map<Integer, String> kinds = names(db, "ENUM_CUDA_MEM_KIND");
            assertEquals("CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", kinds.get(7));
            assertEquals("CUDA_MEMOPR_MEMORY_KIND_PINNED", kinds.get(1)); // CUPTI_ACTIVITY_MEMORY_KIND_PINNED is 2
            assertEquals("CUDA_MEMOPR_MEMORY_KIND_DEVICE", kinds.get(2)); // CUPTI_ACTIVITY_MEMORY_KIND_DEVICE is 3
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {NSYS_2026, NSYS_2022})
    void thePidOfEveryGlobalPidIsThePidNsysWroteBesideIt(String file) throws SQLException {
        int checked = 0;
        try (Connection db = open(file); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT globalPid, pid FROM PROCESSES")) {
            while (rs.next()) {
                assertEquals(rs.getInt(2), NsysIds.pid(NsysIds.processKey(rs.getLong(1))), "globalPid " + rs.getLong(1));
                checked++;
            }
        }
        assertTrue(checked > 0, file);
    }

    @ParameterizedTest
    @ValueSource(strings = {NSYS_2026, NSYS_2022})
    void everyCudaCallsThreadIsAThreadOfAProcessNsysLists(String file) throws SQLException {
        try (Connection db = open(file); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT r.globalTid, p.globalPid FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
                     + "LEFT JOIN PROCESSES AS p ON p.globalPid = (r.globalTid >> 24) << 24")) {
            int threads = 0;
            while (rs.next()) {
                long tid = rs.getLong(1);
                assertEquals(rs.getLong(2), NsysIds.processKey(tid) << 24, "globalTid " + tid);
                assertTrue(NsysIds.tid(tid) > 0, "globalTid " + tid);
                threads++;
            }
            assertTrue(threads > 0, file);
        }
    }

    /**
     * Every CUDA runtime and driver call the real exports hold (the names nsys wrote, read by SQL)
     * has a CUPTI callback id, so no view shows one as {@code cbid N} or as a call of id 0.
     */
    @ParameterizedTest
    @ValueSource(strings = {NSYS_2026, NSYS_2022})
    void everyCudaCallTheExportsNameHasItsCallbackId(String file) throws SQLException {
        int calls = 0;
        try (Connection db = open(file); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT r.eventClass, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                     + "JOIN StringIds s ON s.id = r.nameId WHERE r.eventClass IN (" + NsysIds.EVENT_CLASS_RUNTIME
                     + ", " + NsysIds.EVENT_CLASS_DRIVER + ")")) {
            while (rs.next()) {
                String name = rs.getString(2);
                assertTrue(NsysIds.cbid(NsysIds.apiDomain(rs.getInt(1)), name) > 0, file + ": " + name);
                calls++;
            }
        }
        assertTrue(calls > 5, file + " names " + calls + " distinct calls");
    }
}
