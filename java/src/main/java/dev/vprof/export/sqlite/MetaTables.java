package dev.vprof.export.sqlite;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.report.Report;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * What the file says about itself and its capture: who wrote it and which schema it follows
 * ({@code META_DATA_EXPORT}, and {@code EXPORT_META_DATA} under its 2.9.1 names for older readers),
 * the capture ({@code META_DATA_CAPTURE}: its processes under nsys's names, the producer under
 * vprof's; {@code VPROF_CAPTURE_FACTS}), when the session started ({@code TARGET_INFO_SESSION_START_TIME})
 * and the span of its events ({@code ANALYSIS_DETAILS}). Names that are not Nsight Systems' start
 * with {@code VPROF_}.
 */
final class MetaTables {
    private MetaTables() {}

    /** A name and value of a two-column table. */
    record Pair(String name, String value) {}

    /**
     * {@code base}: the session start (epoch ns); {@code lastTime}: the latest time a row holds, ns
     * since it (-1: none); {@code time}: epoch ns to ns since the session start.
     */
    static void write(Connection db, SqliteWriter.Facts facts, Timeline layout, long base, long lastTime,
                      LongUnaryOperator time, Instant now) throws SQLException {
        insertPairs(db, "META_DATA_EXPORT", export(facts, base, now, true));
        insertPairs(db, "EXPORT_META_DATA", export(facts, base, now, false));
        insertPairs(db, "META_DATA_CAPTURE", capture(facts, layout));
        insertPairs(db, "VPROF_CAPTURE_FACTS", captureFacts(facts, time));
        try (PreparedStatement st = db.prepareStatement("INSERT INTO TARGET_INFO_SESSION_START_TIME "
                + "(utcEpochNs, utcTime, localTime, systemClockNs) VALUES (?, ?, ?, 0)")) {
            Instant start = Instant.ofEpochSecond(Math.floorDiv(base, 1_000_000_000L), Math.floorMod(base, 1_000_000_000L));
            st.setLong(1, base);
            st.setString(2, DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(start.atOffset(ZoneOffset.UTC).withNano(0)));
            st.setString(3, DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(start.atZone(ZoneId.systemDefault()).withNano(0)));
            st.executeUpdate();
        }
        try (PreparedStatement st = db.prepareStatement("INSERT INTO ANALYSIS_DETAILS "
                + "(globalVid, duration, startTime, stopTime) VALUES (?, ?, 0, ?)")) {
            long stop = Math.max(0, lastTime);
            st.setLong(1, NsysSchema.VM);
            st.setLong(2, stop);
            st.setLong(3, stop);
            st.executeUpdate();
        }
    }

    /**
     * The export's own facts: under 3.25.0's names ({@code current}) or 2.9.1's. Times count from the
     * session start, which nsys calls a normalized time.
     */
    static List<Pair> export(SqliteWriter.Facts facts, long base, Instant now, boolean current) {
        List<Pair> rows = new ArrayList<>();
        rows.add(new Pair("EXPORT_PRODUCT_NAME", "vprof"));
        rows.add(new Pair("EXPORT_PRODUCT_VERSION", facts.vprofVersion()));
        String[] v = NsysSchema.NSYS_SCHEMA_VERSION.split("\\.");
        rows.add(new Pair("EXPORT_SCHEMA_VERSION", NsysSchema.NSYS_SCHEMA_VERSION));
        rows.add(new Pair("EXPORT_SCHEMA_VERSION_MAJOR", v[0]));
        rows.add(new Pair("EXPORT_SCHEMA_VERSION_MINOR", v[1]));
        rows.add(new Pair("EXPORT_SCHEMA_VERSION_MICRO", v[2]));
        rows.add(new Pair("EXPORT_TIME_UTC", DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(now.atOffset(ZoneOffset.UTC).withNano(0))));
        if (current) {
            rows.add(new Pair("EXPORT_PARAM_EXPORT_TYPE", "SQLite"));
            rows.add(new Pair("EXPORT_PARAM_INPUT_FILE", facts.input()));
            rows.add(new Pair("EXPORT_PARAM_TIME_NORMALIZE", "true"));
        } else {
            rows.add(new Pair("EXPORT_INPUT_FILE", facts.input()));
        }
        rows.add(new Pair("VPROF_SCHEMA_VERSION", NsysSchema.VPROF_SCHEMA_VERSION));
        rows.add(new Pair("VPROF_TIME_BASE_EPOCH_NS", Long.toString(base)));
        rows.add(new Pair("VPROF_SKIPPED_COUNT", Integer.toString(facts.skipped().size())));
        for (String s : facts.skipped()) {
            rows.add(new Pair("VPROF_SKIPPED", s));
        }
        return rows;
    }

    /** The capture: its producer, then each process as nsys lists the processes it launched. */
    static List<Pair> capture(SqliteWriter.Facts facts, Timeline layout) {
        List<Pair> rows = new ArrayList<>();
        CaptureMetadata m = facts.metadata();
        rows.add(new Pair("VPROF_CAPTURE_PRODUCT_NAME", "vprof"));
        if (m != null) {
            rows.add(new Pair("VPROF_CAPTURE_PRODUCT_VERSION", m.vprofVersion()));
            rows.add(new Pair("VPROF_CAPTURE_HOST", m.host()));
        }
        List<TimelineProcess> processes = layout.processes();
        for (int i = 0; i < processes.size(); i++) {
            TimelineProcess p = processes.get(i);
            String k = "PROCESS_" + i + ":";
            List<String> argv = p.commandLine();
            rows.add(new Pair(k + "COMMAND", argv.isEmpty() ? p.name() : argv.getFirst()));
            for (int a = 1; a < argv.size(); a++) {
                rows.add(new Pair(k + "ARGUMENT_" + (a - 1), argv.get(a)));
            }
            rows.add(new Pair(k + "PID", Integer.toString(p.pid())));
            rows.add(new Pair(k + "VPROF_SOURCE", source(facts.report(), p.pid())));
        }
        return rows;
    }

    /** What recorded process {@code pid}: vprof's agent, or the source a trace names (a PyTorch profiler trace). */
    private static String source(Report report, int pid) {
        if (report != null) {
            for (Report.ProcessSummary p : report.processes()) {
                if (p.pid() == pid && p.source() != null && p.source().get("source") != null) {
                    return p.source().get("source");
                }
            }
        }
        return "vprof-agent";
    }

    /** vprof's facts of the capture: its options, completeness, window and per-process clocks. */
    static List<Pair> captureFacts(SqliteWriter.Facts facts, LongUnaryOperator time) {
        List<Pair> capture = new ArrayList<>();
        CaptureMetadata m = facts.metadata();
        if (m != null) {
            capture.add(new Pair("host", m.host()));
            capture.add(new Pair("start_epoch_ns", Long.toString(m.startEpochNs())));
            capture.add(new Pair("vprof_version", m.vprofVersion()));
            capture.add(new Pair("command_line", m.commandLine() == null ? null : String.join(" ", m.commandLine())));
            if (m.options() != null) {
                m.options().forEach((k, val) -> capture.add(new Pair("option." + k, val)));
            }
        }
        Report r = facts.report();
        if (r != null) {
            capture.add(new Pair("complete", Boolean.toString(r.complete())));
            if (r.window() != null) {
                capture.add(new Pair("window_start", Long.toString(time.applyAsLong(r.window().startNs()))));
                capture.add(new Pair("window_end", Long.toString(time.applyAsLong(r.window().endNs()))));
                capture.add(new Pair("window_source", r.window().source()));
            }
            capture.add(new Pair("unverified_records", Long.toString(r.totals().unverifiedRecords())));
            for (Report.ProcessSummary p : r.processes()) {
                String k = "process." + p.pid() + ".";
                capture.add(new Pair(k + "command", p.command()));
                capture.add(new Pair(k + "cupti_version", Long.toString(p.cuptiVersion())));
                if (p.rank() != null) {
                    capture.add(new Pair(k + "rank", p.rank().toString()));
                }
                if (p.worldSize() != null) {
                    capture.add(new Pair(k + "world_size", p.worldSize().toString()));
                }
                if (p.clock() != null) {
                    capture.add(new Pair(k + "clock_pairs", Integer.toString(p.clock().pairs())));
                    capture.add(new Pair(k + "clock_drift_ppm", Double.toString(p.clock().driftPpm())));
                }
            }
        }
        return capture;
    }

    private static void insertPairs(Connection db, String table, List<Pair> rows) throws SQLException {
        try (PreparedStatement st = db.prepareStatement("INSERT INTO " + table + " (name, value) VALUES (?, ?)")) {
            for (Pair row : rows) {
                st.setString(1, row.name());
                st.setString(2, row.value());
                st.addBatch();
            }
            st.executeBatch();
        }
    }
}
