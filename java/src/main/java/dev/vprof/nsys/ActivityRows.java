package dev.vprof.nsys;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.DropsEvent;
import dev.vprof.capture.KernelShape;
import dev.vprof.capture.RecordEncoder;
import dev.vprof.names.TerminalText;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of an export's activity tables as ring records, in start order across the tables: one
 * query per table, each {@code ORDER BY start} (SQLite sorts on disk where it must, in its own
 * memory, not the heap), merged row by row, so the records of every track come in the order an
 * agent's do and a reader's reorder windows stay small, and nothing of a table is held. The
 * mapping is docs/nsys-input.md.
 */
final class ActivityRows {
    static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";
    static final String MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY";
    static final String MEMSET = "CUPTI_ACTIVITY_KIND_MEMSET";
    static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    static final String NVTX = "NVTX_EVENTS";
    /** Unknown API names listed by name in the note (the rest are counted). */
    private static final int NAMES_LISTED = 8;

    private final NsysDatabase db;
    private final ProcessTable procs;
    private final RecordOut out;
    private final List<String> notes;
    private final PreparedStatement stringById;
    private final Map<Long, Integer> cbids = new HashMap<>();
    private final Set<String> unknownApiNames = new LinkedHashSet<>();
    private long unknownApiCalls;
    private long danglingNames;
    private long openRanges;

    ActivityRows(NsysDatabase db, ProcessTable procs, RecordOut out, List<String> notes) throws SQLException {
        this.db = db;
        this.procs = procs;
        this.out = out;
        this.notes = notes;
        this.stringById = db.prepare("SELECT value FROM StringIds WHERE id = ?");
    }

    /** One table's rows in start order: column 1 is the start. */
    private abstract static class Cursor {
        final String table;
        Statement st;
        ResultSet rs;
        long start;
        boolean done;
        long rows;

        Cursor(String table) {
            this.table = table;
        }

        void advance() throws SQLException {
            if (rs.next()) {
                start = rs.getLong(1);
                rows++;
            } else {
                done = true;
                close();
            }
        }

        void close() throws SQLException {
            if (st != null) {
                st.close();
                st = null;
            }
        }

        abstract void emit() throws IOException, SQLException;
    }

    /** Reads every table, merged by start; returns the rows read per table. */
    Map<String, Long> read() throws IOException, SQLException {
        List<Cursor> cursors = new ArrayList<>();
        try {
            open(cursors, KERNEL, kernelSql(), this::kernel);
            open(cursors, MEMCPY, memcpySql(), this::memcpy);
            open(cursors, MEMSET, memsetSql(), this::memset);
            open(cursors, RUNTIME, apiSql(), this::api);
            open(cursors, NVTX, nvtxSql(), this::nvtx);
            while (true) {
                Cursor next = null;
                for (Cursor c : cursors) {
                    if (!c.done && (next == null || c.start < next.start)) {
                        next = c;
                    }
                }
                if (next == null) {
                    break;
                }
                next.emit();
                next.advance();
            }
            Map<String, Long> rows = new HashMap<>();
            cursors.forEach(c -> rows.put(c.table, c.rows));
            finish();
            return rows;
        } finally {
            for (Cursor c : cursors) {
                c.close();
            }
            stringById.close();
        }
    }

    private interface Emit {
        void row(ResultSet rs) throws IOException, SQLException;
    }

    private void open(List<Cursor> cursors, String table, String sql, Emit emit) throws SQLException {
        if (sql == null) {
            return;
        }
        Cursor c = new Cursor(table) {
            @Override
            void emit() throws IOException, SQLException {
                emit.row(rs);
            }
        };
        cursors.add(c);
        c.st = db.statement();
        c.rs = c.st.executeQuery(sql);
        c.advance();
    }

    /** The columns every row of {@code table} must have; a table without them is a sentence, one without the table none. */
    private boolean readable(String table, List<String> required) throws SQLException, IOException {
        if (!db.has(table)) {
            notes.add(db.file.getFileName() + " has no " + table + " table: it is read as holding none of its rows");
            return false;
        }
        for (String c : required) {
            if (!db.columns(table).contains(c)) {
                throw new CaptureFormatException(db.file + ": " + table + " has no column " + c
                        + ", which every Nsight Systems export has; export the report again with nsys export --type sqlite");
            }
        }
        return true;
    }

