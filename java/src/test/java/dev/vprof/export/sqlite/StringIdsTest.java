package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.timeline.StringTable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Every string once, numbered in the order first used; a kernel's three names. */
class StringIdsTest {
    @Test
    void eachStringHasOneIdAndAKernelNameItsDemangledAndShortForms() throws Exception {
        StringTable names = new StringTable();
        int mangled = names.intern("_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_fii");
        int other = names.intern("cudaLaunchKernel");
        StringIds ids = new StringIds(names);
        assertEquals(0, ids.of("first"));
        assertEquals(0, ids.of("first"));
        assertEquals(1, ids.ofTimeline(other));
        assertEquals(1, ids.of("cudaLaunchKernel"), "the same string, whichever way it came");
        int d = ids.demangled(mangled);
        assertEquals("void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int, int)",
                ids.get(d));
        assertEquals("rms_norm_kernel", ids.get(ids.shortName(mangled)));
        assertEquals(names.get(mangled), ids.get(ids.ofTimeline(mangled)));
        assertEquals(ids.of(null), ids.of(""), "null is the empty string");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:"); Statement st = c.createStatement()) {
            st.execute(NsysSchema.table("StringIds").ddl());
            ids.write(c);
            try (ResultSet rs = st.executeQuery("SELECT count(*), max(id) FROM StringIds")) {
                assertEquals(ids.size(), rs.getInt(1));
                assertEquals(ids.size() - 1, rs.getInt(2));
            }
            try (ResultSet rs = st.executeQuery("SELECT value FROM StringIds WHERE id = " + d)) {
                assertEquals(ids.get(d), rs.getString(1));
            }
        }
    }
}
