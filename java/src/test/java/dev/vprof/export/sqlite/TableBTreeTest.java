package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rows written as B-tree pages ({@link TableBTree}, {@link Row}, {@link SqliteFile}) are what SQLite
 * reads back, row for row, and pass SQLite's own integrity check, from an empty table to trees four
 * levels deep (small pages make deep trees of few rows); and SQLite can go on writing the file.
 */
class TableBTreeTest {
    private static final String DDL = "CREATE TABLE T (a INTEGER NOT NULL, b INTEGER, c TEXT, d INTEGER)";

    @TempDir
    Path dir;

    /** What a row holds: a, b (null allowed), c (text, null allowed), d. */
    private record Values(long a, Long b, String c, long d) {}

    private static List<Values> rows(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Values> rows = new ArrayList<>();
        long[] edges = {0, 1, -1, 127, 128, -129, 32767, -32769, 8388607, 8388608, Integer.MAX_VALUE,
                Integer.MIN_VALUE, (1L << 47) - 1, 1L << 47, Long.MAX_VALUE, Long.MIN_VALUE};
        for (int i = 0; i < n; i++) {
            long a = i < edges.length ? edges[i] : r.nextLong() >> r.nextInt(64);
            Long b = r.nextInt(4) == 0 ? null : (long) r.nextInt(3);
            String c = r.nextInt(3) == 0 ? null : "s" + "é".repeat(r.nextInt(8)) + i;
            rows.add(new Values(a, b, c, i));
        }
        return rows;
    }

    private Path write(int pageSize, List<Values> rows, boolean format4) throws Exception {
        Path db = dir.resolve("t" + pageSize + "-" + rows.size() + "-" + format4 + ".sqlite");
        int root = Databases.create(db, pageSize, "T", DDL, "CREATE TABLE Other (x INTEGER)");
        try (SqliteFile file = SqliteFile.open(db, 0)) {
            TableBTree tree = new TableBTree(file, root);
            Row row = new Row(4, format4);
            for (Values v : rows) {
                row.set(0, v.a()).set(1, v.b() == null ? 0 : v.b(), v.b() == null).set(2, v.c()).set(3, v.d());
                tree.add(row);
            }
            tree.finish();
            assertEquals(rows.size(), tree.rows());
            file.finish();
        }
        return db;
    }

    private static List<Values> read(Path db) throws SQLException {
        List<Values> got = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rowid, a, b, c, d FROM T ORDER BY rowid")) {
            long expect = 1;
            while (rs.next()) {
                assertEquals(expect++, rs.getLong(1), "rowids 1, 2, 3 ... in the order written");
                long b = rs.getLong(3);
                Long bv = rs.wasNull() ? null : b;
                got.add(new Values(rs.getLong(2), bv, rs.getString(4), rs.getLong(5)));
            }
        }
        return got;
    }

    @ParameterizedTest
    @CsvSource({"65536, 0", "65536, 1", "65536, 500", "512, 19", "512, 700", "512, 5000", "512, 60000", "65536, 200000"})
    void sqliteReadsBackEveryRowAndFindsTheFileIntact(int pageSize, int n) throws Exception {
        List<Values> rows = rows(n, n * 31L + pageSize);
        Path db = write(pageSize, rows, true);
        Databases.assertIntact(db);
        List<Values> got = read(db);
        assertEquals(rows.size(), got.size());
        for (int i = 0; i < rows.size(); i++) {
            assertTrue(Objects.equals(rows.get(i), got.get(i)), "row " + (i + 1) + ": " + got.get(i) + ", want " + rows.get(i));
        }
        assertEquals(String.valueOf(n), Databases.sqlite3(db, "SELECT count(*) FROM T"));
    }

    @Test
    void theTreeGrowsLevelsAsItShould() throws Exception {
        // 512-byte pages: a leaf holds some 15 of these rows, an interior page 34 children at least.
        Path db = write(512, rows(60000, 7), true);
        String depth = Databases.sqlite3(db, "SELECT max(depth) FROM (SELECT length(path) - length(replace(path, '/', '')) "
                + "AS depth FROM dbstat WHERE name = 'T')");
        assertTrue(Integer.parseInt(depth) >= 4, "a tree of four levels at least (the root is at depth 1): " + depth);
        Databases.assertIntact(db);
    }

    @Test
    void integersWithoutSerialTypes8And9AreReadTheSame() throws Exception {
        List<Values> rows = rows(300, 3);
        Path db = write(4096, rows, false);
        Databases.assertIntact(db);
        assertEquals(rows, read(db));
    }

    @Test
    void sqliteWritesOnAfterThePagesAndAnotherTableStaysWhole() throws Exception {
        List<Values> rows = rows(3000, 5);
        Path db = write(1024, rows, true);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("INSERT INTO Other (x) SELECT d FROM T");
            st.execute("CREATE TABLE Later AS SELECT * FROM T WHERE d % 2 = 0");
        }
        Databases.assertIntact(db);
        assertEquals("3000", Databases.sqlite3(db, "SELECT count(*) FROM Other"));
        assertEquals("1500", Databases.sqlite3(db, "SELECT count(*) FROM Later"));
        assertEquals(rows, read(db));
    }

    @Test
    void aRowLargerThanAPageIsRefused() throws Exception {
        Path db = dir.resolve("big.sqlite");
        int root = Databases.create(db, 512, "T", DDL);
        try (SqliteFile file = SqliteFile.open(db, 0)) {
            TableBTree tree = new TableBTree(file, root);
            Row row = new Row(4, true).set(0, 1).set(2, "x".repeat(600)).set(3, 2);
            assertThrows(IllegalArgumentException.class, () -> tree.add(row));
        }
    }
}
