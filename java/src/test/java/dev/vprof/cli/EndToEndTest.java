package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real agent in the synthetic GPU process (CUPTI test double), driven by the real CLI.
 * Skipped until the agent, the simulator and the capture writer are all built.
 */
@Timeout(120)
class EndToEndTest {
    private static final Pattern SUMMARY = Pattern.compile(
            "wrote .*: (\\d+) process(?:es)?, (\\d+) ranges?, (\\d+) kernels, (\\d+) records; (\\d+) ring drops, (\\d+) CUPTI drops");
    private static final Pattern DROPPED_KERNELS = Pattern.compile("\\((\\d+) kernels\\) were DROPPED");

    @TempDir
    Path dir;

    private Path simgpu;
    private Path agent;

    record Summary(long processes, long ranges, long kernels, long ringDrops, long ringDropKernels, long cuptiDrops) {}

    @BeforeEach
    void needsTheNativeParts() throws Exception {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"));
        simgpu = nat.resolve("vprof-simgpu").toAbsolutePath();
        agent = nat.resolve("libvprof.so").toAbsolutePath();
        Assumptions.assumeTrue(Files.isExecutable(simgpu), "vprof-simgpu not built yet");
        try (CaptureWriter w = CaptureWriter.create(dir.resolve("probe.vprof"),
                new CaptureMetadata("h", 0, "t", List.of(), Map.of()))) {
            // the writer exists
        } catch (UnsupportedOperationException e) {
            Assumptions.abort("the capture writer is not merged yet");
        }
    }

