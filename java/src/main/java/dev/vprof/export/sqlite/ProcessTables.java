package dev.vprof.export.sqlite;

import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.LongUnaryOperator;

/**
 * The processes and what belongs to them: {@code PROCESSES}, {@code ThreadNames} (every thread, so
 * that a join of NVTX ranges or API calls to their thread loses none: {@link #name}),
 * {@code VPROF_THREADS} (every thread's globalTid with the thread id its source gave, whole
 * ({@link ThreadIds}), and whether the source named it), {@code TARGET_INFO_CUDA_STREAM} (each stream with its context) and
 * {@code VPROF_CAPTURE_RANGES}.
 */
final class ProcessTables {
    private ProcessTables() {}

    /** {@code time}: epoch ns to ns since the session start. */
    static void write(Connection db, Timeline layout, ThreadIds threads, StringIds strings, LongUnaryOperator time)
            throws SQLException {
        try (PreparedStatement proc = db.prepareStatement("INSERT INTO PROCESSES (globalPid, pid, name) VALUES (?, ?, ?)");
             PreparedStatement stream = db.prepareStatement("INSERT INTO TARGET_INFO_CUDA_STREAM (streamId, hwId, vmId, "
                     + "processId, contextId, priority, flag) VALUES (?, 0, 1, ?, ?, 0, " + NsysSchema.STREAM_TYPE_UNKNOWN + ")");
             PreparedStatement range = db.prepareStatement("INSERT INTO VPROF_CAPTURE_RANGES "
                     + "(globalPid, pid, rangeIndex, start, end, source) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (TimelineProcess p : layout.processes()) {
                long gpid = NsysSchema.globalPid(p.pid());
                proc.setLong(1, gpid);
                proc.setInt(2, p.pid());
                proc.setString(3, p.name());
                proc.executeUpdate();
                for (GpuDevice d : p.devices()) {
                    for (GpuStream s : d.streams()) {
                        stream.setLong(1, s.streamId());
                        stream.setInt(2, p.pid());
                        stream.setInt(3, Math.max(0, s.contextId()));
                        stream.executeUpdate();
                    }
                }
                for (CaptureRange r : p.captureRanges()) {
                    range.setLong(1, gpid);
                    range.setInt(2, p.pid());
                    range.setInt(3, r.index());
                    range.setLong(4, time.applyAsLong(r.startNs()));
                    range.setLong(5, time.applyAsLong(r.endNs()));
                    range.setString(6, r.source());
                    range.executeUpdate();
                }
            }
        }
        try (PreparedStatement names = db.prepareStatement("INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (?, NULL, ?)");
             PreparedStatement ids = db.prepareStatement("INSERT INTO VPROF_THREADS (globalTid, pid, tid, namedBySource) "
                     + "VALUES (?, ?, ?, ?)")) {
            for (ThreadIds.Thread t : threads.rows()) {
                names.setInt(1, strings.of(name(t.thread())));
                names.setLong(2, t.globalTid());
                names.addBatch();
                ids.setLong(1, t.globalTid());
                ids.setInt(2, t.pid());
                ids.setLong(3, t.tid());
                ids.setInt(4, t.thread().name().isEmpty() ? 0 : 1);
                ids.addBatch();
            }
            names.executeBatch();
            ids.executeBatch();
        }
    }

    /**
     * A thread's own name, where the source gave one; else its process's, the name Linux gives a
     * process's threads until one renames itself (a thread starts with its creator's name).
     */
    static String name(CpuThread thread) {
        return thread.name().isEmpty() ? thread.process().name() : thread.name();
    }
}
