package dev.vprof.nsys;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Where an export's times lie on the wall clock. nsys writes every time in ns on its session's
 * clock: relative to the session's start in 2.x exports and in 3.x ones written with
 * {@code EXPORT_PARAM_TIME_NORMALIZE} true, else on the target's system clock, whose reading at
 * the session's start is {@code TARGET_INFO_SESSION_START_TIME.systemClockNs}; {@code utcEpochNs}
 * in the same row is that start in epoch ns. Each process gets two clock pairs on this line (the
 * session's start and end), so the capture's one clock fit places every time.
 *
 * @param firstNs the session's start on the export's clock
 * @param lastNs its end (the start plus ANALYSIS_DETAILS' duration, else one second later)
 * @param startEpochNs the session's start in epoch ns (0 when the export does not say)
 * @param anchored whether the export gave the session's start in epoch ns
 */
record SessionClock(long firstNs, long lastNs, long startEpochNs, boolean anchored) {
    private static final long ONE_SECOND = 1_000_000_000L;

    /** The epoch ns of session time {@code t}. */
    long epochNs(long t) {
        return startEpochNs + (t - firstNs);
    }

    static SessionClock read(NsysDatabase db, List<String> notes) throws SQLException {
        boolean normalized = "true".equalsIgnoreCase(db.meta("EXPORT_PARAM_TIME_NORMALIZE"));
        String table = "TARGET_INFO_SESSION_START_TIME";
        long epoch = 0;
        long systemClock = 0;
        boolean found = false;
        if (db.has(table) && db.columns(table).contains("utcEpochNs")) {
            String clockColumn = db.columns(table).contains("systemClockNs") ? "systemClockNs" : "NULL";
            try (Statement st = db.statement(); ResultSet rs = st.executeQuery("SELECT utcEpochNs, " + clockColumn
                    + " FROM " + table + " WHERE utcEpochNs IS NOT NULL LIMIT 1")) {
                if (rs.next()) {
                    epoch = rs.getLong(1);
                    systemClock = rs.getLong(2);
                    found = true;
                }
            }
        }
        if (!found) {
            notes.add(db.file + ": the export has no TARGET_INFO_SESSION_START_TIME row, so its times are not placed "
                    + "on the wall clock: its timeline starts near 1970");
        }
        long span = ONE_SECOND;
        if (db.has("ANALYSIS_DETAILS") && db.columns("ANALYSIS_DETAILS").contains("duration")) {
            try (Statement st = db.statement(); ResultSet rs = st.executeQuery("SELECT max(duration) FROM ANALYSIS_DETAILS")) {
                if (rs.next() && rs.getLong(1) > 0) {
                    span = rs.getLong(1);
                }
            }
        }
        long first = normalized ? 0 : systemClock;
        return new SessionClock(first, first + span, epoch, found);
    }
}
