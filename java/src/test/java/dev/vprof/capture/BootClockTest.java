package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CLOCK_SYNC's boot time: the 40-byte record read with it, the 32-byte record of older agents and
 * files read without it (and without a complaint), and the capture's boot clock taken from the
 * agent's pairs, else the front end's pair, else nowhere.
 */
class BootClockTest {
    private static final long R0 = 1_760_000_000_000_000_000L;
    /** The host had been up 1,000 s at R0: CLOCK_REALTIME − CLOCK_BOOTTIME. */
    private static final long BOOTED_AT = R0 - 1_000_000_000_000L;
    private static final int PID = 4242;

    @TempDir
    Path dir;

    private Path write(RingRecords r, Map<String, String> options) throws IOException {
        return r.writeFile(dir.resolve("boot-" + System.nanoTime() + ".vprof"),
                new CaptureMetadata("host", R0, "0.1.0", List.of("vprof"), options),
                new ProcessInfo(PID, 1, "python3", 130000, 1, 1 << 20, R0));
    }

    private static List<ClockSync> syncs(CaptureReader c) {
        List<ClockSync> out = new ArrayList<>();
        c.forEachRecord(new RecordVisitor() {
            @Override
            public void clockSync(int pid, ClockSync s) {
                out.add(s);
            }
        });
        return out;
    }

    @Test
    void theAgentsPairsGiveWhereTheHostBooted() throws IOException {
        RingRecords r = new RingRecords();
        for (int i = 0; i < 5; i++) {
            long t = R0 + i * 1_000_000_000L;
            // one pair read across a wall-clock step of +2 s: the median keeps what the others say
            long boot = t - BOOTED_AT - (i == 3 ? 2_000_000_000L : 0);
            r.clockSync(t + 7, t, 5_000 + i, boot);
        }
        try (CaptureReader c = CaptureReader.open(write(r, Map.of()))) {
            List<ClockSync> s = syncs(c);
            assertEquals(5, s.size());
            assertTrue(s.stream().allMatch(ClockSync::hasBoottime));
            assertEquals(R0 - BOOTED_AT, s.getFirst().boottimeNs());
            assertEquals(BOOTED_AT, c.clocks().get(PID).bootOffsetNs().getAsLong());
            Optional<BootClock> b = BootClock.of(c);
            assertEquals(new BootClock(BOOTED_AT, BootClock.AGENT), b.orElseThrow());
            assertEquals(1_000_000_000_000L, b.get().toBoottimeNs(R0));
            assertEquals(List.of(), c.warnings());
        }
    }

    @Test
    void olderRecordsWithoutBoottimeStillReadAndTheFrontEndsPairIsUsed() throws IOException {
        RingRecords r = new RingRecords().clockSyncWithoutBoottime(R0 + 7, R0, 5_000)
                .clockSyncWithoutBoottime(R0 + 1_000_000_007L, R0 + 1_000_000_000L, 6_000);
        long frontEndBoot = 999_000_000_000L; // read 1 s before R0 by the front end
        Map<String, String> options = Map.of(CaptureMetadata.START_REALTIME, Long.toString(R0 - 1_000_000_000L),
                CaptureMetadata.START_BOOTTIME, Long.toString(frontEndBoot));
        try (CaptureReader c = CaptureReader.open(write(r, options))) {
            List<ClockSync> s = syncs(c);
            assertEquals(2, s.size(), "a 32-byte CLOCK_SYNC is whole, not malformed: " + c.warnings());
            assertFalse(s.getFirst().hasBoottime());
            assertEquals(R0, s.getFirst().realtimeNs());
            assertEquals(-7, c.clocks().get(PID).offsetNs(), "the fit still uses the pairs");
            assertTrue(c.clocks().get(PID).bootOffsetNs().isEmpty());
            assertEquals(new BootClock(R0 - 1_000_000_000L - frontEndBoot, BootClock.FRONT_END), BootClock.of(c).orElseThrow());
            assertEquals(List.of(), c.warnings());
        }
    }

    @Test
    void aCaptureThatReadNoBootTimeHasNone() throws IOException {
        RingRecords r = new RingRecords().clockSync(R0 + 7, R0, 5_000); // boottime_ns 0: not read
        try (CaptureReader c = CaptureReader.open(write(r, Map.of(CaptureMetadata.START_REALTIME, Long.toString(R0))))) {
            assertFalse(syncs(c).getFirst().hasBoottime());
            assertEquals(Optional.empty(), BootClock.of(c));
        }
        // a front-end pair that cannot be one (boot time after the wall clock, or not a number) is none
        assertTrue(new CaptureMetadata("h", R0, "v", List.of(), Map.of(CaptureMetadata.START_REALTIME, "5",
                CaptureMetadata.START_BOOTTIME, "9"))
                .bootOffsetNs().isEmpty());
        assertTrue(new CaptureMetadata("h", R0, "v", List.of(), Map.of(CaptureMetadata.START_REALTIME, "x",
                CaptureMetadata.START_BOOTTIME, "9"))
                .bootOffsetNs().isEmpty());
    }

    @Test
    void aClockSyncShorterThanTheOldRecordIsMalformed() throws IOException {
        RingRecords r = new RingRecords().raw(24, 24, VprofRing.REC_CLOCK_SYNC);
        try (CaptureReader c = CaptureReader.open(write(r, Map.of()))) {
            assertEquals(0, syncs(c).size());
            assertTrue(c.warnings().stream().anyMatch(w -> w.contains("CLOCK_SYNC")), c.warnings().toString());
        }
    }
}
