package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.cli.Cli;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clock snapshots of a {@code .pftrace}, decoded with Perfetto's own schema: BOOTTIME is the
 * host's time since boot where the capture recorded it (the agent's clock pairs, else the front
 * end's pair), and a source without one (a PyTorch trace, an older capture) claims none, its
 * trace clock being REALTIME. The times of the events follow: converted through the trace's own
 * snapshots, a kernel at epoch time T is at T − (where the host booted) on BOOTTIME.
 */
class PerfettoBootClockTest {
    private static final long R0 = 1_790_000_000_000_000_000L;
    /** The host had been up 1,000 s at R0. */
    private static final long BOOTED_AT = R0 - 1_000_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** A capture of one process with two kernels at R0 + 100 ms and + 200 ms; clock pairs with or without a boot time. */
    private Path capture(boolean agentBoot, Map<String, String> options) throws IOException {
        RingRecords r = new RingRecords();
        for (int i = 0; i < 3; i++) {
            long t = R0 + i * 150L * MS;
            r.clockSync(t, t, i, agentBoot ? t - BOOTED_AT : 0);
        }
        r.string(1, "gemm").kernelDesc(1, 1, 0, 7).kernel(R0 + 100 * MS, R0 + 110 * MS, 5, 1)
                .kernel(R0 + 200 * MS, R0 + 230 * MS, 6, 1);
        return r.writeFile(dir.resolve("c" + System.nanoTime() + ".vprof"),
                new CaptureMetadata("gpu-0", R0, "0.1.0", List.of("vprof"), options),
                new ProcessInfo(77, 1, "python3", 130000, 1, 1 << 20, R0));
    }

    private byte[] export(Path input) throws IOException {
        Path out = dir.resolve("t" + System.nanoTime() + ".pftrace");
        Cli.ok("export", input.toString(), "-o", out.toString());
        return Files.readAllBytes(out);
    }

    private static List<Map<String, Object>> snapshots(byte[] trace) throws IOException {
        List<String> problems = new ArrayList<>();
        List<Map<String, Object>> s = PerfettoSchemaDecodeTest.clockSnapshots(trace, problems);
        assertEquals(List.of(), problems);
        assertFalse(s.isEmpty(), "no clock snapshot");
        return s;
    }

    /** The trace's first snapshot says where the host booted, and its kernels convert to BOOTTIME with it. */
    private static void bootTimeIsTheHosts(byte[] trace) throws IOException {
        List<Map<String, Object>> snaps = snapshots(trace);
        Map<String, Object> first = snaps.getFirst();
        long realtime = (Long) first.get("REALTIME"), boottime = (Long) first.get("BOOTTIME");
        assertEquals("BUILTIN_CLOCK_BOOTTIME", first.get("primary_trace_clock"));
        // not the epoch relabelled (the old snapshot said BOOTTIME = REALTIME = about 1.8e18 ns)
        assertEquals(BOOTED_AT, realtime - boottime, "BOOTTIME " + boottime + " at REALTIME " + realtime);
        assertTrue(boottime < 10_000_000_000_000L, "BOOTTIME is a time since boot: " + boottime);
        // every other snapshot ties a sequence's incremental clock to REALTIME, and claims no BOOTTIME
        for (Map<String, Object> s : snaps.subList(1, snaps.size())) {
            assertEquals(List.of("64", "REALTIME"), List.copyOf(s.keySet()), s.toString());
        }
        PerfettoTraceReader r = PerfettoTraceReader.read(trace);
        List<Long> kernelStarts = new ArrayList<>();
        for (PerfettoTraceReader.Event e : r.events) {
            if ("gemm".equals(e.name()) && e.type() == 1) {
                assertEquals(PerfettoTraceReader.REALTIME, e.clock());
                kernelStarts.add(r.on(e, PerfettoTraceReader.BOOTTIME));
            }
        }
        assertEquals(List.of(R0 + 100 * MS - BOOTED_AT, R0 + 200 * MS - BOOTED_AT), kernelStarts);
    }

    @Test
    void theAgentsClockPairsGiveBoottime() throws IOException {
        bootTimeIsTheHosts(export(capture(true, Map.of())));
    }

    @Test
    void theFrontEndsPairGivesBoottimeWhereTheAgentReadNone() throws IOException {
        long feRealtime = R0 - 5 * MS;
        bootTimeIsTheHosts(export(capture(false, Map.of(CaptureMetadata.START_REALTIME, Long.toString(feRealtime),
                CaptureMetadata.START_BOOTTIME, Long.toString(feRealtime - BOOTED_AT)))));
    }

    /** A source without a boot time: no BOOTTIME anywhere, REALTIME the trace clock and the events' clock. */
    private static void claimsNoBootTime(byte[] trace) throws IOException {
        List<Map<String, Object>> snaps = snapshots(trace);
        assertEquals("BUILTIN_CLOCK_REALTIME", snaps.getFirst().get("primary_trace_clock"));
        for (Map<String, Object> s : snaps) {
            assertFalse(s.containsKey("BOOTTIME"), "a BOOTTIME claimed: " + s);
            assertTrue(s.containsKey("REALTIME"), s.toString());
        }
        PerfettoTraceReader r = PerfettoTraceReader.read(trace);
        assertFalse(r.events.isEmpty());
        assertTrue(r.events.stream().allMatch(e -> e.clock() == PerfettoTraceReader.REALTIME));
    }

    @Test
    void aPyTorchTraceClaimsNoBootTime() throws IOException {
        claimsNoBootTime(export(TraceOracle.REAL.resolve("hta/trace_filter/sampled_rank-0.json.gz")));
    }

    @Test
    void aCaptureFromBeforeBootTimesClaimsNone() throws IOException {
        claimsNoBootTime(export(SyntheticCapture.write(dir.resolve("old.vprof"), true)));
        claimsNoBootTime(export(capture(false, Map.of())));
    }
}
