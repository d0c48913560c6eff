package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.Timeline;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A GPU's row from the timeline's device when no DEVICE record names it; what is not known is NULL. */
class GpuTableTest {
    @Test
    void eachGpuOnceWithWhatIsKnownOfIt() throws Exception {
        Timeline t = new Timeline();
        t.process(1, "a", List.of()).device(0).properties("NVIDIA H100 80GB HBM3", 85_000_000_000L, 9, 0, 132)
                .limits(new GpuDevice.Limits(32, 1024, 2048, 65536, 65536, 232448, 49152));
        t.process(2, "b", List.of()).device(0);
        t.process(2, "b", List.of()).device(1);
        try (Connection c = Databases.withAllTables()) {
            GpuTable.write(c, t, null);
            List<List<String>> rows = Databases.query(c, "SELECT vmId, id, name, totalMemory, smCount, computeMajor, "
                    + "computeMinor, threadsPerWarp, maxThreadsPerBlock, l2CacheSize FROM TARGET_INFO_GPU ORDER BY id");
            assertEquals(2, rows.size(), "device 0 once, however many processes use it");
            assertEquals(List.of(Long.toString(NsysSchema.VM), "0", "NVIDIA H100 80GB HBM3", "85000000000", "132", "9", "0",
                    "32", "1024"), rows.get(0).subList(0, 9));
            assertEquals(null, rows.get(0).get(9), "no L2 size without a DEVICE record");
            assertEquals(Arrays.asList("1", null, null, null, null, null, null), rows.get(1).subList(1, 8),
                    "a device nothing describes");
        }
    }
}
