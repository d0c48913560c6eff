package dev.vprof.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.capture.CaptureReader;
import dev.vprof.export.ExportFormat;
import dev.vprof.export.TraceExports;
import dev.vprof.names.KernelNames;
import dev.vprof.output.TempFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.sqlite.SQLiteConfig;

/**
 * The {@code sql} tool: one read-only SELECT (or WITH) over the input's SQLite export, the one
 * {@code vprof export -o OUT.sqlite} writes (Nsight Systems' tables; docs/sqlite.md). The export is
 * written once per input into a temporary folder, kept for the next query on the same file (unchanged
 * since), and removed when another input is queried or the server stops. The database is opened
 * read-only and {@code query_only}; a query that is not one SELECT or WITH statement is refused before
 * SQLite sees it, and one that runs past {@link #TIMEOUT_S} seconds is stopped.
 */
final class SqlExport implements AutoCloseable {
    /** Seconds a query may run. */
    static final int TIMEOUT_S = 30;
    /** Rows past the answer counted, to say how many the query returns. */
    static final long COUNT_UP_TO = 1_000_000;
    /** Characters of a text cell shown. */
    static final int CELL_CHARS = 1024;

    private Path input;
    private long size = -1;
    private long modified = -1;
    private TempFolder folder;
    private Path database;

    /** Runs {@code query} over {@code path}'s export; {@code open} opens the input as every tool does. */
    synchronized ObjectNode query(Path path, String query, int rows, Tools.Opener open) throws IOException {
        String sql = checked(query);
        Path db = export(path, open);
        ObjectNode answer = Bounded.object();
        answer.put("database", "the SQLite export of " + path + " (Nsight Systems' tables; docs/sqlite.md)");
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection c = config.createConnection("jdbc:sqlite:" + db.toUri() + "?mode=ro");
             Statement st = c.createStatement()) {
            st.execute("PRAGMA query_only = 1");
            st.setQueryTimeout(TIMEOUT_S);
            try (ResultSet rs = st.executeQuery(sql)) {
                ResultSetMetaData meta = rs.getMetaData();
                ArrayNode columns = answer.putArray("columns");
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    columns.add(meta.getColumnLabel(i));
                }
                ArrayNode out = answer.putArray("rows");
                long all = 0;
                while (rs.next()) {
                    if (all < rows) {
                        ArrayNode row = out.addArray();
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            cell(row, rs.getObject(i));
                        }
                    } else if (all >= rows + COUNT_UP_TO) {
                        break;
                    }
                    all++;
                }
                answer.put("rows_total", all);
                if (all >= rows + COUNT_UP_TO) {
                    answer.put("rows_total_is_a_floor", true); // counting stopped there
                }
            }
        } catch (SQLException e) {
            String why = e.getMessage() == null ? "" : e.getMessage().replaceAll("\\s+", " ");
            throw new ToolFailure("SQLite refused the query: " + Text.clip(why)
                    + "; the tables are in docs/sqlite.md (SELECT name FROM sqlite_master lists them)");
        }
        return answer;
    }

    /** {@code query} without its one trailing semicolon, or a failure saying why it is not read. */
    static String checked(String query) {
        String q = query.strip();
        if (q.endsWith(";")) {
            q = q.substring(0, q.length() - 1).strip();
        }
        if (q.isEmpty()) {
            throw new ToolFailure("query is empty; give one SELECT statement");
        }
        if (q.contains(";")) {
            throw new ToolFailure("query holds more than one statement (a ';' inside it); give one SELECT or WITH "
                    + "statement, without ';' in its text");
        }
        String first = q.split("[^A-Za-z]", 2)[0].toUpperCase(Locale.ROOT);
        if (!first.equals("SELECT") && !first.equals("WITH")) {
            throw new ToolFailure("only a SELECT or WITH statement is run (the database is read-only), not "
                    + Text.clip(first.isEmpty() ? q : first));
        }
        return q;
    }

    private static void cell(ArrayNode row, Object v) {
        switch (v) {
            case null -> row.addNull();
            case Long l -> row.add(l);
            case Integer i -> row.add(i);
            case Double d -> row.add(d);
            case byte[] b -> row.add("(" + b.length + " bytes)");
            default -> {
                String s = v.toString();
                row.add(s.length() <= CELL_CHARS ? s : s.substring(0, CELL_CHARS) + "... (" + s.length() + " characters)");
            }
        }
    }

    private Path export(Path path, Tools.Opener open) throws IOException {
        Path abs = path.toAbsolutePath().normalize();
        long s = Files.size(abs);
        long m = Files.getLastModifiedTime(abs).toMillis();
        if (abs.equals(input) && s == size && m == modified && database != null) {
            return database;
        }
        close();
        TempFolder made = TempFolder.beside(Path.of(System.getProperty("java.io.tmpdir")).resolve("vprof-mcp"));
        Path out = made.path().resolve("export.sqlite");
        try (CaptureReader reader = open.open(path)) {
            // Through vprof export's own entry point, so that the database is the one the command writes.
            CaptureTimeline.Result walk = CaptureTimeline.stream(reader,
                    TraceExports.names(ExportFormat.SQLITE, KernelNames.demangled()), null);
            TraceExports.sqlite(new TraceExports.Input(reader, path, walk), out, false);
        } catch (IOException | RuntimeException e) {
            made.close();
            throw e;
        }
        folder = made;
        database = out;
        input = abs;
        size = s;
        modified = m;
        return out;
    }

    @Override
    public synchronized void close() throws IOException {
        if (folder != null) {
            TempFolder f = folder;
            folder = null;
            database = null;
            input = null;
            f.close();
        }
    }
}
