package dev.vprof.nsys;

import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.RecordEncoder;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The GPUs of {@code TARGET_INFO_GPU} (2.x exports, and vprof's own), as DEVICE records: name, SMs,
 * memory, bandwidth, clock, L2, compute capability, the per-SM and per-block limits and the UUID.
 * A column the export lacks is 0, as the agent leaves what CUPTI did not say. nsys 2026.2's export
 * in the fixtures has no GPU table at all; its devices are then known only by their ids.
 */
final class GpuRows {
    private GpuRows() {}

    /** GPUs one export may list. */
    static final int MAX_GPUS = 4096;

    /** One GPU: its VM (bits 48-63 of a global id, null: every VM), the values of its DEVICE record. */
    record Gpu(Long vm, int id, String name, long memory, long bandwidthKbps, int sms, int major, int minor,
               int clockKhz, int l2, int warp, int threadsPerBlock, int warpsPerSm, int blocksPerSm, int shmemPerSm,
               int shmemPerBlock, int regsPerSm, int regsPerBlock, byte[] uuid) {}

    static List<Gpu> read(NsysDatabase db) throws SQLException {
        List<Gpu> gpus = new ArrayList<>();
        String t = "TARGET_INFO_GPU";
        if (!db.has(t) || !db.columns(t).contains("id")) {
            return gpus;
        }
        String[] cols = {"vmId", "id", "name", "totalMemory", "memoryBandwidth", "smCount", "computeMajor",
            "computeMinor", "clockRate", "l2CacheSize", "threadsPerWarp", "maxThreadsPerBlock", "maxWarpsPerSm",
            "maxBlocksPerSm", "maxShmemPerSm", "maxShmemPerBlock", "maxRegistersPerSm", "maxRegistersPerBlock", "uuid"};
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < cols.length; i++) {
            sql.append(i == 0 ? "" : ", ").append(db.column(t, "g", cols[i]));
        }
        sql.append(" FROM ").append(t).append(" AS g WHERE g.id IS NOT NULL LIMIT ").append(MAX_GPUS);
        try (Statement st = db.statement(); ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                long vmId = rs.getLong(1);
                gpus.add(new Gpu(rs.wasNull() ? null : NsysIds.vm(vmId), rs.getInt(2), rs.getString(3), rs.getLong(4),
                        rs.getLong(5) / 1000, rs.getInt(6), rs.getInt(7), rs.getInt(8), (int) (rs.getLong(9) / 1000),
                        rs.getInt(10), rs.getInt(11), rs.getInt(12), rs.getInt(13), rs.getInt(14), rs.getInt(15),
                        rs.getInt(16), rs.getInt(17), rs.getInt(18), uuid(rs.getString(19))));
            }
        }
        return gpus;
    }

    /** {@code 74e128b2-90b6-b409-07c8-33bee5ff6f88} (or without dashes, or {@code GPU-...}) as 16 bytes; null otherwise. */
    static byte[] uuid(String text) {
        if (text == null) {
            return null;
        }
        String hex = text.strip().replace("GPU-", "").replace("-", "");
        if (hex.length() != 32) {
            return null;
        }
        try {
            return HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Writes {@code g} as a DEVICE record of {@code pid}, its name interned as {@code nameId} (0: none). */
    static void write(RecordOut out, int pid, Gpu g, int nameId) throws IOException {
        RecordEncoder.device(out.to(pid), new DeviceProperties(g.id(), g.name(), g.memory(), g.bandwidthKbps(), g.sms(),
                g.major(), g.minor(), g.clockKhz(), g.l2(), g.warp(), g.threadsPerBlock(), g.warpsPerSm(),
                g.blocksPerSm(), g.shmemPerSm(), g.shmemPerBlock(), g.regsPerSm(), g.regsPerBlock(), false, false,
                g.uuid() == null ? null : HexFormat.of().formatHex(g.uuid())), nameId);
    }
}