    private static Summary summary(Cli.Result r) {
        Matcher m = SUMMARY.matcher(r.err());
        assertTrue(m.find(), "no summary in: " + r.err());
        Matcher d = DROPPED_KERNELS.matcher(r.err());
        long droppedKernels = d.find() ? Long.parseLong(d.group(1)) : 0;
        return new Summary(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(5)), droppedKernels, Long.parseLong(m.group(6)));
    }

    private Cli.Result run(String... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.code(), r.err());
        return r;
    }

    private List<String> sim(String... args) {
        List<String> l = new ArrayList<>(List.of(simgpu.toString()));
        l.addAll(List.of(args));
        return l;
    }

    private String[] runArgs(List<String> opts, List<String> cmd) {
        List<String> a = new ArrayList<>(List.of("run"));
        a.addAll(opts);
        a.add("--");
        a.addAll(cmd);
        return a.toArray(String[]::new);
    }

    private static final String[] TWO_RANGES = {"--steps", "300", "--kernels-per-step", "40",
            "--profiler-range", "50:100", "--profiler-range", "200:230"};

    @Test
    void profilerRangesRepeatedRecordBothRangesExactly() {
        Summary s = summary(run(runArgs(List.of("--capture-range=cudaProfilerApi", "--capture-range-end=repeat",
                "-o", dir.resolve("a.vprof").toString()), sim(TWO_RANGES))));
        assertEquals(2, s.ranges());
        assertEquals(3200, s.kernels());
        assertEquals(0, s.ringDrops() + s.cuptiDrops());
    }

    @Test
    void profilerRangeWithStopRecordsOnlyTheFirst() {
        Summary s = summary(run(runArgs(List.of("--capture-range=cudaProfilerApi", "--capture-range-end=stop",
                "-o", dir.resolve("a.vprof").toString()), sim(TWO_RANGES))));
        assertEquals(1, s.ranges());
        assertEquals(2000, s.kernels());
    }

    @Test
    void nvtxRangeRecordsItsStepsOnly() {
        Summary s = summary(run(runArgs(List.of("--capture-range=nvtx:NAME", "-o", dir.resolve("a.vprof").toString()),
                sim("--steps", "300", "--kernels-per-step", "40", "--nvtx-range", "NAME:10:20"))));
        assertEquals(400, s.kernels());
    }

    @Test
    void aSmallRingAccountsForEveryKernelAsRecordedOrDropped() {
        Cli.Result r = run(runArgs(List.of("--capture-range=cudaProfilerApi", "--capture-range-end=repeat",
                "--ring-size", "64k", "-o", dir.resolve("a.vprof").toString()), sim(TWO_RANGES)));
        Summary s = summary(r);
        assertEquals(3200, s.kernels() + s.ringDropKernels() + s.cuptiDrops(), r.err());
        if (s.ringDrops() > 0) {
            assertTrue(r.err().contains("WARNING"), "drops are loud: " + r.err());
        }
    }

    private static int launchedPid(Cli.Result r) {
        Matcher m = Pattern.compile("launched pid (\\d+)").matcher(r.out());
        assertTrue(m.find(), r.out());
        return Integer.parseInt(m.group(1));
    }

    private static List<ListCommand.Row> workers(int root, String state) {
        var tree = dev.vprof.discovery.ProcessTree.read().descendantsOf(root);
        List<ListCommand.Row> out = new ArrayList<>();
        for (ListCommand.Row row : new ListCommand().rows()) {
            if (tree.contains(row.pid()) && row.state().equals(state)) {
                out.add(row);
            }
        }
        return out;
    }

    private static List<ListCommand.Row> awaitWorkers(int root, String state, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<ListCommand.Row> w = workers(root, state);
        while (w.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(100);
            w = workers(root, state);
        }
        return w;
    }

    @Test
    void launchThenAttachTwiceCapturesBothWorkersAndLeavesThemDormant() throws Exception {
        Cli.Result l = Cli.run("launch", "--log", dir.resolve("sim-%p.log").toString(), "--",
                simgpu.toString(), "--workers", "2", "--duration", "60s");
        assertEquals(0, l.code(), l.err());
        int pid = launchedPid(l);
        try {
            assertEquals(2, awaitWorkers(pid, "DORMANT", 2).size(), "both workers listed DORMANT");
            for (int i = 0; i < 2; i++) {
                Summary s = summary(run("attach", "--pid", Integer.toString(pid), "--duration", "2s",
                        "-o", dir.resolve("b" + i + ".vprof").toString()));
                assertEquals(2, s.processes(), "attach " + (i + 1));
                assertTrue(s.kernels() > 0);
                assertEquals(0, s.ringDrops() + s.cuptiDrops());
                assertEquals(2, awaitWorkers(pid, "DORMANT", 2).size(), "DORMANT again after attach " + (i + 1));
            }
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the target keeps running");
        } finally {
            stopTree(pid);
        }
    }

    /** SIGTERM first, so the agents remove their 64 MiB regions; then make sure nothing is left. */
    private static void stopTree(int pid) throws java.io.IOException {
        List<ProcessHandle> all = new ArrayList<>();
        ProcessHandle.of(pid).ifPresent(h -> {
            h.descendants().forEach(all::add);
            all.add(h);
        });
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        for (ProcessHandle h : all) {
            Files.deleteIfExists(Path.of("/dev/shm/vprof." + h.pid()));
        }
    }

    private Process startTarget(String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(sim(args)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("target.log").toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", agent.toString());
        pb.environment().remove("VPROF_ARM");
        return pb.start();
    }

    private Path awaitRegion(long pid) throws InterruptedException {
        Path p = Path.of("/dev/shm/vprof." + pid);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(p) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(p), "the agent made its region");
        return p;
    }

    private AgentState stateOf(Path region) throws Exception {
        try (Region r = Region.open(region, Posix.getuid(), false)) {
            return r.state();
        }
    }

    @Test
    void aFrontEndKilledMidCaptureLeavesTheAgentDisarmedAndTheTargetCompletes() throws Exception {
        Process target = startTarget("--duration", "12s", "--step-us", "2000");
        Path region = awaitRegion(target.pid());
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process fe = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-Dvprof.native.dir=" + agent.getParent(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "attach", "--pid", Long.toString(target.pid()),
                "-o", dir.resolve("k.vprof").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("fe.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!stateOf(region).isActive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(stateOf(region).isActive(), "the front end armed the agent: " + Files.readString(dir.resolve("fe.log")));
        fe.destroyForcibly().waitFor();
        long killed = System.nanoTime();
        while (stateOf(region) != AgentState.DORMANT && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(8)) {
            Thread.sleep(100);
        }
        assertEquals(AgentState.DORMANT, stateOf(region), "the agent disarmed itself without heartbeats");
        assertEquals(0, target.waitFor(), "the target completes normally");
    }

    @Test
    void aTargetKilledMidCaptureKeepsWhatWasDrained() throws Exception {
        Process target = startTarget("--duration", "30s", "--step-us", "1000");
        awaitRegion(target.pid());
        Path file = dir.resolve("t.vprof");
        Cli.Result[] result = new Cli.Result[1];
        Thread t = new Thread(() -> result[0] = Cli.run("attach", "--pid", Long.toString(target.pid()), "-o", file.toString()));
        t.start();
        Thread.sleep(1500);
        target.destroyForcibly().waitFor();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals(0, result[0].code(), result[0].err());
        assertTrue(summary(result[0]).kernels() > 0, result[0].err());
        assertTrue(Files.size(file) > 0);
    }

    @Test
    void aFailedAgentIsListedWithCuptisReasonAndTheTargetRunsOn() throws Exception {
        Path real = Path.of("/usr/local/cuda/lib/libcupti.so.13");
        Assumptions.assumeTrue(Files.exists(real), "no real libcupti here");
        ProcessBuilder pb = new ProcessBuilder(sim("--steps", "200", "--step-us", "10000", "--profiler-range", "1:2"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("f.log").toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", agent.toString());
        pb.environment().put("VPROF_CUPTI_LIB", real.toString());
        Process target = pb.start();
        Path region = awaitRegion(target.pid());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stateOf(region) != AgentState.FAILED && System.nanoTime() < deadline && target.isAlive()) {
            Thread.sleep(50);
        }
        Cli.Result l = Cli.run("list");
        assertTrue(l.out().contains("FAILED") && l.out().contains("CUPTI"), l.out());
        assertEquals(0, target.waitFor());
    }
}