    private String cols(String table, String alias, String... names) throws SQLException {
        StringBuilder b = new StringBuilder();
        for (String n : names) {
            b.append(", ").append(db.column(table, alias, n));
        }
        return b.toString();
    }

    private String kernelSql() throws SQLException, IOException {
        if (!readable(KERNEL, List.of("start", "end", "demangledName"))) {
            return null;
        }
        return "SELECT k.start, k.end" + cols(KERNEL, "k", "globalPid") + ", coalesce("
                + db.column(KERNEL, "k", "mangledName") + ", k.demangledName)"
                + cols(KERNEL, "k", "deviceId", "contextId", "streamId", "correlationId", "registersPerThread",
                        "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "staticSharedMemory",
                        "dynamicSharedMemory", "graphNodeId", "graphId")
                + " FROM " + KERNEL + " AS k ORDER BY k.start";
    }

    private String memcpySql() throws SQLException, IOException {
        if (!readable(MEMCPY, List.of("start", "end", "bytes"))) {
            return null;
        }
        return "SELECT m.start, m.end" + cols(MEMCPY, "m", "globalPid", "bytes", "copyKind", "srcKind", "dstKind",
                "deviceId", "contextId", "streamId", "correlationId") + " FROM " + MEMCPY + " AS m ORDER BY m.start";
    }

    private String memsetSql() throws SQLException, IOException {
        if (!readable(MEMSET, List.of("start", "end", "bytes"))) {
            return null;
        }
        return "SELECT m.start, m.end" + cols(MEMSET, "m", "globalPid", "bytes", "value", "deviceId", "contextId",
                "streamId", "correlationId") + " FROM " + MEMSET + " AS m ORDER BY m.start";
    }

    private String apiSql() throws SQLException, IOException {
        if (!readable(RUNTIME, List.of("start", "end", "nameId", "eventClass"))) {
            return null;
        }
        try (Statement st = db.statement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM " + RUNTIME + " WHERE eventClass NOT IN ("
                     + NsysIds.EVENT_CLASS_RUNTIME + ", " + NsysIds.EVENT_CLASS_DRIVER + ", "
                     + NsysIds.EVENT_CLASS_CUDA_BACKTRACE + ")")) {
            if (rs.next() && rs.getLong(1) > 0) {
                notes.add(db.file.getFileName() + ": " + rs.getLong(1) + " rows of " + RUNTIME + " are of an event "
                        + "class other than the CUDA runtime's and driver's; they are not read");
            }
        }
        return "SELECT r.start, r.end" + cols(RUNTIME, "r", "globalTid", "nameId", "eventClass", "correlationId")
                + " FROM " + RUNTIME + " AS r WHERE r.eventClass IN (" + NsysIds.EVENT_CLASS_RUNTIME + ", "
                + NsysIds.EVENT_CLASS_DRIVER + ") ORDER BY r.start";
    }

    private String nvtxSql() throws SQLException, IOException {
        if (!readable(NVTX, List.of("start", "eventType"))) {
            return null;
        }
        return "SELECT n.start" + cols(NVTX, "n", "end", "globalTid", "endGlobalTid", "eventType") + ", coalesce("
                + db.column(NVTX, "n", "text") + ", s.value)" + cols(NVTX, "n", "domainId")
                + " FROM " + NVTX + " AS n LEFT JOIN StringIds AS s ON s.id = " + db.column(NVTX, "n", "textId")
                + " WHERE n.eventType IN (" + NsysIds.NVTX_MARK + ", " + NsysIds.NVTX_PUSH_POP_RANGE + ", "
                + NsysIds.NVTX_START_END_RANGE + ") ORDER BY n.start";
    }

    /** Whether a row's times are whole; one that ends before it starts is counted as the agent counts its own. */
    private static boolean timed(NsysProcess p, long start, long end, int recordType) {
        if (end < start) {
            p.reject(VprofRing.DROPS_END_BEFORE_START, recordType);
            return false;
        }
        p.saw(start, end);
        return true;
    }

