package dev.vprof.export.sqlite;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.names.KernelNames;
import dev.vprof.output.OutputFile;
import dev.vprof.report.Report;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * Writes a {@link TimelineSource} as an SQLite database in Nsight Systems' export schema
 * ({@link NsysSchema}; docs/sqlite.md), a sink of the same walk as the trace formats, in three steps:
 *
 * <ol>
 *   <li>SQLite (through sqlite-jdbc) creates every table, empty, and is closed;
 *   <li>the walk's events go straight into the big tables' B-trees, pages appended to that file in
 *       SQLite's file format ({@link ActivityRows}, {@link TableBTree}, {@link SqliteFile}): SQLite's
 *       own insert of a row cost most of the export's time (docs/sqlite.md, "How it is written");
 *   <li>SQLite reopens the file and writes the small tables: processes and threads, GPUs, the enum
 *       tables, the export's and the capture's facts, vprof's own tables, and {@code StringIds} last.
 * </ol>
 *
 * <p>Times are nanoseconds since the session start ({@code TARGET_INFO_SESSION_START_TIME.utcEpochNs}):
 * the earlier of the capture's start and its first event. Memory holds a page per big table, the
 * string table and the thread ids, not the rows.
 *
 * <p>Kernel names: the walk must hand out kernel names as recorded ({@link KernelNames#asRecorded()}):
 * {@code mangledName} is that name, {@code demangledName} the demangled one, {@code shortName} the
 * function name alone.
 *
 * <p>The database is written beside {@code out} through {@link OutputFile} and moved into place when
 * complete; on any failure (a full disk among them) the partial file is removed.
 */
public final class SqliteWriter {
    /**
     * What the export knows besides the timeline: the input's name, the capture's metadata (null:
     * none), its report (GPU time per request phase, drops by range, the devices; null: none),
     * and what the reader skipped (damaged chunks), each a sentence.
     */
    public record Facts(String input, CaptureMetadata metadata, Report report, List<String> skipped, String vprofVersion) {
        public Facts {
            skipped = skipped == null ? List.of() : List.copyOf(skipped);
            input = input == null ? "" : input;
            vprofVersion = vprofVersion == null ? "" : vprofVersion;
        }

        public static Facts none() {
            return new Facts("", null, null, List.of(), "");
        }
    }

    /** What a write produced: rows of each kind (CPU ops and Python functions together) and the file's bytes. */
    public record Stats(long kernels, long memcpys, long memsets, long apiCalls, long nvtxRanges, long cpuOps, long bytes) {}

    private SqliteWriter() {}

    /** Writes {@code source} to {@code out} (replacing it: the caller decides whether it may). */
    public static Stats write(TimelineSource source, Path out, Facts facts) throws IOException {
        return write(source, out, facts, true, 0);
    }

    /** As {@link #write(TimelineSource, Path, Facts)}; {@code replace}: whether an existing {@code out} may be replaced. */
    public static Stats write(TimelineSource source, Path out, Facts facts, boolean replace) throws IOException {
        return write(source, out, facts, replace, 0);
    }

    /**
     * As {@link #write(TimelineSource, Path, Facts)}; {@code maxPages} &gt; 0 caps the database's size
     * in pages (SQLite and the page writer then fail as on a full disk: how tests reach that path).
     */
    static Stats write(TimelineSource source, Path out, Facts facts, long maxPages) throws IOException {
        return write(source, out, facts, true, maxPages);
    }

    private static Stats write(TimelineSource source, Path out, Facts facts, boolean replace, long maxPages)
            throws IOException {
        Path dir = out.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IOException("cannot write " + out + ": directory " + dir + " does not exist");
        }
        try (OutputFile output = OutputFile.create(out, replace)) {
            Path tmp = output.temp();
            Files.delete(tmp); // SQLite and the page writer create the database themselves
            Timeline layout = source.layout();
            long base = sessionStart(layout, facts.metadata());
            Map<String, Integer> roots = createTables(tmp, maxPages);
            StringIds strings = new StringIds(layout.strings());
            ThreadIds threads = new ThreadIds(layout);
            ActivityRows rows;
            try (SqliteFile file = SqliteFile.open(tmp, maxPages)) {
                rows = new ActivityRows(file, roots, base, strings, threads, layout.strings());
                source.walk(rows);
                rows.finish();
                file.finish();
            }
            LongUnaryOperator time = epochNs -> epochNs - base;
            try (Connection db = open(tmp, maxPages)) {
                ProcessTables.write(db, layout, threads, strings, time);
                GpuTable.write(db, layout, facts.report());
                NsysEnums.write(db);
                MetaTables.write(db, facts, layout, base, rows.lastTime(), time, Instant.now());
                VprofTables.write(db, layout, facts.report(), time);
                strings.write(db); // last: every row that names a string is written
                db.commit();
            }
            output.commit();
            return new Stats(rows.kernels(), rows.memcpys(), rows.memsets(), rows.apiCalls(), rows.nvtxRanges(),
                    rows.cpuOps(), Files.size(out));
        } catch (SQLException e) {
            throw new IOException(why(e, out), e);
        } catch (IOException e) {
            if (e instanceof SqliteFile.Full || String.valueOf(e.getMessage()).contains("No space left on device")) {
                throw new IOException(diskFull(out), e);
            }
            throw e;
        }
    }

    /** The session start: the earlier of the capture's start and its first event (0 when neither is known). */
    static long sessionStart(Timeline layout, CaptureMetadata metadata) {
        long start = metadata != null && metadata.startEpochNs() > 0 ? metadata.startEpochNs() : Long.MAX_VALUE;
        long b = Math.min(start, layout.earliestNs());
        return b == Long.MAX_VALUE ? 0 : b;
    }

    /** A connection for one of the file's two SQLite steps: one transaction, no journal, no fsync. */
    private static Connection open(Path file, long maxPages) throws SQLException {
        Connection db = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement st = db.createStatement()) {
            // A new file nobody reads until it is moved into place: no journal, no fsync. SQLite's largest
            // page: a table of millions of rows has 16 times fewer pages than at the default 4 KiB.
            st.execute("PRAGMA page_size=65536");
            st.execute("PRAGMA journal_mode=OFF");
            st.execute("PRAGMA synchronous=OFF");
            st.execute("PRAGMA locking_mode=EXCLUSIVE");
            st.execute("PRAGMA cache_size=-16384");
            if (maxPages > 0) {
                st.execute("PRAGMA max_page_count=" + maxPages);
            }
        } catch (SQLException e) {
            db.close();
            throw e;
        }
        db.setAutoCommit(false);
        return db;
    }

    /** Step 1: every table, empty; returns each one's root page. */
    private static Map<String, Integer> createTables(Path tmp, long maxPages) throws SQLException {
        Map<String, Integer> roots = new HashMap<>();
        try (Connection db = open(tmp, maxPages)) {
            try (Statement st = db.createStatement()) {
                for (NsysSchema.Table t : NsysSchema.all()) {
                    st.execute(t.ddl());
                }
            }
            db.commit();
            try (Statement st = db.createStatement();
                 ResultSet rs = st.executeQuery("SELECT name, rootpage FROM sqlite_schema WHERE type = 'table'")) {
                while (rs.next()) {
                    roots.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return roots;
    }

    private static String diskFull(Path out) {
        return "cannot write " + out + ": the disk is full; free space or write it elsewhere with -o (the partial "
                + "file was removed)";
    }

    /** One sentence for an SQLite failure: a full disk says so. */
    static String why(SQLException e, Path out) {
        String m = String.valueOf(e.getMessage());
        if (e.getErrorCode() == 13 || m.contains("SQLITE_FULL") || m.contains("disk is full")) {
            return diskFull(out);
        }
        if (e.getErrorCode() == 10 || m.contains("SQLITE_IOERR")) {
            return "cannot write " + out + ": an I/O error (" + m + "); the partial file was removed";
        }
        return "cannot write " + out + ": SQLite says " + m;
    }
}
