package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The front end's boot clock pair at a capture's start and end, against the kernel's /proc/uptime (CLOCK_BOOTTIME in 10 ms steps). */
class NodeEvidenceTest {
    private static long uptimeNs() throws IOException {
        String[] f = Files.readString(Path.of("/proc/uptime")).strip().split("\\s+");
        return Math.round(Double.parseDouble(f[0]) * 1e9);
    }

    @Test
    void theStartAndEndCarryTheHostsBootClock() throws IOException {
        long before = uptimeNs();
        Map<String, String> start = NodeEvidence.atStart();
        long after = uptimeNs();
        long boot = Long.parseLong(start.get(NodeEvidence.START_BOOTTIME));
        // uptime is truncated to 10 ms
        assertTrue(boot >= before && boot <= after + 10_000_000, before + " <= " + boot + " <= " + after);
        long realtime = Long.parseLong(start.get(NodeEvidence.START_REALTIME));
        long bootedAt = new CaptureMetadata("h", realtime, "v", List.of(), start).bootOffsetNs().getAsLong();
        long bootedAtByUptime = System.currentTimeMillis() * 1_000_000L - uptimeNs();
        assertTrue(Math.abs(bootedAt - bootedAtByUptime) < 100_000_000L, bootedAt + " vs " + bootedAtByUptime);
        Map<String, Long> end = NodeEvidence.atEnd();
        assertTrue(end.get(NodeEvidence.END_BOOTTIME) >= boot, end.toString());
        // the two pairs agree on where the host booted (no wall-clock step in between)
        long endBootedAt = end.get(NodeEvidence.END_REALTIME) - end.get(NodeEvidence.END_BOOTTIME);
        assertTrue(Math.abs(endBootedAt - bootedAt) < 1_000_000, endBootedAt + " vs " + bootedAt);
    }
}
