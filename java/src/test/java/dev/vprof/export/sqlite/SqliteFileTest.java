package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The database header as SQLite reads it: page size, page count, change counter; what is refused. */
class SqliteFileTest {
    @TempDir
    Path dir;

    @Test
    void thePageCountAndChangeCounterAreWhatSqliteReads() throws Exception {
        Path db = dir.resolve("h.sqlite");
        Databases.create(db, 65536, "T", "CREATE TABLE T (a INTEGER)");
        String before = Databases.sqlite3(db, "PRAGMA page_count");
        try (SqliteFile file = SqliteFile.open(db, 0)) {
            assertEquals(65536, file.pageSize());
            assertTrue(file.format4());
            assertEquals(Integer.parseInt(before), file.pages());
            int page = file.allocate();
            assertEquals(file.pages(), page);
            // An empty leaf: type 13, no cells, content at the end of the page (0 stands for 65536).
            byte[] leaf = new byte[65536];
            leaf[0] = 13;
            file.write(page, leaf);
            file.finish();
        }
        assertEquals(String.valueOf(Integer.parseInt(before) + 1), Databases.sqlite3(db, "PRAGMA page_count"));
        byte[] h = Files.readAllBytes(db);
        assertEquals(readInt(h, 24), readInt(h, 92), "the page count is valid for this change counter");
        assertEquals(Integer.parseInt(before) + 1, readInt(h, 28));
    }

    @Test
    void aCapOnPagesFailsAsAFullDisk() throws Exception {
        Path db = dir.resolve("cap.sqlite");
        Databases.create(db, 4096, "T", "CREATE TABLE T (a INTEGER)");
        try (SqliteFile file = SqliteFile.open(db, 3)) {
            assertEquals(2, file.pages());
            file.allocate();
            SqliteFile.Full e = assertThrows(SqliteFile.Full.class, file::allocate);
            assertTrue(e.getMessage().contains("full"), e.getMessage());
        }
    }

    @Test
    void aFileThatIsNotSqliteIsRefused() throws Exception {
        Path notDb = Files.writeString(dir.resolve("x.sqlite"), "x".repeat(200));
        IOException e = assertThrows(IOException.class, () -> SqliteFile.open(notDb, 0));
        assertTrue(e.getMessage().contains("is not an SQLite database"), e.getMessage());
        Path shortFile = Files.writeString(dir.resolve("y.sqlite"), "SQLite");
        assertThrows(IOException.class, () -> SqliteFile.open(shortFile, 0));
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }
}
