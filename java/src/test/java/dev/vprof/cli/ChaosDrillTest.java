package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.region.AgentState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos drill (docs/reliability.md): attach/detach cycles against a two-worker
 * synthetic server under load, the front end SIGKILLed at a random moment in a third of them.
 *
 * <p>The server is {@code vprof-simgpu --workers 2 --serve}, fed steps as fast as it takes them,
 * in blocks of {@code start}, {@value #STEPS_PER_RANGE} steps, {@code stop}: every profiler range
 * of every worker holds exactly {@code STEPS_PER_RANGE x kernels per step} kernels. Each cycle is
 * {@code vprof attach --capture-range=cudaProfilerApi --capture-range-end=repeat} in its own JVM,
 * ended by {@code --duration} or by SIGKILL. Checked:
 * <ul>
 * <li>targets harmed 0: both workers and the parent live through every cycle, exit 0, and their
 *     own summary lines count exactly the kernels they were told to launch;</li>
 * <li>every file that exists reads ({@code vprof report --json}): exit 0, or, for a file a SIGKILL
 *     left unclosed, exit 3 with the sentence that says it was never closed;</li>
 * <li>drop accounting exact: in every range a file holds whole (begun and ended by the profiler),
 *     the kernels of one block = recorded + dropped by the full ring + rejected + missing (kernels
 *     CUPTI dropped are among the missing: its drop counts name no record), from the file's own
 *     figures; and in every file the ranges' ring drops add up to no more than the totals, the
 *     agent's counters.</li>
 * </ul>
 * Ranges cut by a detach or a kill are counted, not checked: no oracle knows their size.
 * The workers' rings are 64 KiB, small enough for this load to overflow, so that the accounting
 * has drops in it; {@code -Dvprof.chaos.ring=SIZE} sets another size ({@code default}: the
 * agent's, 64 MiB, where nothing overflows). {@code -Dvprof.chaos.cycles=N} sets the number of
 * cycles (bench/scripts/chaos.sh); CI runs 10.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ChaosDrillTest {
    static final int STEPS_PER_RANGE = 100;
    /** About twice the simulated GPU time of one block's work (1.1 ms a step), so that its range can end whole. */
    private static final long PAUSE_MS = 250;
    private static final String STEP = "step 64 8";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    /** Feeds the server whole blocks until told to stop, then {@code exit}. */
    private static final class Feeder extends Thread {
        final OutputStream in;
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong blocks = new AtomicLong();
        volatile IOException failure;

        Feeder(OutputStream in) {
            super("chaos-feeder");
            this.in = in;
            setDaemon(true);
        }

        @Override
        public void run() {
            byte[] block = ("start\n" + (STEP + "\n").repeat(STEPS_PER_RANGE) + "stop\n").getBytes(StandardCharsets.US_ASCII);
            try {
                while (!stop.get()) {
                    in.write(block);
                    in.flush();
                    blocks.incrementAndGet();
                    // A pause between ranges: the agent ends a range only once the work launched in it has
                    // completed (docs/cupti.md), and a range begun before that cuts it short (counted,
                    // not checked). Unpaced, the simulated GPU falls ever further behind the launches.
                    Thread.sleep(PAUSE_MS);
                }
                in.write("exit\n".getBytes(StandardCharsets.US_ASCII));
                in.close();
            } catch (IOException e) {
                failure = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The seed CI runs the drill with. */
    static final long CI_SEED = 20261201L;

    @Test
    void attachDetachCyclesWithRandomSigkillsHarmNoTargetAndEveryFileAccountsForItsRanges() throws Exception {
        int cycles = Integer.getInteger("vprof.chaos.cycles", 10);
        // A fixed seed under CI, so a failure there reproduces with the seed it prints;
        // elsewhere a new one each run, to keep exploring (bench/scripts/chaos.sh SEED replays one).
        long seed = Long.getLong("vprof.chaos.seed", "true".equals(System.getenv("CI")) ? CI_SEED : System.nanoTime());
        System.out.println("chaos: seed " + seed);
        Random rnd = new Random(seed);
        List<Boolean> killed = new ArrayList<>();
        for (int i = 0; i < cycles; i++) {
            killed.add(i < cycles / 3);
        }
        Collections.shuffle(killed, rnd);

        Path simLog = dir.resolve("sim.log");
        ProcessBuilder pb = new ProcessBuilder(e2e.sim("--workers", "2", "--serve"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(simLog.toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", e2e.agent.toString());
        pb.environment().remove("VPROF_ARM");
        // Rings this load overflows, so that the accounting has drops in it: each range is charged
        // its own records' drops (docs/cupti.md), which the exact check below holds it to.
        String ring = System.getProperty("vprof.chaos.ring", "64k");
        if (ring.equals("default")) {
            pb.environment().remove("VPROF_RING_SIZE");
        } else {
            pb.environment().put("VPROF_RING_SIZE", ring);
        }
        Process server = pb.start();
        Feeder feeder = new Feeder(server.getOutputStream());
        List<ProcessHandle> workers = new ArrayList<>();
        int files = 0, readable = 0, checkedRanges = 0, partialRanges = 0, sigkills = 0;
        long ringDropped = 0, cuptiDropped = 0, outsideRanges = 0, missingKernels = 0;
        long kernelsPerRange = 40L * STEPS_PER_RANGE;
        long t0 = System.nanoTime();
        try {
            E2e.await("the two workers", 15_000, () -> server.children().count() == 2);
            server.children().forEach(workers::add);
            feeder.start();
            for (ProcessHandle w : workers) {
                Path region = E2e.awaitRegion(w.pid());
                E2e.await("worker " + w.pid() + "'s agent", 15_000, () -> E2e.stateOf(region) == AgentState.DORMANT);
            }
            for (int i = 0; i < cycles; i++) {
                Path file = dir.resolve("cycle-" + i + ".vprof");
                List<String> cmd = e2e.vprofCommand("attach", "--pid", Long.toString(server.pid()),
                        "--capture-range=cudaProfilerApi", "--capture-range-end=repeat", "-o", file.toString());
                boolean kill = killed.get(i);
                long runMs = 300L + rnd.nextInt(2700);
                if (!kill) {
                    cmd.add("--duration=" + runMs + "ms");
                }
                Path feLog = dir.resolve("cycle-" + i + ".log");
                Process fe = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(feLog.toFile()).start();
                if (kill) {
                    // Any moment from 0.1 s to 4 s after the JVM started: before it arms, while
                    // arming, before the file exists, while draining.
                    fe.waitFor(100 + rnd.nextInt(3900), TimeUnit.MILLISECONDS);
                    fe.destroyForcibly().waitFor();
                    sigkills++;
                } else {
                    assertTrue(fe.waitFor(60, TimeUnit.SECONDS), "cycle " + i + " ends by its --duration");
                    assertEquals(0, fe.exitValue(), "cycle " + i + ": " + Files.readString(feLog));
                }
                assertTrue(server.isAlive() && workers.stream().allMatch(ProcessHandle::isAlive),
                        "cycle " + i + " harmed a target: " + Files.readString(simLog));
                if (!Files.exists(file)) {
                    assertTrue(kill, "cycle " + i + " wrote no file: " + Files.readString(feLog));
                    continue;
                }
                files++;
                Cli.Result r = Cli.run("report", "--json", file.toString());
                // A front end SIGKILLed mid-capture leaves a file its writer never closed: it reads, and
                // says it was read only partly (exit 3); one that ended by its --duration is whole.
                boolean neverClosed = r.err().contains("was read only partly: it was never closed by its writer");
                assertEquals(kill && neverClosed ? ExitCode.READ_PARTLY.code() : 0, r.code(),
                        "cycle " + i + (kill ? " (SIGKILLed)" : "") + ": the file reads: " + r.err());
                readable++;
                JsonNode report = JSON.readTree(r.out());
                long rangesRing = 0, rangesRingKernels = 0;
                for (JsonNode range : report.get("ranges")) {
                    rangesRing += range.get("ring_drops").asLong();
                    rangesRingKernels += range.get("ring_drops_kernels").asLong();
                }
                JsonNode totals = report.get("totals");
                assertTrue(rangesRing <= totals.get("ring_drops").asLong()
                                && rangesRingKernels <= totals.get("ring_drops_kernels").asLong(),
                        "cycle " + i + ": the ranges' ring drops add up to no more than the agent's counters: " + totals);
                outsideRanges += totals.get("ring_drops").asLong() - rangesRing;
                for (JsonNode range : report.get("ranges")) {
                    if (range.get("index").asInt() == 0) {
                        continue; // records outside every range
                    }
                    JsonNode fidelity = range.path("fidelity");
                    if (!"profiler".equals(range.get("source").asText())
                            || !"profiler".equals(range.path("end_source").asText())
                            || fidelity.path("warnings").toString().contains("cut_short")) {
                        partialRanges++;
                        continue;
                    }
                    assertEquals(kernelsPerRange, fidelity.path("kernel_launches").asLong(),
                            "cycle " + i + ": the agent counted every launch of the range: " + range);
                    long recorded = range.get("kernels").asLong();
                    long ringDrops = range.get("ring_drops_kernels").asLong();
                    long cuptiDrops = range.get("cupti_drops").asLong();
                    long missing = fidelity.path("kernels_missing").asLong();
                    assertTrue(ringDrops <= range.get("ring_drops").asLong(),
                            "cycle " + i + ": kernels are among the records dropped: " + range);
                    assertEquals(kernelsPerRange, recorded + ringDrops + rejected(fidelity) + missing,
                            "cycle " + i + ": recorded + ring drops + rejected + missing = launched: " + range);
                    checkedRanges++;
                    ringDropped += ringDrops;
                    cuptiDropped += cuptiDrops;
                    missingKernels += missing;
                }
            }
        } finally {
            feeder.stop.set(true);
            feeder.join(30_000);
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                E2e.stopTree(server.pid());
            }
        }
        assertEquals(null, feeder.failure, "the server took every command");
        assertEquals(0, server.exitValue(), "the server exits 0: " + Files.readString(simLog));
        long blocks = feeder.blocks.get();
        List<String> lines = Files.readAllLines(simLog).stream().filter(l -> l.contains("role=worker")).toList();
        assertEquals(2, lines.size(), Files.readString(simLog));
        for (String line : lines) {
            assertTrue(line.contains(" kernels=" + blocks * kernelsPerRange + " ")
                    && line.contains(" kernels_in_profiler_ranges=" + blocks * kernelsPerRange + " "),
                    "each worker launched exactly what it was told (" + blocks + " ranges): " + line);
        }
        assertTrue(checkedRanges > 0, "no whole range was captured: the drill proved nothing");
        System.out.printf("chaos: %d cycles (%d SIGKILLed) in %.0f s, seed %d, rings %s; %d files, %d readable; %d whole"
                        + " ranges accounted exactly (recorded + ring drops + rejected + missing = %d each; %d kernel ring"
                        + " drops, %d missing, %d CUPTI drops), %d ring drops outside any range; %d cut short (by a detach,"
                        + " a kill or the next range); targets harmed 0 (2 workers, %d ranges of %d kernels each, exit 0)%n",
                cycles, sigkills, (System.nanoTime() - t0) / 1e9, seed, ring, files, readable, checkedRanges,
                kernelsPerRange, ringDropped, missingKernels, cuptiDropped, outsideRanges, partialRanges, blocks,
                kernelsPerRange);
    }

    /** Records the agent rejected as invalid, every reason (the drill's work is kernels only). */
    private static long rejected(JsonNode fidelity) {
        long n = 0;
        var it = fidelity.path("rejected").fields();
        while (it.hasNext()) {
            n += it.next().getValue().asLong();
        }
        return n;
    }
}
