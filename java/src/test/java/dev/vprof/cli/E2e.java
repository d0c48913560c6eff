package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the end-to-end tests share: the native parts (the real agent and the synthetic GPU process
 * behind the CUPTI test double), and checking a capture the way a user does, through
 * {@code vprof report --json FILE}.
 */
final class E2e {
    private static final ObjectMapper JSON = new ObjectMapper();

    final Path simgpu;
    final Path agent;

    private E2e(Path simgpu, Path agent) {
        this.simgpu = simgpu;
        this.agent = agent;
    }

    /**
     * The native build. Missing parts fail the test (they never skip it): a CI run without them
     * would otherwise pass while proving nothing.
     */
    static E2e nativeParts() {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native")).toAbsolutePath();
        Path simgpu = nat.resolve("vprof-simgpu");
        Path agent = nat.resolve("libvprof.so");
        if (!Files.isExecutable(simgpu) || !Files.isRegularFile(agent)) {
            fail("the native build is missing: " + simgpu + " and " + agent + " must exist; build them with "
                    + "`make -C native` (or `mvn -pl java -am verify`, which runs it)");
        }
        return new E2e(simgpu, agent);
    }

    /**
     * native/test/agent_field_target: what real servers do to a CUPTI agent (a graph server, a
     * stop without synchronize, torch.profiler in the same process, one-rank ranges), run through
     * /bin/sh with {@code env} ("K=V" assignments) and its stderr appended to {@code log}.
     */
    List<String> fieldTarget(Path log, List<String> env, String... args) {
        Path target = agent.getParent().resolve("test/agent_field_target");
        if (!Files.isExecutable(target)) {
            fail(target + " is missing; build it with `make -C native check`");
        }
        StringBuilder sh = new StringBuilder();
        for (String e : env) {
            sh.append(e).append(' ');
        }
        sh.append("exec \"$0\" \"$@\" 2>>'").append(log).append("'");
        List<String> l = new ArrayList<>(List.of("/bin/sh", "-c", sh.toString(), target.toString()));
        l.addAll(List.of(args));
        return l;
    }

    /** vprof-simgpu with these arguments. */
    List<String> sim(String... args) {
        List<String> l = new ArrayList<>(List.of(simgpu.toString()));
        l.addAll(List.of(args));
        return l;
    }

    /**
     * vprof-simgpu with these arguments, its stderr (where it prints its summary line) appended to
     * {@code log}. The shell execs the simulator, so the pid vprof sees is the simulator's.
     */
    List<String> simLogged(Path log, String... args) {
        List<String> l = new ArrayList<>(List.of("/bin/sh", "-c", "exec \"$0\" \"$@\" 2>>'" + log + "'"));
        l.addAll(sim(args));
        return l;
    }

    /**
     * {@code vprof ARGS} in a JVM of its own, from the test classpath: a front end that can be
     * SIGKILLed, or run under a terminal, without touching the test's JVM.
     */
    List<String> vprofCommand(String... args) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> l = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-Dvprof.native.dir=" + agent.getParent(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        l.addAll(List.of(args));
        return l;
    }

    /** vprof-simgpu with these arguments and the agent (dormant: no VPROF_ARM), its output to {@code log}. */
    Process startTarget(Path log, String... args) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(sim(args)).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", agent.toString());
        pb.environment().remove("VPROF_ARM");
        return pb.start();
    }

    /** {@code vprof run OPTS -- CMD}, which must exit 0. */
    static Cli.Result run(List<String> opts, List<String> cmd) {
        List<String> a = new ArrayList<>(List.of("run"));
        a.addAll(opts);
        a.add("--");
        a.addAll(cmd);
        return ok(Cli.run(a.toArray(String[]::new)));
    }

    static Cli.Result ok(Cli.Result r) {
        assertEquals(0, r.code(), "exit code; stderr: " + r.err());
        return r;
    }

    /** {@code vprof report --json FILE}: exit 0, parsed. */
    static JsonNode report(Path file) {
        Cli.Result r = ok(Cli.run("report", "--json", file.toString()));
        try {
            return JSON.readTree(r.out());
        } catch (IOException e) {
            throw new AssertionError("vprof report --json printed no JSON: " + r.out(), e);
        }
    }

    /**
     * {@code vprof report --json FILE} of a capture its writer never closed (killed, or stopped by a
     * full disk): exit 3, read partly, and says so; parsed.
     */
    static JsonNode reportNeverClosed(Path file) {
        Cli.Result r = Cli.run("report", "--json", file.toString());
        assertEquals(ExitCode.READ_PARTLY.code(), r.code(), "exit code; stderr: " + r.err());
        assertTrue(r.err().contains("vprof report: " + file + " was read only partly: it was never closed by its writer"),
                r.err());
        try {
            return JSON.readTree(r.out());
        } catch (IOException e) {
            throw new AssertionError("vprof report --json printed no JSON: " + r.out(), e);
        }
    }

    /** {@code vprof list --json}, parsed. */
    static JsonNode list() {
        Cli.Result r = ok(Cli.run("list", "--json"));
        try {
            return JSON.readTree(r.out());
        } catch (IOException e) {
            throw new AssertionError("vprof list --json printed no JSON: " + r.out(), e);
        }
    }

    static long kernels(JsonNode report) {
        return report.at("/totals/kernels").asLong();
    }

    /** Every way a record can be lost, as the report counts them. */
    static long lost(JsonNode report) {
        JsonNode t = report.get("totals");
        return t.get("ring_drops").asLong() + t.get("cupti_drops").asLong() + t.get("zero_timestamp_kernels").asLong();
    }

    /** One field of the simulator's summary line(s) in its log, summed over its processes. */
    static long simCount(Path log, String field) throws IOException {
        String text = Files.readString(log);
        Matcher m = Pattern.compile("vprof-simgpu: pid=\\d+ role=(\\w+) .*\\b" + field + "=(\\d+)").matcher(text);
        long sum = 0;
        boolean any = false;
        while (m.find()) {
            sum += Long.parseLong(m.group(2));
            any = true;
        }
        assertTrue(any, "no summary line with " + field + " in: " + text);
        return sum;
    }

    static void await(String what, long timeoutMs, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeoutMs + " ms waiting for: " + what);
            }
            Thread.sleep(50);
        }
    }

    static Path awaitRegion(long pid) throws InterruptedException {
        Path p = Path.of("/dev/shm/vprof." + pid);
        await("the agent of pid " + pid + " to make " + p, 10_000, () -> Files.exists(p));
        return p;
    }

    /** The agent's state as its region says, or null while it is not readable yet. */
    static AgentState stateOf(Path region) {
        try (Region r = Region.open(region, Posix.getuid(), false)) {
            return r.state();
        } catch (Exception e) {
            return null;
        }
    }

    static String reasonOf(Path region) throws Exception {
        try (Region r = Region.open(region, Posix.getuid(), false)) {
            return r.reason();
        }
    }

    /** {@code p}'s standard output, a line at a time as it comes, read by a daemon thread until the process ends. */
    static LinkedBlockingQueue<String> stdoutLines(Process p) {
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.add(l);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        return lines;
    }

    /** SIGTERM the tree first, so the agents remove their regions; then make sure nothing is left. */
    static void stopTree(long pid) throws IOException {
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
}