    /**
     * The process of a GPU activity row (start, end and globalPid in columns 1 to 3), or null when
     * its times are not whole (counted by {@link #timed}).
     */
    private NsysProcess placed(ResultSet rs, int recordType) throws IOException, SQLException {
        NsysProcess p = procs.of(rs.getLong(3));
        return timed(p, rs.getLong(1), rs.getLong(2), recordType) ? p : null;
    }

    /** The STRING id in {@code p} of StringIds {@code id}, looked up once per process. */
    private int name(NsysProcess p, long id) throws IOException, SQLException {
        Integer known = p.stringIds.get(id);
        if (known != null) {
            return known;
        }
        String value = null;
        stringById.setLong(1, id);
        try (ResultSet rs = stringById.executeQuery()) {
            if (rs.next()) {
                value = rs.getString(1);
            }
        }
        if (value == null) {
            danglingNames++;
            value = "(StringIds has no id " + id + ")";
        }
        int ring = p.intern(out, value);
        p.stringIds.put(id, ring);
        return ring;
    }

    private void kernel(ResultSet rs) throws IOException, SQLException {
        NsysProcess p = placed(rs, VprofRing.REC_KERNEL);
        if (p == null) {
            return;
        }
        p.kernels++;
        int nameId = name(p, rs.getLong(4));
        KernelShape shape = new KernelShape(nameId, rs.getInt(5), rs.getInt(6), rs.getInt(7),
                rs.getInt(10), rs.getInt(11), rs.getInt(12), rs.getInt(13), rs.getInt(14), rs.getInt(15),
                rs.getInt(16) + rs.getInt(17), rs.getInt(9), rs.getInt(19), rs.getLong(18));
        Integer desc = p.shapes.get(shape);
        if (desc == null) {
            if (!p.roomForShape()) {
                throw new CaptureFormatException(db.file + " has more than " + NsysProcess.Names.MAX_SHAPES
                        + " distinct kernel launch shapes, more than vprof reads from one export");
            }
            desc = p.nextShape++;
            p.shapes.put(shape, desc);
            RecordEncoder.kernelDesc(out.to(p.pid), desc, shape);
        }
        RecordEncoder.kernel(out.to(p.pid), rs.getLong(1), rs.getLong(2), rs.getInt(8), desc);
    }

    /** CUPTI's memory kind of nsys's ({@code ENUM_CUDA_MEM_KIND}: CUPTI's minus one, 7 unknown). */
    static int cuptiMemoryKind(ResultSet rs, int column) throws SQLException {
        int nsys = rs.getInt(column);
        return rs.wasNull() || nsys < 0 || nsys >= 7 ? 0 : nsys + 1;
    }

    private void memcpy(ResultSet rs) throws IOException, SQLException {
        NsysProcess p = placed(rs, VprofRing.REC_MEMCPY);
        if (p == null) {
            return;
        }
        p.memcpys++;
        RecordEncoder.memcpy(out.to(p.pid), rs.getLong(1), rs.getLong(2), rs.getLong(4), rs.getInt(11), rs.getInt(8),
                rs.getInt(9), rs.getInt(10), rs.getInt(5), cuptiMemoryKind(rs, 6), cuptiMemoryKind(rs, 7), 0);
    }

    private void memset(ResultSet rs) throws IOException, SQLException {
        NsysProcess p = placed(rs, VprofRing.REC_MEMSET);
        if (p == null) {
            return;
        }
        p.memsets++;
        RecordEncoder.memset(out.to(p.pid), rs.getLong(1), rs.getLong(2), rs.getLong(4), rs.getInt(9), rs.getInt(6),
                rs.getInt(7), rs.getInt(8), rs.getInt(5));
    }

