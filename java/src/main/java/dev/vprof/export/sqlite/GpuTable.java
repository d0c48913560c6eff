package dev.vprof.export.sqlite;

import dev.vprof.capture.DeviceProperties;
import dev.vprof.report.Report;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code TARGET_INFO_GPU}: one row per GPU (by CUDA device id) with what the capture knows of it:
 * name, SM count, memory, bandwidth, clock, UUID, compute capability and the per-block and per-SM
 * limits, from the capture's DEVICE records or a trace's {@code deviceProperties} (the report's
 * {@link DeviceProperties}), else from the timeline's device. A value the source did not give is NULL.
 */
final class GpuTable {
    private GpuTable() {}

    static void write(Connection db, Timeline layout, Report report) throws SQLException {
        Map<Integer, DeviceProperties> props = new LinkedHashMap<>();
        if (report != null) {
            for (Report.ProcessSummary p : report.processes()) {
                if (p.devices() != null) {
                    p.devices().forEach(d -> props.putIfAbsent(d.id(), d));
                }
            }
        }
        Set<Integer> seen = new HashSet<>();
        try (PreparedStatement st = db.prepareStatement("INSERT INTO TARGET_INFO_GPU (vmId, id, name, l2CacheSize, "
                + "totalMemory, memoryBandwidth, clockRate, smCount, uuid, cuDevice, maxRegistersPerBlock, "
                + "maxShmemPerBlock, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, maxWarpsPerSm, maxBlocksPerSm, "
                + "maxThreadsPerBlock, computeMajor, computeMinor) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (TimelineProcess p : layout.processes()) {
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
                    // A minor version of 0 is a value, once the major one is known.
                    int minor = d != null ? d.computeMinor() : g.computeMinor();
                    int major = d != null ? d.computeMajor() : g.computeMajor();
                    if (major > 0 && minor >= 0) {
                        st.setInt(20, minor);
                    } else {
                        st.setNull(20, Types.INTEGER);
                    }
                    st.executeUpdate();
                }
            }
        }
    }

    /** {@code v}, or NULL where 0 means "not recorded". */
    private static void positive(PreparedStatement st, int i, long v) throws SQLException {
        if (v > 0) {
            st.setLong(i, v);
        } else {
            st.setNull(i, Types.INTEGER);
        }
    }
}
