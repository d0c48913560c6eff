package dev.vprof.nsys;

import dev.vprof.capture.CaptureFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sqlite.SQLiteConfig;

/**
 * One Nsight Systems SQLite export opened for reading: read-only, and {@code immutable} (SQLite
 * takes no lock and writes no journal, WAL or shared-memory file beside it) unless a {@code -wal}
 * file says another program may still be writing it. Before SQLite sees the file its header is
 * checked, so an empty, foreign or cut-short file gets a sentence of its own; then the tables
 * that make it an nsys export. Every SQLite error becomes one sentence naming the file.
 */
final class NsysDatabase implements AutoCloseable {
    /** The 16 bytes every SQLite 3 database starts with. */
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_SIZE = 100;
    /** Tables only nsys writes; a database with none of them is another program's. */
    private static final List<String> NSYS_TABLES = List.of("META_DATA_EXPORT", "EXPORT_META_DATA",
            "TARGET_INFO_SESSION_START_TIME", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
            "NVTX_EVENTS", "ThreadNames");

    final Path file;
    private final Connection db;
    private final Set<String> tables;
    private final Map<String, Set<String>> columns = new HashMap<>();
    private final Map<String, String> meta = new HashMap<>();

    private NsysDatabase(Path file, Connection db, Set<String> tables) {
        this.file = file;
        this.db = db;
        this.tables = tables;
    }