    private void api(ResultSet rs) throws IOException, SQLException {
        long start = rs.getLong(1);
        long end = rs.getLong(2);
        long globalTid = rs.getLong(3);
        NsysProcess p = procs.of(globalTid);
        if (!timed(p, start, end, VprofRing.REC_API)) {
            return;
        }
        p.apiCalls++;
        int domain = NsysIds.apiDomain(rs.getInt(5));
        long nameId = rs.getLong(4);
        long key = nameId * 4 + domain;
        Integer cbid = cbids.get(key);
        if (cbid == null) {
            String name = null;
            stringById.setLong(1, nameId);
            try (ResultSet n = stringById.executeQuery()) {
                if (n.next()) {
                    name = n.getString(1);
                }
            }
            cbid = name == null ? -1 : NsysIds.cbid(domain, name);
            if (cbid < 0 && unknownApiNames.size() < NAMES_LISTED) {
                // Names come from the file: escaped before a terminal shows them in the note.
                unknownApiNames.add(name == null ? "(StringIds has no id " + nameId + ")"
                        : TerminalText.escape(name.length() > 80 ? name.substring(0, 80) + "..." : name));
            }
            cbids.put(key, cbid);
        }
        if (cbid < 0) {
            unknownApiCalls++;
        }
        RecordEncoder.api(out.to(p.pid), start, end, rs.getInt(6), Math.max(cbid, 0), domain, NsysIds.tid(globalTid));
    }

    private void nvtx(ResultSet rs) throws IOException, SQLException {
        long start = rs.getLong(1);
        long end = rs.getLong(2);
        boolean hasEnd = !rs.wasNull();
        long globalTid = rs.getLong(3);
        long endTid = rs.getLong(4);
        boolean hasEndTid = !rs.wasNull();
        int type = rs.getInt(5);
        String text = rs.getString(6);
        NsysProcess p = procs.of(globalTid);
        boolean range = type != NsysIds.NVTX_MARK && hasEnd;
        if (type != NsysIds.NVTX_MARK && !hasEnd) {
            openRanges++; // the capture ended inside it: kept as a mark at its start
        }
        if (!timed(p, start, range ? end : start, VprofRing.REC_MARKER)) {
            return;
        }
        int nameId = p.intern(out, text == null ? "" : text);
        int domainId = procs.domain(p, rs.getLong(7));
        int id = p.nextMarker++;
        RecordEncoder.marker(out.to(p.pid), start, id, range ? VprofRing.MARKER_START : VprofRing.MARKER_INSTANT,
                nameId, domainId, NsysIds.tid(globalTid));
        if (range) {
            p.ranges++;
            RecordEncoder.marker(out.to(p.pid), end, id, VprofRing.MARKER_END, 0, domainId,
                    NsysIds.tid(hasEndTid ? endTid : globalTid));
        } else {
            p.marks++;
        }
    }

    /** The DROPS records of what each process kept off the timeline, and the notes of what was odd. */
    private void finish() throws IOException {
        String f = db.file.getFileName().toString();
        for (NsysProcess p : procs.processes()) {
            for (int reason = 0; reason < p.rejected.length; reason++) {
                for (int type = 0; type < p.rejected[reason].length; type++) {
                    long n = p.rejected[reason][type];
                    if (n == 0) {
                        continue;
                    }
                    RecordEncoder.drops(out.to(p.pid), new DropsEvent(reason, 0, 0, type, n));
                    notes.add(f + ": " + n + " " + VprofRing.recordName(type) + " rows of pid " + p.pid
                            + " end before they start; they are counted as rejected and left off the timeline");
                }
            }
        }
        if (unknownApiCalls > 0) {
            notes.add(f + ": " + unknownApiCalls + " CUDA API calls have a name vprof has no CUPTI callback id for ("
                    + String.join(", ", unknownApiNames) + (cbids.values().stream().filter(c -> c < 0).count()
                    > unknownApiNames.size() ? ", ..." : "") + "); they are kept as calls with callback id 0");
        }
        if (danglingNames > 0) {
            notes.add(f + ": " + danglingNames + " names refer to ids StringIds does not hold; they are named by the id");
        }
        if (openRanges > 0) {
            notes.add(f + ": " + openRanges + " NVTX ranges have no end (the capture ended inside them); each is kept "
                    + "as a mark at its start");
        }
        NsysProcess.Names b = procs.budget();
        if (b.overBudget > 0) {
            notes.add(f + ": " + b.overBudget + " rows have a name beyond the " + NsysProcess.Names.MAX_NAMES
                    + " distinct names vprof keeps; they are named \"" + NsysProcess.NAME_NOT_KEPT + "\"");
        }
        if (b.cut > 0) {
            notes.add(f + ": " + b.cut + " names longer than " + VprofRing.STRING_MAX
                    + " bytes were cut to that length");
        }
    }
}
