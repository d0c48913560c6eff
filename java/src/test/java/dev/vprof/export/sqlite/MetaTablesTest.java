package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.timeline.Timeline;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The file's own facts under the names the real nsys exports use (3.25.0's META_DATA_EXPORT and
 * META_DATA_CAPTURE, 2.9.1's EXPORT_META_DATA) or vprof's, with vprof as the producer.
 */
class MetaTablesTest {
    private static Set<String> names(Connection c, String table) throws Exception {
        Set<String> names = new HashSet<>();
        Databases.query(c, "SELECT name FROM " + table).forEach(r -> names.add(r.getFirst()));
        return names;
    }

    /** A name of a real export's table, with PROCESS_N: read as any process. */
    private static String general(String name) {
        return name.replaceFirst("^PROCESS_\\d+:", "PROCESS_N:").replaceFirst(":ARGUMENT_\\d+$", ":ARGUMENT_N");
    }

    @Test
    void vprofIsTheProducerAndEveryNameIsNsyssOrVprofs() throws Exception {
        Timeline t = new Timeline();
        t.process(7, "worker", List.of("worker", "--fast"));
        long base = 1_760_000_000_123_456_789L;
        SqliteWriter.Facts facts = new SqliteWriter.Facts("in.vprof",
                new CaptureMetadata("host", base, "0.2.0", List.of("vprof", "run"), Map.of("kinds", "kernel")), null,
                List.of("a RECORDS chunk at byte 1 fails its checksum"), "0.3.0");
        Map<String, Path> real = Map.of("META_DATA_EXPORT", NsysSchemaFactsTest.NSYS_NOW,
                "META_DATA_CAPTURE", NsysSchemaFactsTest.NSYS_NOW, "EXPORT_META_DATA", NsysSchemaFactsTest.NSYS_2022);
        try (Connection c = Databases.withAllTables()) {
            MetaTables.write(c, facts, t, base, 5_000, ns -> ns - base, Instant.parse("2026-01-02T03:04:05Z"));
            for (Map.Entry<String, Path> e : real.entrySet()) {
                Set<String> nsys = new HashSet<>();
                try (Connection r = DriverManager.getConnection("jdbc:sqlite:" + e.getValue().toAbsolutePath())) {
                    names(r, e.getKey()).forEach(n -> nsys.add(general(n)));
                }
                for (String n : names(c, e.getKey())) {
                    assertTrue(n.startsWith("VPROF_") || n.contains(":VPROF_") || nsys.contains(general(n)),
                            e.getKey() + ": " + n + " is neither nsys's nor vprof's");
                }
            }
            assertEquals(List.of(List.of("vprof")), Databases.query(c, "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_NAME'"));
            assertEquals(List.of(List.of("3.25.0")), Databases.query(c, "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'"));
            assertEquals(List.of(List.of("3.25.0")), Databases.query(c, "SELECT value FROM EXPORT_META_DATA WHERE name = 'EXPORT_SCHEMA_VERSION'"));
            assertEquals(List.of(List.of("in.vprof")), Databases.query(c, "SELECT value FROM EXPORT_META_DATA WHERE name = 'EXPORT_INPUT_FILE'"));
            assertEquals(List.of(List.of("a RECORDS chunk at byte 1 fails its checksum")),
                    Databases.query(c, "SELECT value FROM META_DATA_EXPORT WHERE name = 'VPROF_SKIPPED'"));
            assertEquals(List.of(List.of("vprof"), List.of("worker"), List.of("--fast"), List.of("7")), Databases.query(c,
                    "SELECT value FROM META_DATA_CAPTURE WHERE name IN ('VPROF_CAPTURE_PRODUCT_NAME', 'PROCESS_0:COMMAND', "
                            + "'PROCESS_0:ARGUMENT_0', 'PROCESS_0:PID') ORDER BY rowid"));
            assertEquals(List.of(List.of(Long.toString(base), "2025-10-09T08:53:20", "0")),
                    Databases.query(c, "SELECT utcEpochNs, utcTime, systemClockNs FROM TARGET_INFO_SESSION_START_TIME"));
            assertEquals(List.of(List.of(Long.toString(NsysSchema.VM), "5000", "0", "5000")),
                    Databases.query(c, "SELECT * FROM ANALYSIS_DETAILS"));
            assertEquals(List.of(List.of("kernel")), Databases.query(c, "SELECT value FROM VPROF_CAPTURE_FACTS WHERE name = 'option.kinds'"));
        }
    }
}
