package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.inject.Injector;
import dev.vprof.inject.LateInjection;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code vprof attach --inject} against vprof-simgpu processes started WITHOUT the agent: the real
 * injector, the real agent, the CUPTI test double. Skipped where the native parts are not built
 * or where this machine forbids ptrace (Yama, seccomp): {@code vprof doctor} says which.
 */
@Timeout(120)
class AttachInjectTest {
    private static final Pattern SUMMARY = Pattern.compile(
            "wrote .*: (\\d+) process(?:es)?, (\\d+) ranges?, (\\d+) kernels, (\\d+) records; (\\d+) ring drops, (\\d+) CUPTI drops");
    private static final Pattern SIM_LINE = Pattern.compile("vprof-simgpu: pid=(\\d+) role=(\\w+) (.*)");

    @TempDir
    Path dir;

    private Path simgpu;
    private Path agent;
    private Path injector;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void needsTheNativeParts() {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native")).toAbsolutePath();
        simgpu = nat.resolve("vprof-simgpu");
        agent = nat.resolve("libvprof.so");
        injector = nat.resolve("vprof-inject");
        Assumptions.assumeTrue(Files.isExecutable(simgpu) && Files.isExecutable(injector) && Files.exists(agent),
                "the native parts are not built");
    }

    @AfterEach
    void stopTargets() throws Exception {
        // Latest first: a tracer must go before its tracee, which stays a zombie until its tracer lets go.
        for (Process p : started.reversed()) {
            List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
            all.add(p.toHandle());
            all.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle h : all) {
                h.onExit().get(10, TimeUnit.SECONDS);
                Files.deleteIfExists(Path.of("/dev/shm/vprof." + h.pid()));
            }
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** vprof-simgpu started plainly: no CUDA_INJECTION64_PATH, no VPROF_ARM; stderr to a file. */
    private Process startPlain(String log, String... args) throws IOException {
        return start(log, false, args);
    }

    private Process start(String log, boolean withAgent, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(simgpu.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(dir.resolve(log).toFile());
        pb.environment().remove("CUDA_INJECTION64_PATH");
        pb.environment().remove("VPROF_ARM");
        pb.environment().remove("LD_PRELOAD");
        if (withAgent) {
            pb.environment().put("CUDA_INJECTION64_PATH", agent.toString());
        }
        Process p = pb.start();
        started.add(p);
        return p;
    }

    /** Skips the test where ptrace is not allowed here; the refusal itself is covered by unit tests. */
    private void assumeInjectionPossible(long pid) throws IOException {
        Injector.Result r = new Injector(injector).check((int) pid);
        Assumptions.assumeTrue(r.exitCode() == 0, "injection is not possible here: " + r.detail());
    }

    /** The real command line, with the attach command prepared by {@code setup} (prompt, injector). */
    private static Cli.Result attach(Consumer<AttachCommand> setup, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        AttachCommand a = cl.getSubcommands().get("attach").getCommand();
        a.prompt = null; // no terminal, whatever the test runner has
        setup.accept(a);
        List<String> all = new ArrayList<>(List.of("attach"));
        all.addAll(List.of(args));
        int code = cl.execute(all.toArray(String[]::new));
        return new Cli.Result(code, out.toString(), err.toString());
    }

    private static Cli.Result attach(String... args) {
        return attach(a -> {}, args);
    }

    private static long[] summary(Cli.Result r) {
        Matcher m = SUMMARY.matcher(r.err());
        assertTrue(m.find(), "no summary in: " + r.err());
        long[] v = new long[6];
        for (int i = 0; i < 6; i++) {
            v[i] = Long.parseLong(m.group(i + 1));
        }
        return v;
    }

    /** The simulator's closing line per role, without pid and wall-clock fields. */
    private static Map<String, String> simSummaries(Path log) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = SIM_LINE.matcher(line);
            if (m.find()) {
                out.merge(m.group(2), m.group(3).replaceAll(" loop_(cpu_)?ns=\\d+", ""), (a, b) -> a + " | " + b);
            }
        }
        return out;
    }

    private static long field(String summary, String name) {
        Matcher m = Pattern.compile(name + "=(\\d+)").matcher(summary);
        assertTrue(m.find(), name + " in " + summary);
        return Long.parseLong(m.group(1));
    }

    private static AgentState stateOf(long pid) {
        Path path = Path.of("/dev/shm/vprof." + pid);
        if (!Files.exists(path)) {
            return null;
        }
        try (Region r = Region.open(path, Posix.getuid(), false)) {
            return r.state();
        } catch (RegionException e) {
            return null;
        }
    }