    /** Whether {@code file} starts as an SQLite database does. */
    static boolean startsAsSqlite(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(MAGIC.length), MAGIC);
        }
    }

    /** Opens {@code file}, checked to be an nsys export that has its {@code StringIds}. */
    static NsysDatabase open(Path file) throws IOException {
        checkHeader(file);
        Connection db;
        try {
            SQLiteConfig config = new SQLiteConfig();
            config.setReadOnly(true);
            boolean beingWritten = Files.exists(file.resolveSibling(file.getFileName() + "-wal"));
            db = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath().toUri()
                    + (beingWritten ? "?mode=ro" : "?mode=ro&immutable=1"));
        } catch (SQLException e) {
            throw new CaptureFormatException(file + " cannot be opened by SQLite (" + detail(e)
                    + "); check that it is a whole Nsight Systems export");
        }
        try {
            Set<String> tables = new LinkedHashSet<>();
            try (Statement st = db.createStatement();
                 ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            NsysDatabase d = new NsysDatabase(file, db, tables);
            d.checkTables();
            return d;
        } catch (SQLException e) {
            closeQuietly(db);
            throw damaged(file, e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(db);
            throw e;
        }
    }

    /** An empty, foreign or cut-short file, told apart by its first 100 bytes and its size. */
    private static void checkHeader(Path file) throws IOException {
        long size = Files.size(file);
        if (size == 0) {
            throw new CaptureFormatException(file + " is empty: it is not an Nsight Systems export "
                    + "(nsys export --type sqlite REPORT.nsys-rep writes one)");
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(HEADER_SIZE);
        }
        if (head.length < MAGIC.length || !Arrays.equals(head, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new CaptureFormatException(file + " is not an SQLite database (it does not start with SQLite's "
                    + "header), so it is not an Nsight Systems export; nsys export --type sqlite REPORT.nsys-rep "
                    + "writes one");
        }
        if (head.length < HEADER_SIZE) {
            throw new CaptureFormatException(file + " is cut short: " + size + " bytes, less than SQLite's "
                    + HEADER_SIZE + "-byte header; copy the export again");
        }
        ByteBuffer h = ByteBuffer.wrap(head); // SQLite's header is big-endian
        int pageSize = Short.toUnsignedInt(h.getShort(16));
        pageSize = pageSize == 1 ? 65536 : pageSize;
        long pages = Integer.toUnsignedLong(h.getInt(28));
        // The page count is valid when the change counter and "version-valid-for" agree (sqlite.org/fileformat2.html).
        if (h.getInt(24) == h.getInt(92) && pages > 0 && pageSize >= 512 && pages * pageSize > size) {
            throw new CaptureFormatException(file + " is cut short: its SQLite header says " + pages * pageSize
                    + " bytes (" + pages + " pages), the file has " + size + "; copy the export again");
        }
    }

    private void checkTables() throws IOException, SQLException {
        if (NSYS_TABLES.stream().noneMatch(tables::contains)) {
            throw new CaptureFormatException(file + " is an SQLite database but not an Nsight Systems export: it has "
                    + "none of the tables nsys writes (" + String.join(", ", NSYS_TABLES) + ")");
        }
        for (String t : List.of("META_DATA_EXPORT", "EXPORT_META_DATA")) {
            if (tables.contains(t) && columns(t).containsAll(List.of("name", "value"))) {
                try (Statement st = db.createStatement();
                     ResultSet rs = st.executeQuery("SELECT name, value FROM " + t + " LIMIT 10000")) {
                    while (rs.next()) {
                        if (rs.getString(1) != null && rs.getString(2) != null) {
                            meta.putIfAbsent(rs.getString(1), rs.getString(2));
                        }
                    }
                }
            }
        }
        if (!tables.contains("StringIds") || !columns("StringIds").containsAll(List.of("id", "value"))) {
            throw new CaptureFormatException(file + " is an Nsight Systems export (" + schemaWords() + ") without "
                    + "its StringIds table, which holds every name its other tables refer to; export the report "
                    + "again with nsys export --type sqlite");
        }
    }

    /** The export schema version nsys wrote ({@code 3.25.0}), or null where the export does not say. */
    String schemaVersion() {
        return meta.get("EXPORT_SCHEMA_VERSION");
    }

    /** "schema 3.25.0", or "schema unknown". */
    String schemaWords() {
        return "schema " + (schemaVersion() == null ? "unknown" : schemaVersion());
    }

    /** What wrote the export ({@code NVIDIA Nsight Systems 2026.2.1.210}), or null. */
    String product() {
        String name = meta.get("EXPORT_PRODUCT_NAME");
        String version = meta.get("EXPORT_PRODUCT_VERSION");
        return name == null ? null : version == null ? name : name + " " + version;
    }

    /** A value of {@code META_DATA_EXPORT} (or the 2.x {@code EXPORT_META_DATA}), or null. */
    String meta(String name) {
        return meta.get(name);
    }

    boolean has(String table) {
        return tables.contains(table);
    }

    /** The columns of {@code table} (none for a table the export lacks). */
    Set<String> columns(String table) throws SQLException {
        Set<String> c = columns.get(table);
        if (c == null) {
            c = new LinkedHashSet<>();
            if (tables.contains(table)) {
                try (Statement st = db.createStatement();
                     ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
                    while (rs.next()) {
                        c.add(rs.getString("name"));
                    }
                }
            }
            columns.put(table, c);
        }
        return c;
    }

    /** {@code column} of {@code table} qualified by {@code alias}, or {@code NULL} where the table lacks it. */
    String column(String table, String alias, String column) throws SQLException {
        return columns(table).contains(column) ? alias + "." + column : "NULL";
    }

    Statement statement() throws SQLException {
        return db.createStatement();
    }

    PreparedStatement prepare(String sql) throws SQLException {
        return db.prepareStatement(sql);
    }

    /** An SQLite error while reading {@code file}, as one sentence. */
    static CaptureFormatException damaged(Path file, SQLException e) {
        return new CaptureFormatException(file + " cannot be read by SQLite (" + detail(e)
                + "); it may be damaged or cut short: copy the export again");
    }

    CaptureFormatException damaged(SQLException e) {
        return damaged(file, e);
    }

    /** SQLite's own words, without sqlite-jdbc's code prefix, on one line. */
    private static String detail(SQLException e) {
        String m = e.getMessage() == null ? "no detail" : e.getMessage();
        int paren = m.indexOf(" (");
        if (m.startsWith("[SQLITE_") && paren > 0 && m.endsWith(")")) {
            m = m.substring(paren + 2, m.length() - 1);
        }
        m = m.replace('\n', ' ');
        return m.length() > 200 ? m.substring(0, 200) + "..." : m;
    }

    private static void closeQuietly(Connection db) {
        try {
            db.close();
        } catch (SQLException ignored) {
            // the error that made us close is the one reported
        }
    }

    @Override
    public void close() {
        closeQuietly(db);
    }
}
