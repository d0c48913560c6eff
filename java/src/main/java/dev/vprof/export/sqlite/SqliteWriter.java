package dev.vprof.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.names.KernelNames;
import dev.vprof.report.Report;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CounterTrack;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.ServiceSpan;
import dev.vprof.timeline.StringTable;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes a {@link TimelineSource} as an SQLite database in Nsight Systems' export schema
 * ({@link NsysSchema}; docs/sqlite.md), a sink of the same walk as the trace formats: the layout
 * first (processes, GPUs, capture ranges, requests, spans, metrics), then every GPU op, API call
 * and NVTX range as the walk hands it out, each a row of a prepared statement sent in batches, all
 * in one transaction; the indexes are built after the load. Memory holds a batch and the string
 * table, not the rows.
 *
 * <p>Times are nanoseconds since the session start ({@code TARGET_INFO_SESSION_START_TIME.utcEpochNs}),
 * as Nsight Systems writes them: the earlier of the capture's start and its first event.
 *
 * <p>Kernel names: the walk must hand out kernel names as recorded ({@link KernelNames#asRecorded()}):
 * {@code mangledName} is that name, {@code demangledName} the demangled one, {@code shortName} the
 * function name alone.
 *
 * <p>The database is written beside {@code out} as {@code OUT.part} and moved into place when
 * complete; on any failure (a full disk among them) the partial file is removed.
 */
public final class SqliteWriter {
    /** Rows per batch sent to SQLite. */
    static final int BATCH = 4096;

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

    /** What a write produced. */
    public record Stats(long kernels, long memcpys, long memsets, long apiCalls, long nvtxRanges, long bytes) {}

    private SqliteWriter() {}

    /** Writes {@code source} to {@code out} (replacing it: the caller decides whether it may). */
    public static Stats write(TimelineSource source, Path out, Facts facts) throws IOException {
        return write(source, out, facts, 0);
    }

    /**
     * As {@link #write(TimelineSource, Path, Facts)}; {@code maxPages} &gt; 0 caps the database's size
     * in pages (SQLite then fails as on a full disk: how tests reach that path).
     */
    static Stats write(TimelineSource source, Path out, Facts facts, long maxPages) throws IOException {
        Path dir = out.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IOException("cannot write " + out + ": directory " + dir + " does not exist");
        }
        Path tmp = out.resolveSibling(out.getFileName() + ".part");
        Files.deleteIfExists(tmp);
        boolean done = false;
        try {
            Run run;
            try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + tmp.toAbsolutePath())) {
                try (Statement st = db.createStatement()) {
                    // A new file nobody reads until it is moved into place: no journal, no fsync.
                    // SQLite's largest page: an append-only load of millions of rows splits and writes
                    // 16 times fewer B-tree pages than at the default 4 KiB (kernels/s of the writing
                    // thread's CPU about 400 k -> 580 k in SqliteExportBenchmark; bench/README.md).
                    st.execute("PRAGMA page_size=65536");
                    st.execute("PRAGMA journal_mode=OFF");
                    st.execute("PRAGMA synchronous=OFF");
                    st.execute("PRAGMA locking_mode=EXCLUSIVE");
                    st.execute("PRAGMA cache_size=-16384");
                    st.execute("PRAGMA temp_store=MEMORY");
                    if (maxPages > 0) {
                        st.execute("PRAGMA max_page_count=" + maxPages);
                    }
                }
                db.setAutoCommit(false);
                try (Statement st = db.createStatement()) {
                    for (String ddl : NsysSchema.TABLES) {
                        st.execute(ddl);
                    }
                }
                run = new Run(source.layout(), db, facts);
                run.write(source);
                run.finish();
                db.commit();
                try (Statement st = db.createStatement()) {
                    for (String index : NsysSchema.INDEXES) {
                        st.execute(index);
                    }
                }
                db.commit();
            }
            try {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
            return new Stats(run.kernels, run.memcpys, run.memsets, run.apiCalls, run.nvtx, Files.size(out));
        } catch (SQLException e) {
            throw new IOException(why(e, out), e);
        } catch (SqlFailure e) {
            throw new IOException(why(e.getCause(), out), e.getCause());
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** One sentence for an SQLite failure: a full disk says so. */
    static String why(SQLException e, Path out) {
        String m = String.valueOf(e.getMessage());
        if (e.getErrorCode() == 13 || m.contains("SQLITE_FULL") || m.contains("disk is full")) {
            return "cannot write " + out + ": the disk is full; free space or write it elsewhere with -o (the partial "
                    + "file was removed)";
        }
        if (e.getErrorCode() == 10 || m.contains("SQLITE_IOERR")) {
            return "cannot write " + out + ": an I/O error (" + m + "); the partial file was removed";
        }
        return "cannot write " + out + ": SQLite says " + m;
    }

    /** An SQLException out of a walk callback, which may only throw IOException. */
    private static final class SqlFailure extends IOException {
        private static final long serialVersionUID = 1L;

        SqlFailure(SQLException cause) {
            super(cause);
        }

        @Override
        public synchronized SQLException getCause() {
            return (SQLException) super.getCause();
        }
    }

    /** Rows bound per statement: one step of SQLite inserts this many, in one pass of its cursor. */
    static final int ROWS_PER_STATEMENT = 256;

    /**
     * A prepared INSERT of integer rows, sent as statements of {@link #ROWS_PER_STATEMENT} rows in
     * batches of {@link #BATCH} rows; the rows left at the end go one by one. SQLite's cost is per
     * statement step as much as per row, so many rows per step is what makes the load fast.
     */
    private static final class Batch {
        final PreparedStatement multi;
        final PreparedStatement single;
        final int cols;
        final long[] values;
        final boolean[] nulls;
        int row;
        int pending;
        long rows;

        /** {@code prefix}: {@code INSERT INTO T (a, b) VALUES }; {@code tuple}: {@code (?, ?)}, constants allowed. */
        Batch(Connection db, String prefix, String tuple) throws SQLException {
            this(db, prefix, tuple, "");
        }

        /** As above, with {@code suffix} after the rows (the VALUES as a subquery, joined). */
        Batch(Connection db, String prefix, String tuple, String suffix) throws SQLException {
            this.cols = (int) tuple.chars().filter(c -> c == '?').count();
            StringBuilder sql = new StringBuilder(prefix);
            for (int r = 0; r < ROWS_PER_STATEMENT; r++) {
                sql.append(r == 0 ? "" : ", ").append(tuple);
            }
            this.multi = db.prepareStatement(sql.append(suffix).toString());
            this.single = db.prepareStatement(prefix + tuple + suffix);
            this.values = new long[ROWS_PER_STATEMENT * cols];
            this.nulls = new boolean[ROWS_PER_STATEMENT * cols];
        }

        /** Column {@code i} (1-based) of the row being filled. */
        void setLong(int i, long v) {
            int at = row * cols + i - 1;
            values[at] = v;
            nulls[at] = false;
        }

        void setInt(int i, int v) {
            setLong(i, v);
        }

        void setNullable(int i, long v, boolean isNull) {
            setLong(i, v);
            nulls[row * cols + i - 1] = isNull;
        }

        void setNullable(int i, Integer v) {
            setNullable(i, v == null ? 0 : v, v == null);
        }

        /** The row is complete. */
        void add() throws SQLException {
            rows++;
            if (++row == ROWS_PER_STATEMENT) {
                bind(multi, 0, ROWS_PER_STATEMENT);
                multi.addBatch();
                row = 0;
                if (++pending * ROWS_PER_STATEMENT >= BATCH) {
                    multi.executeBatch();
                    pending = 0;
                }
            }
        }

        private void bind(PreparedStatement st, int from, int n) throws SQLException {
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < cols; c++) {
                    int at = (from + r) * cols + c;
                    int param = r * cols + c + 1;
                    if (nulls[at]) {
                        st.setNull(param, Types.INTEGER);
                    } else {
                        st.setLong(param, values[at]);
                    }
                }
            }
        }

        /** Sends every row added. */
        void flush() throws SQLException {
            if (pending > 0) {
                multi.executeBatch();
                pending = 0;
            }
            for (int r = 0; r < row; r++) {
                bind(single, r, 1);
                single.executeUpdate();
            }
            row = 0;
        }

        void close() throws SQLException {
            multi.close();
            single.close();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final class Run extends TraceSink {
        final Connection db;
        final Facts facts;
        final long base;
        final StringTable names;
        final KernelNames demangler = KernelNames.demangled();
        /** The database's string ids: every string once, in the order first used. */
        final Map<String, Integer> stringIds = new HashMap<>();
        final List<String> strings = new ArrayList<>();
        /** Timeline string id to database string id (-1: not yet). */
        int[] mapped = new int[0];
        /** Per kernel name (timeline id): its demangled and short name's database ids. */
        int[] demangledIds = new int[0];
        int[] shortIds = new int[0];
        /** NVTX domains used, with the thread that first used each (for the domain's create row). */
        final Map<Integer, Long> domains = new LinkedHashMap<>();
        final PreparedStatement shape;
        /** Kernel shapes by what makes them (stream, name, launch configuration) to their ids. */
        final Map<KernelShape, Integer> shapes = new HashMap<>();
        GpuStream lastShapeStream;
        int lastShapeName = -1;
        long lastShapeGrid;
        long lastShapeBlock;
        int lastShapeId;
        final Batch kernel;
        final Batch memcpy;
        final Batch memset;
        final Batch runtime;
        final Batch nvtxRange;
        long kernels;
        long memcpys;
        long memsets;
        long apiCalls;
        long nvtx;
        CpuThread lastThread;
        long lastThreadGlobalTid;

        Run(Timeline layout, Connection db, Facts facts) throws SQLException {
            super(layout);
            this.db = db;
            this.facts = facts;
            this.names = layout.strings();
            long earliest = layout.earliestNs();
            long start = facts.metadata() != null && facts.metadata().startEpochNs() > 0
                    ? facts.metadata().startEpochNs() : Long.MAX_VALUE;
            long b = Math.min(start, earliest);
            this.base = b == Long.MAX_VALUE ? 0 : b;
            // What stays the same between launches of a kernel on a stream (its shape) goes once into a
            // table of the temporary database, not into the file; each kernel binds only its own five
            // values and joins its shape: binding a value costs more than SQLite's lookup.
            try (Statement st = db.createStatement()) {
                st.execute("CREATE TEMP TABLE vprof_kernel_shape (id INTEGER PRIMARY KEY, deviceId INTEGER, "
                        + "contextId INTEGER, streamId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER, "
                        + "mangledName INTEGER, registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, "
                        + "blockX INTEGER, blockY INTEGER, blockZ INTEGER, staticSharedMemory INTEGER)");
            }
            shape = db.prepareStatement("INSERT INTO temp.vprof_kernel_shape VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    + "?, ?, ?)");
            // Columns vprof has no value for and that are NOT NULL take the documented defaults inline.
            kernel = new Batch(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
                    + "correlationId, globalPid, demangledName, shortName, mangledName, registersPerThread, gridX, gridY, "
                    + "gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, "
                    + "localMemoryTotal, gridId, graphNodeId) "
                    + "SELECT v.column1, v.column2, s.deviceId, s.contextId, s.streamId, v.column3, s.globalPid, "
                    + "s.demangledName, s.shortName, s.mangledName, s.registersPerThread, s.gridX, s.gridY, s.gridZ, "
                    + "s.blockX, s.blockY, s.blockZ, s.staticSharedMemory, 0, 0, 0, 0, v.column4 FROM (VALUES ",
                    "(?, ?, ?, ?, ?)", ") AS v JOIN temp.vprof_kernel_shape AS s ON s.id = v.column5");
            memcpy = new Batch(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, "
                    + "correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES ", "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            memset = new Batch(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, "
                    + "correlationId, globalPid, value, bytes) VALUES ", "(?, ?, ?, ?, ?, ?, ?, ?, ?)");
            runtime = new Batch(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
                    + "correlationId, nameId, returnValue) VALUES ", "(?, ?, ?, ?, ?, ?, 0)");
            nvtxRange = new Batch(db, "INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, textId, domainId) VALUES ",
                    "(?, ?, " + NsysSchema.NVTX_PUSH_POP_RANGE + ", ?, ?, ?)");
        }

        long t(long epochNs) {
            return epochNs - base;
        }

        /** The database id of {@code s}. */
        int string(String s) {
            String key = s == null ? "" : s;
            Integer id = stringIds.get(key);
            if (id == null) {
                id = strings.size();
                strings.add(key);
                stringIds.put(key, id);
            }
            return id;
        }

        /** The database id of the timeline's string {@code id}. */
        int string(int id) {
            if (id >= mapped.length) {
                int old = mapped.length;
                mapped = Arrays.copyOf(mapped, Math.max(id + 1, old * 2 + 16));
                Arrays.fill(mapped, old, mapped.length, -1);
            }
            int m = mapped[id];
            if (m < 0) {
                m = string(names.get(id));
                mapped[id] = m;
            }
            return m;
        }

        @Override
        void begin() {}

        @Override
        void process(TimelineProcess process, int index) throws IOException {
            try {
                int pid = process.pid();
                long gpid = NsysSchema.globalPid(pid);
                try (PreparedStatement st = db.prepareStatement("INSERT INTO PROCESSES (globalPid, pid, name) VALUES (?, ?, ?)")) {
                    st.setLong(1, gpid);
                    st.setInt(2, pid);
                    st.setString(3, process.name());
                    st.executeUpdate();
                }
                try (PreparedStatement st = db.prepareStatement(
                        "INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (?, NULL, ?)")) {
                    for (CpuThread th : process.threads()) {
                        // A thread's own name; the main thread (tid = pid) is named as its process by default.
                        String name = !th.name().isEmpty() ? th.name() : th.tid() == pid ? process.name() : "";
                        if (name.isEmpty()) {
                            continue;
                        }
                        st.setInt(1, string(name));
                        st.setLong(2, NsysSchema.globalTid(pid, th.tid()));
                        st.executeUpdate();
                    }
                }
                try (PreparedStatement st = db.prepareStatement("INSERT INTO VPROF_CAPTURE_RANGES "
                        + "(globalPid, pid, rangeIndex, start, end, source) VALUES (?, ?, ?, ?, ?, ?)")) {
                    for (CaptureRange r : process.captureRanges()) {
                        st.setLong(1, gpid);
                        st.setInt(2, pid);
                        st.setInt(3, r.index());
                        st.setLong(4, t(r.startNs()));
                        st.setLong(5, t(r.endNs()));
                        st.setString(6, r.source());
                        st.executeUpdate();
                    }
                }
            } catch (SQLException e) {
                throw new SqlFailure(e);
            }
        }

        @Override
        void requests() throws IOException {
            Map<String, Report.RequestSummary> summaries = new HashMap<>();
            if (facts.report() != null) {
                for (Report.RequestSummary s : facts.report().requests()) {
                    summaries.putIfAbsent(s.traceId() + "/" + s.startNs(), s);
                }
            }
            try (PreparedStatement req = db.prepareStatement("INSERT INTO VPROF_REQUESTS "
                    + "(id, traceId, spanId, name, start, end, attributes) VALUES (?, ?, ?, ?, ?, ?, ?)");
                 PreparedStatement ph = db.prepareStatement("INSERT INTO VPROF_REQUEST_PHASES "
                         + "(requestId, phase, start, end, gpuNs) VALUES (?, ?, ?, ?, ?)")) {
                int id = 0;
                for (Request r : timeline.requests()) {
                    id++;
                    req.setInt(1, id);
                    req.setString(2, r.traceId());
                    req.setString(3, r.spanId());
                    req.setString(4, r.name());
                    req.setLong(5, t(r.startNs()));
                    req.setLong(6, t(r.endNs()));
                    req.setString(7, json(r.attributes()));
                    req.executeUpdate();
                    Report.RequestSummary s = summaries.get(r.traceId() + "/" + r.startNs());
                    for (Phase p : r.phases()) {
                        ph.setInt(1, id);
                        ph.setString(2, p.name());
                        ph.setLong(3, t(p.startNs()));
                        ph.setLong(4, t(p.endNs()));
                        Long gpu = s == null ? null : switch (p.name()) {
                            case "queue" -> s.gpuNsInQueue();
                            case "prefill" -> s.gpuNsInPrefill();
                            case "decode" -> s.gpuNsInDecode();
                            default -> null;
                        };
                        if (gpu == null) {
                            ph.setNull(5, Types.INTEGER);
                        } else {
                            ph.setLong(5, gpu);
                        }
                        ph.executeUpdate();
                    }
                }
            } catch (SQLException e) {
                throw new SqlFailure(e);
            }
        }

        @Override
        void spans() throws IOException {
            try (PreparedStatement st = db.prepareStatement("INSERT INTO VPROF_SPANS (traceId, spanId, parentSpanId, "
                    + "service, name, start, end, attributes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (ServiceSpan s : timeline.spans()) {
                    st.setString(1, s.traceId());
                    st.setString(2, s.spanId());
                    st.setString(3, s.parentSpanId());
                    st.setString(4, s.service());
                    st.setString(5, s.name());
                    st.setLong(6, t(s.startNs()));
                    st.setLong(7, t(s.endNs()));
                    st.setString(8, json(s.attributes()));
                    st.executeUpdate();
                }
            } catch (SQLException e) {
                throw new SqlFailure(e);
            }
        }

        @Override
        void counters() throws IOException {
            try (PreparedStatement st = db.prepareStatement("INSERT INTO VPROF_METRIC_SAMPLES (name, kind, unit, "
                    + "timestamp, value) VALUES (?, ?, ?, ?, ?)")) {
                for (CounterTrack c : timeline.counters()) {
                    for (int i = 0, n = c.size(); i < n; i++) {
                        double v = c.value(i);
                        st.setString(1, c.name());
                        st.setString(2, c.kind().name().toLowerCase(Locale.ROOT));
                        st.setString(3, c.unit());
                        st.setLong(4, t(c.time(i)));
                        if (Double.isFinite(v)) {
                            st.setDouble(5, v);
                        } else {
                            st.setNull(5, Types.REAL); // an empty interval: no value
                        }
                        st.executeUpdate();
                    }
                }
            } catch (SQLException e) {
                throw new SqlFailure(e);
            }
        }

        // ---- the walk ----

        @Override
        public void gpuOp(GpuStream stream, GpuOp op) throws IOException {
            try {
                GpuOpKind kind = op.kind();
                if (kind == GpuOpKind.KERNEL) {
                    kernel(stream, op);
                    return;
                }
                Batch st = kind == GpuOpKind.MEMCPY ? memcpy : memset;
                st.setLong(1, t(op.start()));
                st.setLong(2, t(op.end()));
                st.setInt(3, stream.device().deviceId());
                st.setInt(4, Math.max(0, stream.contextId()));
                st.setLong(5, stream.streamId());
                long corr = op.correlationId();
                st.setNullable(6, corr, corr == 0);
                st.setLong(7, NsysSchema.globalPid(stream.device().process().pid()));
                if (kind == GpuOpKind.MEMCPY) {
                    st.setLong(8, op.bytes());
                    st.setInt(9, op.copyKind());
                    st.setNullable(10, NsysSchema.memoryKind(op.srcMemoryKind()));
                    st.setNullable(11, NsysSchema.memoryKind(op.dstMemoryKind()));
                    memcpys++;
                } else {
                    st.setInt(8, op.memsetValue());
                    st.setLong(9, op.bytes());
                    memsets++;
                }
                st.add();
            } catch (SQLException e) {
                throw new SqlFailure(e);
            }
        }

        /** What stays the same between launches of a kernel on a stream. */
        private record KernelShape(GpuStream stream, int nameId, long grid, long block) {}

        private void kernel(GpuStream stream, GpuOp op) throws SQLException {
            Batch st = kernel;
            st.setLong(1, t(op.start()));
            st.setLong(2, t(op.end()));
            long corr = op.correlationId();
            st.setNullable(3, corr, corr == 0);
            long node = op.graphNodeId();
            st.setNullable(4, node, node == 0);
            st.setInt(5, shapeOf(stream, op));
            st.add();
            kernels++;
        }

        /** The id of the kernel's shape, written to the temporary table on first use. */
        private int shapeOf(GpuStream stream, GpuOp op) throws SQLException {
            int nameId = op.nameId();
            long grid = (long) op.gridX() << 32 | (long) op.gridY() << 16 | op.gridZ();
            long block = op.blockX() | (long) op.blockY() << 11 | (long) op.blockZ() << 22
                    | (long) op.registersPerThread() << 29 | (long) op.sharedMemoryBytes() << 37;
            // A stream mostly repeats its last kernel's shape; layers that alternate kernels go to the map.
            if (stream == lastShapeStream && nameId == lastShapeName && grid == lastShapeGrid && block == lastShapeBlock) {
                return lastShapeId;
            }
            KernelShape key = new KernelShape(stream, nameId, grid, block);
            Integer id = shapes.get(key);
            if (id == null) {
                id = shapes.size() + 1;
                shape.setInt(1, id);
                shape.setInt(2, stream.device().deviceId());
                shape.setInt(3, Math.max(0, stream.contextId()));
                shape.setLong(4, stream.streamId());
                shape.setLong(5, NsysSchema.globalPid(stream.device().process().pid()));
                shape.setInt(6, demangled(nameId));
                shape.setInt(7, shortIds[nameId]);
                shape.setInt(8, string(nameId));
                shape.setInt(9, op.registersPerThread());
                shape.setInt(10, op.gridX());
                shape.setInt(11, op.gridY());
                shape.setInt(12, op.gridZ());
                shape.setInt(13, op.blockX());
                shape.setInt(14, op.blockY());
                shape.setInt(15, op.blockZ());
                // The agent records static + dynamic shared memory as one sum: written as static.
                shape.setInt(16, op.sharedMemoryBytes());
                shape.executeUpdate();
                shapes.put(key, id);
            }
            lastShapeStream = stream;
            lastShapeName = nameId;
            lastShapeGrid = grid;
            lastShapeBlock = block;
            lastShapeId = id;
            return id;
        }

        /** The demangled name's id of kernel name {@code nameId}, its short name's noted too. */
        int demangled(int nameId) {
            if (nameId >= demangledIds.length) {
                int old = demangledIds.length;
                int n = Math.max(nameId + 1, old * 2 + 16);
                demangledIds = Arrays.copyOf(demangledIds, n);
                shortIds = Arrays.copyOf(shortIds, n);
                Arrays.fill(demangledIds, old, n, -1);
            }
            int id = demangledIds[nameId];
            if (id < 0) {
                String shown = demangler.show(names.get(nameId));
                id = string(shown);
                demangledIds[nameId] = id;
                shortIds[nameId] = string(NsysSchema.shortName(shown));
            }
            return id;
        }

        long globalTid(CpuThread thread) {
            if (thread != lastThread) {
                lastThread = thread;
                lastThreadGlobalTid = NsysSchema.globalTid(thread.process().pid(), thread.tid());
            }
            return lastThreadGlobalTid;
        }

        @Override
        public void apiCall(CpuThread thread, ApiCall call) throws IOException {
            try {
                Batch st = runtime;
                st.setLong(1, t(call.start()));
                st.setLong(2, t(call.end()));
                st.setInt(3, call.kind() == ApiKind.DRIVER ? NsysSchema.EVENT_CLASS_DRIVER : NsysSchema.EVENT_CLASS_RUNTIME);
                st.setLong(4, globalTid(thread));
                long corr = call.correlationId();
                runtime.setNullable(5, corr, corr == 0);
                st.setInt(6, string(call.nameId()));
                runtime.add();
                apiCalls++;
            } catch (SQLException e) {
                throw new SqlFailure(e);
            }
        }

        @Override
        public void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) throws IOException {
            try {
                Batch st = nvtxRange;
                st.setLong(1, t(startNs));
                st.setLong(2, t(endNs));
                long gtid = globalTid(thread);
                st.setLong(3, gtid);
                st.setInt(4, string(nameId));
                // Nsight Systems numbers a domain by an id of its own; vprof's is the domain name's string id.
                int domain = domainId == 0 ? 0 : string(domainId);
                st.setInt(5, domain);
                if (domain != 0) {
                    domains.putIfAbsent(domain, gtid);
                }
                nvtxRange.add();
                nvtx++;
            } catch (SQLException e) {
                throw new SqlFailure(e);
            }
        }

        /** After the walk: the rest of the batches, then the small tables. */
        void finish() throws SQLException {
            for (Batch b : List.of(kernel, memcpy, memset, runtime, nvtxRange)) {
                b.flush();
                b.close();
            }
            shape.close();
            try (PreparedStatement st = db.prepareStatement("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, "
                    + "domainId) VALUES (0, " + NsysSchema.NVTX_DOMAIN_CREATE + ", ?, ?, ?)")) {
                for (Map.Entry<Integer, Long> d : domains.entrySet()) {
                    st.setString(1, strings.get(d.getKey()));
                    st.setLong(2, d.getValue());
                    st.setInt(3, d.getKey());
                    st.executeUpdate();
                }
            }
            gpus();
            drops();
            meta();
            // Last: every string the rows above refer to is known now.
            try (PreparedStatement st = db.prepareStatement("INSERT INTO StringIds (id, value) VALUES (?, ?)")) {
                for (int i = 0; i < strings.size(); i++) {
                    st.setInt(1, i);
                    st.setString(2, strings.get(i));
                    st.addBatch();
                    if (i % BATCH == BATCH - 1) {
                        st.executeBatch();
                    }
                }
                st.executeBatch();
            }
        }

        /** TARGET_INFO_GPU: one row per GPU (by CUDA device id), from the DEVICE records the report kept. */
        void gpus() throws SQLException {
            Map<Integer, DeviceProperties> props = new LinkedHashMap<>();
            if (facts.report() != null) {
                for (Report.ProcessSummary p : facts.report().processes()) {
                    if (p.devices() != null) {
                        p.devices().forEach(d -> props.putIfAbsent(d.id(), d));
                    }
                }
            }
            Set<Integer> seen = new LinkedHashSet<>();
            try (PreparedStatement st = db.prepareStatement("INSERT INTO TARGET_INFO_GPU (vmId, id, name, l2CacheSize, "
                    + "totalMemory, memoryBandwidth, clockRate, smCount, uuid, cuDevice, maxRegistersPerBlock, "
                    + "maxShmemPerBlock, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, maxWarpsPerSm, maxBlocksPerSm, "
                    + "maxThreadsPerBlock, computeMajor, computeMinor) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (TimelineProcess p : timeline.processes()) {
                    for (GpuDevice g : p.devices()) {
                        int id = g.deviceId();
                        if (id < 0 || !seen.add(id)) {
                            continue;
                        }
                        DeviceProperties d = props.get(id);
                        st.setLong(1, NsysSchema.VM);
                        st.setInt(2, id);
                        st.setString(3, d != null && d.name() != null ? d.name() : g.name().isEmpty() ? null : g.name());
                        positive(st, 4, d == null ? 0 : d.l2CacheBytes());
                        positive(st, 5, d != null ? d.globalMemoryBytes() : g.totalGlobalMemBytes());
                        positive(st, 6, d == null ? 0 : d.globalMemoryBandwidthKbps() * 1000); // B/s
                        positive(st, 7, d == null ? 0 : d.coreClockKHz() * 1000L); // Hz
                        positive(st, 8, d != null ? d.smCount() : g.numSms());
                        st.setString(9, d == null || d.uuid() == null || d.uuid().isEmpty() ? null : d.uuid());
                        st.setInt(10, id);
                        GpuDevice.Limits l = g.limits();
                        positive(st, 11, d != null ? d.maxRegistersPerBlock() : l.regsPerBlock());
                        positive(st, 12, d != null ? d.maxSharedMemoryPerBlock() : l.sharedMemPerBlock());
                        positive(st, 13, d != null ? d.maxSharedMemoryPerSm() : l.sharedMemPerMultiprocessor());
                        positive(st, 14, d != null ? d.maxRegistersPerSm() : l.regsPerMultiprocessor());
                        positive(st, 15, d != null ? d.warpSize() : l.warpSize());
                        positive(st, 16, d == null ? 0 : d.maxWarpsPerSm());
                        positive(st, 17, d == null ? 0 : d.maxBlocksPerSm());
                        positive(st, 18, d != null ? d.maxThreadsPerBlock() : l.maxThreadsPerBlock());
                        positive(st, 19, d != null ? d.computeMajor() : g.computeMajor());
                        positive(st, 20, d != null ? d.computeMinor() : g.computeMinor(), true);
                        st.executeUpdate();
                    }
                }
            }
        }

        private static void positive(PreparedStatement st, int i, long v) throws SQLException {
            positive(st, i, v, false);
        }

        /** {@code v}, or NULL where 0 means "not recorded" (unless zero is a value, as a minor version). */
        private static void positive(PreparedStatement st, int i, long v, boolean zeroIsValue) throws SQLException {
            if (v > 0 || (zeroIsValue && v == 0)) {
                st.setLong(i, v);
            } else {
                st.setNull(i, Types.INTEGER);
            }
        }

        /** VPROF_DROPS: what each capture range lost or kept off the timeline, by reason, as the report counts it. */
        void drops() throws SQLException {
            if (facts.report() == null) {
                return;
            }
            try (PreparedStatement st = db.prepareStatement("INSERT INTO VPROF_DROPS (globalPid, pid, rangeIndex, "
                    + "rangeSource, reason, count) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (Report.RangeSummary r : facts.report().ranges()) {
                    Map<String, Long> reasons = new LinkedHashMap<>();
                    reasons.put("ring_full", r.ringDrops());
                    reasons.put("ring_full_kernels", r.ringDropsKernels());
                    reasons.put("cupti", r.cuptiDrops());
                    reasons.put("zero_timestamp_kernels", r.zeroTimestampKernels());
                    if (r.fidelity() != null) {
                        reasons.put("kernels_missing", r.fidelity().kernelsMissing());
                        reasons.put("clipped", r.fidelity().clipped());
                        r.fidelity().rejected().forEach((k, v) -> reasons.put("rejected_" + k, v));
                    }
                    for (Map.Entry<String, Long> e : reasons.entrySet()) {
                        if (e.getValue() == null || e.getValue() == 0) {
                            continue;
                        }
                        st.setLong(1, NsysSchema.globalPid(r.pid()));
                        st.setInt(2, r.pid());
                        st.setInt(3, r.index());
                        st.setString(4, r.source());
                        st.setString(5, e.getKey());
                        st.setLong(6, e.getValue());
                        st.executeUpdate();
                    }
                }
            }
        }

        /** EXPORT_META_DATA (who wrote the file, which schema, what was skipped) and the capture's facts. */
        void meta() throws SQLException {
            Instant now = Instant.now();
            List<String[]> export = new ArrayList<>();
            export.add(new String[] {"EXPORT_PRODUCT_NAME", "vprof"});
            export.add(new String[] {"EXPORT_PRODUCT_VERSION", facts.vprofVersion()});
            String[] v = NsysSchema.NSYS_SCHEMA_VERSION.split("\\.");
            export.add(new String[] {"EXPORT_SCHEMA_VERSION", NsysSchema.NSYS_SCHEMA_VERSION});
            export.add(new String[] {"EXPORT_SCHEMA_VERSION_MAJOR", v[0]});
            export.add(new String[] {"EXPORT_SCHEMA_VERSION_MINOR", v[1]});
            export.add(new String[] {"EXPORT_SCHEMA_VERSION_MICRO", v[2]});
            export.add(new String[] {"EXPORT_TIME_UTC", DateTimeFormatter.ISO_LOCAL_DATE_TIME
                    .format(now.atOffset(ZoneOffset.UTC).withNano(0))});
            export.add(new String[] {"EXPORT_INPUT_FILE", facts.input()});
            export.add(new String[] {"VPROF_SCHEMA_VERSION", NsysSchema.VPROF_SCHEMA_VERSION});
            export.add(new String[] {"VPROF_TIME_BASE_EPOCH_NS", Long.toString(base)});
            export.add(new String[] {"VPROF_SKIPPED_COUNT", Integer.toString(facts.skipped().size())});
            for (String s : facts.skipped()) {
                export.add(new String[] {"VPROF_SKIPPED", s});
            }
            insertPairs("EXPORT_META_DATA", export);

            try (PreparedStatement st = db.prepareStatement(
                    "INSERT INTO TARGET_INFO_SESSION_START_TIME (utcEpochNs, utcTime, localTime) VALUES (?, ?, ?)")) {
                Instant start = Instant.ofEpochSecond(Math.floorDiv(base, 1_000_000_000L), Math.floorMod(base, 1_000_000_000L));
                st.setLong(1, base);
                st.setString(2, DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(start.atOffset(ZoneOffset.UTC).withNano(0)));
                st.setString(3, DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(start.atZone(ZoneId.systemDefault()).withNano(0)));
                st.executeUpdate();
            }

            List<String[]> capture = new ArrayList<>();
            CaptureMetadata m = facts.metadata();
            if (m != null) {
                capture.add(new String[] {"host", m.host()});
                capture.add(new String[] {"start_epoch_ns", Long.toString(m.startEpochNs())});
                capture.add(new String[] {"vprof_version", m.vprofVersion()});
                capture.add(new String[] {"command_line", m.commandLine() == null ? null : String.join(" ", m.commandLine())});
                if (m.options() != null) {
                    m.options().forEach((k, val) -> capture.add(new String[] {"option." + k, val}));
                }
            }
            Report r = facts.report();
            if (r != null) {
                capture.add(new String[] {"complete", Boolean.toString(r.complete())});
                if (r.window() != null) {
                    capture.add(new String[] {"window_start", Long.toString(t(r.window().startNs()))});
                    capture.add(new String[] {"window_end", Long.toString(t(r.window().endNs()))});
                    capture.add(new String[] {"window_source", r.window().source()});
                }
                capture.add(new String[] {"unverified_records", Long.toString(r.totals().unverifiedRecords())});
                for (Report.ProcessSummary p : r.processes()) {
                    String k = "process." + p.pid() + ".";
                    capture.add(new String[] {k + "command", p.command()});
                    capture.add(new String[] {k + "cupti_version", Long.toString(p.cuptiVersion())});
                    if (p.rank() != null) {
                        capture.add(new String[] {k + "rank", p.rank().toString()});
                    }
                    if (p.worldSize() != null) {
                        capture.add(new String[] {k + "world_size", p.worldSize().toString()});
                    }
                    if (p.clock() != null) {
                        capture.add(new String[] {k + "clock_pairs", Integer.toString(p.clock().pairs())});
                        capture.add(new String[] {k + "clock_drift_ppm", Double.toString(p.clock().driftPpm())});
                    }
                }
            }
            insertPairs("VPROF_CAPTURE_FACTS", capture);
        }

        private void insertPairs(String table, List<String[]> rows) throws SQLException {
            try (PreparedStatement st = db.prepareStatement("INSERT INTO " + table + " (name, value) VALUES (?, ?)")) {
                for (String[] row : rows) {
                    st.setString(1, row[0]);
                    st.setString(2, row[1]);
                    st.executeUpdate();
                }
            }
        }

        private static String json(Map<String, String> attributes) {
            if (attributes == null || attributes.isEmpty()) {
                return null;
            }
            try {
                return JSON.writeValueAsString(attributes);
            } catch (JsonProcessingException e) {
                return null;
            }
        }
    }
}
