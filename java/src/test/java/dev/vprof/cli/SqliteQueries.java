package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Queries run with Debian's {@code sqlite3} (the tool, not the JDBC driver vprof writes with), and
 * the SQL Nsight Systems users run on {@code nsys export --type sqlite} files, written as they
 * write it.
 */
final class SqliteQueries {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SqliteQueries() {}

    /** Kernel time by name, as nsys's cuda_gpu_kern_sum: count, total, average, median (nearest rank). */
    static final String KERNEL_SUMMARY = """
            WITH k AS (
                SELECT s.value AS name, k.end - k.start AS dur
                FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName),
            r AS (
                SELECT name, dur, row_number() OVER (PARTITION BY name ORDER BY dur) AS rn,
                       count(*) OVER (PARTITION BY name) AS n
                FROM k)
            SELECT name, count(*) AS count, sum(dur) AS total, avg(dur) AS average,
                   max(CASE WHEN rn = (n + 1) / 2 THEN dur END) AS median
            FROM r GROUP BY name ORDER BY total DESC, name""";

    /** Each kernel with the runtime call that launched it: correlationId within a process, both names. */
    static final String KERNEL_LAUNCHES = """
            SELECT k.correlationId AS correlationId, kn.value AS kernel, ks.value AS shortName, rn.value AS api,
                   r.start AS apiStart, k.start AS kernelStart
            FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
            JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r
              ON r.correlationId = k.correlationId
             AND ((r.globalTid >> 24) & 0xFFFFFF) = ((k.globalPid >> 24) & 0xFFFFFF)
            JOIN StringIds AS kn ON kn.id = k.demangledName
            JOIN StringIds AS ks ON ks.id = k.shortName
            JOIN StringIds AS rn ON rn.id = r.nameId
            WHERE r.eventClass = 0""";

    /** Kernels with no runtime call of their process under their correlationId. */
    static final String KERNELS_WITHOUT_LAUNCH = """
            SELECT count(*) AS n FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
            WHERE NOT EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
                              WHERE r.correlationId = k.correlationId
                                AND ((r.globalTid >> 24) & 0xFFFFFF) = ((k.globalPid >> 24) & 0xFFFFFF))""";

    /** NVTX push/pop ranges by thread name and range name. */
    static final String NVTX_BY_THREAD = """
            SELECT tname.value AS thread, s.value AS range, count(*) AS count, sum(n.end - n.start) AS total,
                   (n.globalTid >> 24) & 0xFFFFFF AS pid, n.globalTid & 0xFFFFFF AS tid
            FROM NVTX_EVENTS AS n
            JOIN StringIds AS s ON s.id = n.textId
            LEFT JOIN ThreadNames AS t ON t.globalTid = n.globalTid
            LEFT JOIN StringIds AS tname ON tname.id = t.nameId
            WHERE n.eventType = 59
            GROUP BY thread, range, pid, tid ORDER BY range""";

    /** Bytes copied by kind. */
    static final String MEMCPY_BY_KIND = """
            SELECT copyKind, count(*) AS count, sum(bytes) AS bytes
            FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind ORDER BY copyKind""";

    /** {@code query}'s rows as JSON objects, from {@code sqlite3 -json}. */
    static List<JsonNode> rows(Path db, String query) {
        ProcessBuilder pb = new ProcessBuilder("sqlite3", "-readonly", "-json", db.toString(), query);
        pb.redirectErrorStream(true);
        try {
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("sqlite3 did not finish: " + query);
            }
            String text = new String(out, StandardCharsets.UTF_8).trim();
            assertEquals(0, p.exitValue(), "sqlite3 failed on " + query + ": " + text);
            List<JsonNode> rows = new ArrayList<>();
            if (!text.isEmpty()) {
                JSON.readTree(text).forEach(rows::add);
            }
            return rows;
        } catch (IOException e) {
            return fail("cannot run Debian's sqlite3 (apt-get install sqlite3; .ci/run installs it): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted");
        }
    }

    /** The one value of a one-row, one-column query. */
    static long value(Path db, String query) {
        List<JsonNode> r = rows(db, query);
        assertEquals(1, r.size(), query);
        return r.getFirst().elements().next().asLong();
    }

    /** SQLite's own check of every page, cell and record of {@code db}, by Debian's sqlite3. */
    static void assertIntact(Path db) {
        List<JsonNode> r = rows(db, "PRAGMA integrity_check");
        assertEquals("[{\"integrity_check\":\"ok\"}]", r.toString(), db + " fails SQLite's integrity check");
    }
}