    private static void awaitState(long pid, AgentState want) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (stateOf(pid) != want) {
            assertTrue(System.nanoTime() < deadline, "pid " + pid + " never reached " + want + " (now " + stateOf(pid) + ")");
            Thread.sleep(20);
        }
    }

    /** Sends one serve-mode command and waits for its "ok". */
    private static void send(BufferedWriter in, BufferedReader out, String command) throws IOException {
        in.write(command);
        in.newLine();
        in.flush();
        assertEquals("ok", out.readLine(), "reply to " + command);
    }

    private static boolean mapsAgent(long pid) throws IOException {
        return Files.readString(Path.of("/proc/" + pid + "/maps")).contains("libvprof.so");
    }

    // ---- tests ----------------------------------------------------------------------------------

    private static final List<String> BEFORE = List.of("step 64 8", "step 0 8");
    private static final List<String> RANGE = List.of("start", "step 128 4", "step 0 16", "step 32 8", "step 0 16", "stop");
    private static final List<String> AFTER = List.of("step 0 8", "exit");

    private Map<String, String> serveRun(String log, List<String> commands) throws Exception {
        Process p = startPlain(log, "--serve");
        try (var in = new BufferedWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
             var out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String c : commands) {
                send(in, out, c);
            }
        }
        assertEquals(0, p.waitFor(), "uninjected run's exit code");
        return simSummaries(dir.resolve(log));
    }

    @Test
    void anInjectedServeTargetRecordsExactlyTheKernelsOfItsProfilerRangeAndFinishesUnchanged() throws Exception {
        List<String> all = new ArrayList<>(BEFORE);
        all.addAll(RANGE);
        all.addAll(AFTER);
        Map<String, String> reference = serveRun("ref.log", all);

        Process p = startPlain("run.log", "--serve");
        assumeInjectionPossible(p.pid());
        Path file = dir.resolve("serve.vprof");
        CompletableFuture<Cli.Result> capture;
        try (var in = new BufferedWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
             var out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String c : BEFORE) {
                send(in, out, c); // work before the agent exists: never recorded
            }
            capture = CompletableFuture.supplyAsync(() -> attach("--pid", Long.toString(p.pid()), "--inject",
                    "--capture-range=cudaProfilerApi", "--capture-range-end=stop", "-o", file.toString()));
            awaitState(p.pid(), AgentState.ARMED);
            for (String c : RANGE) {
                send(in, out, c);
            }
            Cli.Result r = capture.get(60, TimeUnit.SECONDS); // the range's stop ends the capture
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains("loading the agent into pid " + p.pid()), r.err());
            assertTrue(r.err().contains("were not seen"), "the late agent says what it missed: " + r.err());
            for (String c : AFTER) {
                send(in, out, c);
            }
            assertEquals(0, p.waitFor(), "the injected target's exit code");
            Map<String, String> run = simSummaries(dir.resolve("run.log"));
            assertEquals(reference, run, "the same closing line as the uninjected run");
            long[] s = summary(r);
            assertEquals(1, s[0]);
            assertEquals(1, s[1], "one range");
            assertEquals(field(run.get("single"), "kernels_in_profiler_ranges"), s[2]);
            assertTrue(s[2] > 0 && s[2] < field(run.get("single"), "kernels"), "only the range's kernels: " + s[2]);
            assertEquals(0, s[4] + s[5], "no drops");
        }
    }

    @Test
    void twoWorkersStartedPlainlyAreInjectedRecordedAndReusedByASecondAttach() throws Exception {
        Process p = startPlain("workers.log", "--workers", "2", "--duration", "60s", "--step-us", "1000");
        List<Long> workers = awaitWorkersWithCuda(p, 2);
        assumeInjectionPossible(workers.getFirst());
        Path file = dir.resolve("x.vprof");
        Cli.Result first = attach("--pid", Long.toString(p.pid()), "--inject", "--duration", "3s", "-o", file.toString());
        assertEquals(0, first.code(), first.err());
        long[] s = summary(first);
        assertEquals(2, s[0], "both workers: " + first.err());
        assertEquals(0, s[4] + s[5], "no drops");
        Map<Integer, Long> perPid = kernelsPerPid(file);
        for (long w : workers) {
            assertTrue(perPid.getOrDefault((int) w, 0L) > 0, "kernels of worker " + w + ": " + perPid);
            assertTrue(mapsAgent(w), "worker " + w + " has the agent");
        }
        assertFalse(mapsAgent(p.pid()), "the parent has no CUDA and gets no agent");
        assertFalse(Files.exists(Path.of("/dev/shm/vprof." + p.pid())));

        Cli.Result second = attach("--pid", Long.toString(p.pid()), "--duration", "1s",
                "-o", dir.resolve("y.vprof").toString());
        assertEquals(0, second.code(), second.err());
        assertFalse(second.err().contains("loading the agent"), second.err());
        assertEquals(2, summary(second)[0], "the second attach reuses both agents");

        Cli.Result third = attach("--pid", Long.toString(p.pid()), "--inject", "--duration", "1s",
                "-o", dir.resolve("z.vprof").toString());
        assertEquals(0, third.code(), third.err());
        assertFalse(third.err().contains("loading the agent"), "never injected twice: " + third.err());
        assertFalse(third.err().contains("warning"), third.err());

        p.destroy(); // SIGTERM: the simulation ends its step and exits normally
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        Map<String, String> lines = simSummaries(dir.resolve("workers.log"));
        assertEquals(2, lines.get("worker").split(" \\| ").length, lines.toString());
    }

    /**
     * The documented inject walkthrough exactly, {@code vprof simulate --workers 2 --duration 60s} with
     * its defaults: unpaced forked workers that never block in a waiting system call and keep a
     * dead return address into fork on their stacks (refused every time by the old stack scan),
     * plus libcuda's helper threads. Both are injected and captured. Drops are not asserted:
     * unpaced workers launch about 3 M kernels/s each, more than a loaded 2-core machine drains,
     * and the ring counts what it drops (the paced test above asserts none).
     */
    @Test
    void documentedWalkthroughInjectsBothUnpacedWorkers() throws Exception {
        Process p = startPlain("acceptance.log", "--workers", "2", "--duration", "60s");
        List<Long> workers = awaitWorkersWithCuda(p, 2);
        assumeInjectionPossible(workers.getFirst());
        Path file = dir.resolve("x.vprof");
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "--inject", "--duration", "3s", "-o", file.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(2, summary(r)[0], "both workers: " + r.err());
        Map<Integer, Long> perPid = kernelsPerPid(file);
        for (long w : workers) {
            assertTrue(r.err().contains("vprof: loaded the agent into pid " + w + " (borrowed thread "),
                    "says which thread was borrowed and what showed it safe: " + r.err());
            assertTrue(perPid.getOrDefault((int) w, 0L) > 0, "kernels of worker " + w + ": " + perPid);
        }
        p.destroy();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        assertEquals(2, simSummaries(dir.resolve("acceptance.log")).get("worker").split(" \\| ").length);
    }

    /** The hardest case: single-threaded workers (--bare), busy every instant, never in a system call. */
    @Test
    void bareBusySingleThreadedWorkersAreInjectedToo() throws Exception {
        Process p = startPlain("bare.log", "--workers", "2", "--duration", "60s", "--bare");
        List<Long> workers = awaitWorkersWithCuda(p, 2);
        for (long w : workers) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/" + w + "/task"))) {
                assertEquals(1, tasks.count(), "--bare: one thread");
            }
        }
        assumeInjectionPossible(workers.getFirst());
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "--inject", "--duration", "1s",
                "-o", dir.resolve("bare.vprof").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(2, summary(r)[0], r.err());
        p.destroy();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("bare.log")));
    }

    @Test
    void onATerminalATreeOfWorkersIsAskedOnceListingEveryProcess() throws Exception {
        Process p = startPlain("tree.log", "--workers", "2", "--serve");
        List<Long> workers = awaitWorkersWithCuda(p, 2);
        List<String> questions = new ArrayList<>();
        Cli.Result r = attach(a -> a.prompt = q -> {
            questions.add(q);
            return false;
        }, "--pid", Long.toString(p.pid()), "-o", dir.resolve("a.vprof").toString());
        assertEquals(1, questions.size(), "one question for the tree: " + questions);
        String q = questions.getFirst();
        assertTrue(q.startsWith("2 processes use CUDA but have no vprof agent:"), q);
        String shown = asPrompted(simgpu + " --workers 2 --serve");
        for (long w : workers) {
            assertTrue(q.contains("  pid " + w + " (" + shown + ")"), q);
        }
        assertTrue(q.endsWith("inject the agent into all 2 now? [y/N] "), q);
        assertEquals(2, r.code());
        for (long w : workers) {
            assertFalse(mapsAgent(w), "no means no: " + w);
        }
    }

    @Test
    void aBadInjectTimeoutIsRefusedBeforeAnythingIsTouched() throws Exception {
        Process p = startPlain("timeout.log", "--serve");
        awaitMapping(p.pid(), "simcuda-context");
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "--inject", "--inject-timeout", "2h",
                "-o", dir.resolve("a.vprof").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--inject-timeout must be between 1ms and 1h"), r.err());
        assertFalse(mapsAgent(p.pid()));
    }

    @Test
    void aProcessThatAlreadyHasTheAgentIsAttachedNotInjected() throws Exception {
        Process p = start("with-agent.log", true, "--duration", "60s", "--step-us", "1000");
        awaitState(p.pid(), AgentState.DORMANT);
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "--inject", "--duration", "1s",
                "-o", dir.resolve("a.vprof").toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("loading the agent"), r.err());
        assertEquals(1, summary(r)[0]);
    }

    @Test
    void aPidThatIsGoneIsReported() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "--inject", "-o", dir.resolve("a.vprof").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no process with pid " + p.pid()), r.err());
    }

    @Test
    void injectIntoATreeWithoutCudaSaysThereIsNothingToInjectInto() throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        started.add(p);
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "--inject", "-o", dir.resolve("a.vprof").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("none of them has CUDA loaded"), r.err());
    }

    @Test
    void doctorSaysWhetherInjectionIsPossibleHere() {
        Cli.Result r = Cli.run("doctor");
        Matcher m = Pattern.compile("(OK|WARN) +injection +attach --inject is (possible|not possible)").matcher(r.out());
        assertTrue(m.find(), r.out());
    }

    @Test
    void withoutATerminalOrInjectTheNoAgentErrorSuggestsInject() throws Exception {
        Process p = startPlain("plain.log", "--serve");
        awaitMapping(p.pid(), "simcuda-context");
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "-o", dir.resolve("a.vprof").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no vprof agent in pid " + p.pid()), r.err());
        assertTrue(r.err().contains("use --inject to load the agent into the running process"), r.err());
        assertFalse(mapsAgent(p.pid()), "nothing was injected");
    }

    /** A command line as the prompts show it: cut to 80 characters (a checkout in a deep folder). */
    private static String asPrompted(String command) {
        return command.length() > 80 ? command.substring(0, 77) + "..." : command;
    }

    @Test
    void onATerminalTheUserIsAskedAndNoMeansNoInjection() throws Exception {
        Process p = startPlain("asked.log", "--serve");
        awaitMapping(p.pid(), "simcuda-context");
        List<String> questions = new ArrayList<>();
        Cli.Result r = attach(a -> a.prompt = q -> {
            questions.add(q);
            return false;
        }, "--pid", Long.toString(p.pid()), "-o", dir.resolve("a.vprof").toString());
        assertEquals(List.of("pid " + p.pid() + " (" + asPrompted(simgpu + " --serve") + ") uses CUDA but has no vprof agent; "
                + "inject it now? [y/N] "), questions);
        assertEquals(2, r.code());
        assertFalse(mapsAgent(p.pid()));
    }

    @Test
    void aTargetTracedByAnotherToolIsRefusedWithTheRemedy() throws Exception {
        Path tracerBin = injector.getParent().resolve("test/inject/inject_target");
        Assumptions.assumeTrue(Files.isExecutable(tracerBin), "inject_target is built by make -C native check");
        Process p = startPlain("traced.log", "--serve");
        awaitMapping(p.pid(), "simcuda-context");
        assumeInjectionPossible(p.pid());
        Path tdir = Files.createDirectory(dir.resolve("tracer"));
        Process tracer = new ProcessBuilder(tracerBin.toString(), "trace", Long.toString(p.pid()), tdir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("tracer.log").toFile()).start();
        started.add(tracer);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(tdir.resolve("ready"))) {
            assertTrue(tracer.isAlive() && System.nanoTime() < deadline, "the tracer did not start");
            Thread.sleep(10);
        }
        Cli.Result r = attach("--pid", Long.toString(p.pid()), "--inject", "-o", dir.resolve("a.vprof").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("already traced"), r.err());
        assertTrue(r.err().contains("detach that tool and retry"), r.err());
        assertTrue(r.err().contains("process " + tracer.pid()), "names the tracer: " + r.err());
        assertFalse(mapsAgent(p.pid()));
    }

    /**
     * A process whose only thread sits inside dlopen (a library constructor that never returns)
     * can never be injected: the refusal gives the injector's reason once (which thread, where,
     * what decided), uses the wait it was given, and does not advise waiting longer.
     */
    @Test
    void aProcessStuckInTheLoaderIsRefusedWithTheRealReasonOnce() throws Exception {
        Path bin = injector.getParent().resolve("test/inject");
        Assumptions.assumeTrue(Files.isExecutable(bin.resolve("inject_target")), "built by make -C native check");
        Path tdir = Files.createDirectory(dir.resolve("hang"));
        Process p = new ProcessBuilder(bin.resolve("inject_target").toString(), "hang", tdir.toString(),
                bin.resolve("inject_hang_lib.so").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("hang.log").toFile()).start();
        started.add(p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(tdir.resolve("ready"))) {
            assertTrue(p.isAlive() && System.nanoTime() < deadline, "the target did not start");
            Thread.sleep(10);
        }
        assumeInjectionPossible(p.pid());
        StringWriter err = new StringWriter();
        LateInjection late = new LateInjection(new Injector(injector), agent, AgentDirectory.system(), Posix.getuid(),
                new PrintWriter(err, true)).safePointWait(java.time.Duration.ofMillis(300));
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.vprof.inject.InjectionException.class,
                () -> late.injectAll(List.of((int) p.pid())));
        String m = e.getMessage();
        assertTrue(m.startsWith("cannot load the agent into pid " + p.pid() + ": no thread of process " + p.pid()
                + " was at a safe point within 300 ms"), m);
        assertTrue(m.contains("the dynamic loader (ld-"), "names where the thread is: " + m);
        assertTrue(m.contains("decided by its call chain"), "says what decided: " + m);
        assertEquals(m.indexOf("safe point"), m.lastIndexOf("safe point"), "the reason once: " + m);
        assertTrue(m.contains("waiting longer will not help") && m.contains("--explain"), m);
        assertTrue(p.isAlive(), "the target is untouched");
        assertFalse(mapsAgent(p.pid()));
    }

    @Test
    void aLibraryTheTargetCannotLoadIsReportedWithDlerror() throws Exception {
        Process p = startPlain("bad.log", "--serve");
        awaitMapping(p.pid(), "simcuda-context");
        assumeInjectionPossible(p.pid());
        Path bad = dir.resolve("libnot-an-elf.so");
        Files.writeString(bad, "this is not a shared library\n");
        StringWriter err = new StringWriter();
        Cli.Result r = attach(a -> a.lateInjection = new LateInjection(new Injector(injector), bad,
                AgentDirectory.system(), Posix.getuid(), new PrintWriter(err, true)),
                "--pid", Long.toString(p.pid()), "--inject", "-o", dir.resolve("a.vprof").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("could not load the agent " + bad), r.err());
        assertTrue(r.err().contains("dlopen") || r.err().contains("ELF"), "dlerror's text: " + r.err());
        assertTrue(p.isAlive(), "the target survives a failed dlopen");
    }

    // ---- waiting on the targets -------------------------------------------------------------------

    private static List<Long> awaitChildren(Process p, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            List<Long> kids = p.children().map(ProcessHandle::pid).sorted().toList();
            if (kids.size() >= n) {
                return kids;
            }
            assertTrue(System.nanoTime() < deadline, "the workers did not start");
            Thread.sleep(10);
        }
    }

    /** The first n workers of p, once each has initialized the simulated CUDA. */
    private static List<Long> awaitWorkersWithCuda(Process p, int n) throws Exception {
        List<Long> workers = awaitChildren(p, n);
        for (long w : workers) {
            awaitMapping(w, "simcuda-context");
        }
        return workers;
    }

    /** Waits until pid maps a file whose name contains {@code name} (the simulator's "CUDA is up"). */
    private static void awaitMapping(long pid, String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.readString(Path.of("/proc/" + pid + "/maps")).contains(name)) {
            assertTrue(System.nanoTime() < deadline, "pid " + pid + " never mapped " + name);
            Thread.sleep(10);
        }
    }

    private static Map<Integer, Long> kernelsPerPid(Path file) throws IOException {
        Map<Integer, Long> out = new HashMap<>();
        try (CaptureReader r = CaptureReader.open(file)) {
            assertNotNull(r);
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    out.merge(pid, 1L, Long::sum);
                }
            });
        }
        return out;
    }
}
