package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureReader;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Either side of a capture killed with SIGKILL in the middle of it. */
@Timeout(120)
class KilledMidCaptureTest {
    private static final Pattern SUMMARY_KERNELS = Pattern.compile("vprof: wrote .*?, (\\d+) kernels, ");
    /** The agent's own account of the silence when it disarmed (control_thread.c). */
    private static final Pattern SILENT = Pattern.compile("front end pid (\\d+) silent for ([0-9.]+) s; disarmed");

    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    /** What a test does with its target while it runs; the target's process tree is stopped after. */
    private interface WithTarget {
        void run(Process target) throws Exception;
    }

    /** Starts the target for {@code duration}, one kernel every {@code stepUs}, and stops it after {@code body}. */
    private void withTarget(String duration, String stepUs, WithTarget body) throws Exception {
        Process target = e2e.startTarget(dir.resolve("target.log"), "--duration", duration, "--step-us", stepUs);
        try {
            body.run(target);
        } finally {
            E2e.stopTree(target.pid());
        }
    }

    private static void awaitArmed(String what, Path region) throws InterruptedException {
        E2e.await(what, 15_000, () -> {
            AgentState s = E2e.stateOf(region);
            return s != null && s.isActive();
        });
    }

    @Test
    void aFrontEndKilledMidCaptureLeavesTheAgentDisarmedWithinFiveSecondsAndTheTargetExitsZero() throws Exception {
        withTarget("12s", "2000", target -> {
            Path region = E2e.awaitRegion(target.pid());
            Process fe = new ProcessBuilder(e2e.vprofCommand("attach", "--pid", Long.toString(target.pid()),
                    "-o", dir.resolve("k.vprof").toString()))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("fe.log").toFile()).start();
            awaitArmed("the front end to arm the agent", region);
            fe.destroyForcibly().waitFor();
            E2e.await("the agent to disarm by itself", 10_000, () -> E2e.stateOf(region) == AgentState.DORMANT);

            // The agent measures the silence on its own clock: 5 s of timeout plus its 10 ms tick;
            // the bound leaves room for a loaded machine delaying that tick, not for a second timeout.
            Matcher m = SILENT.matcher(E2e.reasonOf(region));
            assertTrue(m.find(), "the agent says why it disarmed: " + E2e.reasonOf(region));
            assertEquals(fe.pid(), Long.parseLong(m.group(1)));
            double silent = Double.parseDouble(m.group(2));
            assertTrue(silent >= 5.0 && silent < 6.0, "disarmed after " + silent + " s of silence");
            assertTrue(target.waitFor(30, TimeUnit.SECONDS), "the target completes");
            assertEquals(0, target.exitValue(), "the target exits 0: " + Files.readString(dir.resolve("target.log")));
        });
    }

    /**
     * What the front end had drained is the ring's head (it publishes head as it hands records to
     * the writer); what it kept is the records in the file. Sampling head every millisecond while
     * the capture runs tells when the front end drained the first record the file lacks: the loss
     * is the time from then to the SIGKILL. 4,000 kernels a second fill a 1 MiB chunk in 8 s, so
     * without a timed flush the file would hold nothing of these 3 s.
     */
    @Test
    void aFrontEndKilledWithSigkillLosesAtMostOneSecondOfWhatItDrained() throws Exception {
        Path file = dir.resolve("killed.vprof");
        withTarget("30s", "10000", target -> {
            Path regionFile = E2e.awaitRegion(target.pid());
            E2e.await("the agent to be ready", 10_000, () -> E2e.stateOf(regionFile) == AgentState.DORMANT);
            List<long[]> heads = new ArrayList<>(); // {System.nanoTime(), head}
            long killedAt;
            try (Region region = Region.open(regionFile, Posix.getuid(), false)) {
                assertEquals(0, region.head(), "a fresh target: nothing drained before this capture");
                Process fe = new ProcessBuilder(e2e.vprofCommand("attach", "--pid", Long.toString(target.pid()),
                        "-o", file.toString()))
                        .redirectErrorStream(true).redirectOutput(dir.resolve("fe.log").toFile()).start();
                E2e.await("the front end to drain records", 15_000, () -> region.head() > 0);
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (System.nanoTime() - until < 0) {
                    heads.add(new long[] {System.nanoTime(), region.head()});
                    Thread.sleep(1);
                }
                killedAt = System.nanoTime();
                fe.destroyForcibly().waitFor();
                assertTrue(region.capacity() > region.head(), "the ring never wrapped: head counts record bytes only");
            }
            long kept;
            try (CaptureReader c = CaptureReader.open(file)) {
                assertFalse(c.complete(), "killed: no footer");
                kept = c.recordsBytes() - (long) CaptureFormat.RECORDS_HEADER_SIZE * c.chunks(CaptureFormat.KIND_RECORDS).size();
            }
            // The first moment head passed what the file keeps: the oldest drained record it lacks.
            long firstLostAt = heads.stream().filter(h -> h[1] > kept).mapToLong(h -> h[0]).findFirst().orElse(killedAt);
            double lostSeconds = (killedAt - firstLostAt) / 1e9;
            long drained = heads.getLast()[1];
            System.out.printf("SIGKILL: drained %d bytes, the file keeps %d; what it lacks was drained in the last %.3f s%n",
                    drained, kept, lostSeconds);
            assertTrue(kept > 0, "the file keeps records drained before the kill");
            assertTrue(lostSeconds <= 1.0, "lost the last " + lostSeconds + " s of what was drained (" + kept + " of "
                    + drained + " bytes kept)");
        });
    }

    @Test
    void aTargetKilledMidCaptureLeavesAFileThatKeepsEverythingDrained() throws Exception {
        Path file = dir.resolve("t.vprof");
        withTarget("30s", "1000", target -> {
            Path region = E2e.awaitRegion(target.pid());
            Cli.Result[] result = new Cli.Result[1];
            Thread t = new Thread(() -> result[0] = Cli.run("attach", "--pid", Long.toString(target.pid()),
                    "-o", file.toString()));
            t.start();
            awaitArmed("the capture to start", region);
            Thread.sleep(1000); // let some kernels through
            target.destroyForcibly().waitFor();
            t.join(TimeUnit.SECONDS.toMillis(30));
            E2e.ok(result[0]);
            Matcher m = SUMMARY_KERNELS.matcher(result[0].err());
            assertTrue(m.find(), result[0].err());
            long drained = Long.parseLong(m.group(1));
            assertTrue(drained > 0, result[0].err());

            JsonNode r = E2e.report(file);
            assertTrue(r.get("complete").asBoolean(), "the front end finished the file");
            assertEquals(drained, E2e.kernels(r), "the file holds every kernel the front end drained");
            assertEquals(target.pid(), r.at("/processes/0/pid").asLong());
        });
    }
}
