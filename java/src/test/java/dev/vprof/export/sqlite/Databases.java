package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/** Test helpers: an empty database made by SQLite, a database's columns, and Debian's sqlite3 checking one. */
public final class Databases {
    private Databases() {}

    /** A new database of {@code pageSize}-byte pages with {@code ddl}'s tables, closed; returns {@code table}'s root page. */
    static int create(Path db, int pageSize, String table, String... ddl) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA page_size=" + pageSize);
            for (String d : ddl) {
                st.execute(d);
            }
            try (ResultSet rs = st.executeQuery("SELECT rootpage FROM sqlite_schema WHERE name = '" + table + "'")) {
                return rs.getInt(1);
            }
        }
    }

    /** An in-memory database with every table of the export. */
    static Connection withAllTables() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        try (Statement st = c.createStatement()) {
            for (NsysSchema.Table t : NsysSchema.all()) {
                st.execute(t.ddl());
            }
        }
        return c;
    }

    /** The rows of {@code sql} on {@code c}, each a list of its columns' values as text (NULL as null). */
    static List<List<String>> query(Connection c, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** Debian's sqlite3 (not the driver vprof writes with) on {@code db}: its whole output. */
    static String sqlite3(Path db, String sql) {
        ProcessBuilder pb = new ProcessBuilder("sqlite3", "-readonly", db.toString(), sql).redirectErrorStream(true);
        try {
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("sqlite3 did not finish: " + sql);
            }
            return new String(out, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return fail("cannot run Debian's sqlite3 (apt-get install sqlite3): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted");
        }
    }

    /** SQLite's own check of every page, cell and record: "ok" or what is wrong. */
    static void assertIntact(Path db) {
        assertEquals("ok", sqlite3(db, "PRAGMA integrity_check"), db + " fails SQLite's integrity check");
    }

    /** Each table's columns as "name type notnull pk", in order. */
    public static Map<String, List<String>> columns(Connection c) throws SQLException {
        Map<String, List<String>> tables = new TreeMap<>();
        try (Statement st = c.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String t : names) {
                List<String> cols = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + t + "\")")) {
                    while (rs.next()) {
                        cols.add(rs.getString("name") + " " + rs.getString("type") + " " + rs.getInt("notnull") + " "
                                + rs.getInt("pk"));
                    }
                }
                tables.put(t, cols);
            }
        }
        return tables;
    }

    public static Map<String, List<String>> columns(Path db) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath())) {
            return columns(c);
        }
    }
}
