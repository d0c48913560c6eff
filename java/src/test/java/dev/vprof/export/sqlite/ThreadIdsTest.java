package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.Timeline;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** globalTids as Nsight Systems packs them, and a thread id too wide for them kept apart and whole. */
class ThreadIdsTest {
    @Test
    void aLinuxThreadIsItsProcessesGlobalPidWithItsTidBelow() throws Exception {
        // The real 2022 export: its process's main thread, as ThreadNames holds it.
        Path nsys = NsysSchemaFactsTest.NSYS_2022;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + nsys.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT p.globalPid, p.pid, t.globalTid FROM PROCESSES p JOIN ThreadNames t "
                     + "ON (t.globalTid >> 24) = (p.globalPid >> 24) WHERE p.name = './saxpy-mpi-cuda' "
                     + "AND (t.globalTid & 16777215) = p.pid")) {
            rs.next();
            int pid = rs.getInt(2);
            assertEquals(rs.getLong(1), NsysSchema.globalPid(pid));
            Timeline t = new Timeline();
            CpuThread main = t.process(pid, "saxpy", List.of()).thread(pid);
            assertEquals(rs.getLong(3), new ThreadIds(t).globalTid(main));
        }
        Timeline t = new Timeline();
        CpuThread last = t.process(4_194_000, "p", List.of()).thread(4_193_999);
        long g = new ThreadIds(t).globalTid(last);
        assertEquals(4_194_000, (g >> 24) & 0xFFFFFF);
        assertEquals(4_193_999, g & 0xFFFFFF);
        assertEquals(1, g >>> 48, "VM 1, hardware 0");
    }

    @Test
    void aThreadIdOutsideTwentyFourBitsGetsAFreeOneAndKeepsItsOwn() {
        Timeline t = new Timeline();
        var p = t.process(1102, "python", List.of());
        CpuThread main = p.thread(1102);
        CpuThread taken = p.thread(0xFF_FFFF); // a thread already on the first number counted down
        CpuThread negative = p.thread(-247463936L);
        CpuThread wide = p.thread(0x1_0000_0007L); // the same low 24 bits as thread 7
        CpuThread seven = p.thread(7);
        ThreadIds ids = new ThreadIds(t);
        Set<Long> seen = new HashSet<>();
        for (CpuThread c : List.of(main, taken, negative, wide, seven)) {
            long g = ids.globalTid(c);
            assertEquals(1102, (g >> 24) & 0xFFFFFF, "in its process");
            seen.add(g);
        }
        assertEquals(5, seen.size(), "no two threads share a globalTid");
        assertEquals(0xFF_FFFEL, ids.globalTid(negative) & 0xFFFFFF, "counted down past the one in use");
        assertNotEquals(ids.globalTid(seven), ids.globalTid(wide));
        assertEquals(7, ids.globalTid(seven) & 0xFFFFFF);
        ThreadIds.Thread row = ids.rows().stream().filter(r -> r.thread() == negative).findFirst().orElseThrow();
        assertEquals(-247463936L, row.tid(), "the source's id, whole");
        assertEquals(1102, row.pid());
    }
}
