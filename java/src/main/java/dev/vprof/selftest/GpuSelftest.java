package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code vprof selftest --gpu}: on a machine with an NVIDIA GPU, builds a small CUDA
 * program with nvcc, runs it under vprof in each capture-range mode and checks that
 * vprof recorded exactly the kernels and memcpys it launched, with zero drops;
 * compares against torch.profiler when PyTorch is present; measures launch overhead
 * with no agent, a dormant agent and an armed agent; and captures a process that was
 * started without the agent through late injection. One table, non-zero exit on any
 * mismatch. Without a GPU it says so and runs nothing.
 *
 * <p>Facts this relies on (DESIGN §2): the driver loads CUDA_INJECTION64_PATH at
 * cuInit (here cudaFree(0)); cudaProfilerStart/Stop fire runtime cbids 171/172 and the
 * driver's 308/309; graph kernels are reported per node as kernel records; NVTX
 * reaches CUPTI only through NVTX_INJECTION64_PATH, which the agent sets.
 */
public final class GpuSelftest {
    private final PrintWriter out;
    private final Path work;
    private final List<Row> rows = new ArrayList<>();

    record Row(String check, String expected, String actual, boolean ok) {}

    public GpuSelftest(PrintWriter out, Path work) {
        this.out = out;
        this.work = work;
    }

    /** Why this machine cannot run the GPU self-test, or null when it can. */
    public static String whyNoGpu() {
        boolean devices = Files.exists(Path.of("/dev/nvidiactl")) || Files.exists(Path.of("/dev/nvidia0"));
        boolean driver;
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.SymbolLookup.libraryLookup("libcuda.so.1", arena);
            driver = true;
        } catch (IllegalArgumentException e) {
            driver = false;
        }
        if (devices && driver) return null;
        return "no NVIDIA GPU here (" + (devices ? "" : "no /dev/nvidia* device; ")
                + (driver ? "" : "libcuda.so.1, the driver, cannot be loaded") + ")";
    }

    /** Runs every check; returns the process exit code (0 all matched, 1 a mismatch). */
    public int run() throws IOException, InterruptedException {
        Path nvcc = Toolchain.nvcc();
        if (nvcc == null) {
            rows.add(new Row("build selftest.cu", "nvcc", "nvcc not found (set CUDA_HOME or PATH)", false));
        } else {
            Path exe = build(nvcc);
            if (exe != null) {
                captureModes(exe);
                overhead(exe);
                lateInjection(exe);
            }
        }
        torch();
        return printTable();
    }

    private Path build(Path nvcc) throws IOException, InterruptedException {
        Path src = work.resolve("selftest.cu");
        try (InputStream in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/selftest.cu")) {
            if (in == null) throw new IOException("selftest.cu is missing from the vprof jar");
            Files.copy(in, src, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Path exe = work.resolve("vprof-selftest");
        out.println("building " + src + " with " + nvcc + " ...");
        SelfCli.Result r = SelfCli.run(List.of(nvcc.toString(), "-O2", "-lineinfo", "-o", exe.toString(), src.toString()),
                Map.of(), 300, work);
        boolean ok = r.exitCode() == 0;
        rows.add(new Row("build selftest.cu", "exit 0", ok ? "exit 0" : "exit " + r.exitCode() + ": " + tail(r.stderr()), ok));
        return ok ? exe : null;
    }

    private void captureModes(Path exe) throws IOException, InterruptedException {
        String[][] modes = {
            {"profiler", "--capture-range=cudaProfilerApi", "phase"},
            {"nvtx", "--capture-range=nvtx:vprof_selftest", "phase"},
            {"none", "--capture-range=none", "total"},
        };
        for (String[] m : modes) {
            Path file = work.resolve("selftest-" + m[0] + ".vprof");
            SelfCli.Result r = SelfCli.run(SelfCli.vprof("run", m[1], "-o", file.toString(), "--", exe.toString(), m[0]),
                    Map.of(), 300, work);
            JsonNode launched = r.lastJsonLine();
            if (r.exitCode() != 0 || launched == null) {
                rows.add(new Row(m[0] + ": vprof run", "exit 0", "exit " + r.exitCode() + ": " + tail(r.stderr()), false));
                continue;
            }
            compare(m[0], launched.path(m[2]), report(file));
        }
    }

    /** vprof report --json of a capture, or null with a failed row. */
    private JsonNode report(Path file) throws IOException, InterruptedException {
        SelfCli.Result r = SelfCli.run(SelfCli.vprof("report", "--json", "--top", "1000", file.toString()), Map.of(), 120, work);
        if (r.exitCode() != 0) {
            rows.add(new Row("report " + file.getFileName(), "exit 0", "exit " + r.exitCode() + ": " + tail(r.stderr()), false));
            return null;
        }
        return SelfCli.parse(r.stdout());
    }

    private void compare(String mode, JsonNode expected, JsonNode report) {
        if (report == null) return;
        Map<String, Long> recorded = new HashMap<>();
        for (JsonNode k : report.path("top_kernels")) recorded.put(k.path("name").asText(), k.path("count").asLong());
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.path("kernels").fields(); it.hasNext(); ) {
            var e = it.next();
            long want = e.getValue().asLong();
            long got = recorded.getOrDefault(e.getKey(), 0L);
            rows.add(new Row(mode + ": " + e.getKey(), Long.toString(want), Long.toString(got), want == got));
        }
        long wantCopies = expected.path("memcpys").asLong();
        long gotCopies = report.path("totals").path("memcpys").asLong();
        rows.add(new Row(mode + ": memcpys", Long.toString(wantCopies), Long.toString(gotCopies), wantCopies == gotCopies));
        long drops = report.path("totals").path("ring_drops").asLong() + report.path("totals").path("cupti_drops").asLong();
        rows.add(new Row(mode + ": drops", "0", Long.toString(drops), drops == 0));
    }

    private void overhead(Path exe) throws IOException, InterruptedException {
        String n = "200000";
        Double plain = nsPerLaunch(List.of(exe.toString(), "launches", n), Map.of());
        Path agent = agentPath();
        Double dormant = agent == null ? null
                : nsPerLaunch(List.of(exe.toString(), "launches", n), Map.of("CUDA_INJECTION64_PATH", agent.toString()));
        Double armed = nsPerLaunch(SelfCli.vprof("run", "-o", work.resolve("overhead.vprof").toString(), "--",
                exe.toString(), "launches", n), Map.of());
        rows.add(new Row("launch ns, no agent", "-", fmt(plain), plain != null));
        rows.add(new Row("launch ns, dormant agent", "ratio <= 1.01", ratio(dormant, plain), dormant != null));
        rows.add(new Row("launch ns, armed agent", "(informative)", ratio(armed, plain), armed != null));
    }

    private Double nsPerLaunch(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        SelfCli.Result r = SelfCli.run(cmd, env, 300, work);
        JsonNode j = r.lastJsonLine();
        return r.exitCode() == 0 && j != null && j.has("ns_per_launch") ? j.get("ns_per_launch").asDouble() : null;
    }

    private Path agentPath() throws IOException, InterruptedException {
        SelfCli.Result r = SelfCli.run(SelfCli.vprof("agent-path"), Map.of(), 60, work);
        return r.exitCode() == 0 ? Path.of(r.stdout().trim()) : null;
    }

    /** A CUDA process started WITHOUT the agent, captured through vprof attach --inject. */
    private void lateInjection(Path exe) throws IOException, InterruptedException {
        Process target = new ProcessBuilder(exe.toString(), "wait").redirectError(work.resolve("late.err").toFile()).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
             OutputStream stdin = target.getOutputStream()) {
            String ready = in.readLine();
            if (!"ready".equals(ready)) {
                rows.add(new Row("late injection: target ready", "ready", String.valueOf(ready), false));
                return;
            }
            Path file = work.resolve("late.vprof");
            ProcessBuilder pb = new ProcessBuilder(SelfCli.vprof("attach", "--pid", Long.toString(target.pid()), "--inject",
                    "--capture-range=cudaProfilerApi", "--capture-range-end=stop", "--duration=120s", "-o", file.toString()))
                    .redirectOutput(work.resolve("late-attach.out").toFile())
                    .redirectError(work.resolve("late-attach.err").toFile());
            Process attach = pb.start();
            // Let the attach inject and arm before the target reaches its profiler range.
            waitForArmed(target.pid(), 30);
            stdin.write("go\n".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            String json = in.readLine();
            boolean attached = attach.waitFor(150, TimeUnit.SECONDS) && attach.exitValue() == 0;
            target.waitFor(60, TimeUnit.SECONDS);
            if (!attached || json == null) {
                rows.add(new Row("late injection: attach --inject", "exit 0",
                        "failed: " + tail(Files.readString(work.resolve("late-attach.err"))), false));
                return;
            }
            compare("late", SelfCli.parse(json).path("phase"), report(file));
        } finally {
            target.destroyForcibly();
        }
    }

    private void waitForArmed(long pid, int seconds) throws IOException, InterruptedException {
        for (int i = 0; i < seconds * 10; i++) {
            SelfCli.Result r = SelfCli.run(SelfCli.vprof("list", "--json"), Map.of(), 30, work);
            if (r.exitCode() == 0) {
                for (JsonNode agent : SelfCli.parse(r.stdout())) {
                    if (agent.path("pid").asLong() == pid && "ARMED".equals(agent.path("state").asText())) return;
                }
            }
            Thread.sleep(100);
        }
    }

    private void torch() throws IOException, InterruptedException {
        Path script = work.resolve("torch_selftest.py");
        try (InputStream in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/torch_selftest.py")) {
            if (in == null) return;
            Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        String python = Toolchain.pythonWithTorch(work);
        if (python == null) {
            rows.add(new Row("pytorch comparison", "torch with CUDA", "no python with torch.cuda here: skipped", true));
            return;
        }
        Path file = work.resolve("torch.vprof");
        SelfCli.Result ours = SelfCli.run(SelfCli.vprof("run", "--capture-range=cudaProfilerApi", "-o", file.toString(),
                "--", python, script.toString(), "vprof"), Map.of(), 600, work);
        SelfCli.Result theirs = SelfCli.run(List.of(python, script.toString(), "torch"), Map.of(), 600, work);
        JsonNode report = ours.exitCode() == 0 ? report(file) : null;
        JsonNode torch = theirs.exitCode() == 0 ? theirs.lastJsonLine() : null;
        if (report == null || torch == null) {
            rows.add(new Row("pytorch comparison", "both runs exit 0",
                    "vprof exit " + ours.exitCode() + ", torch exit " + theirs.exitCode() + ": " + tail(ours.stderr() + theirs.stderr()), false));
            return;
        }
        long want = 0;
        for (JsonNode c : torch.path("kernels")) want += c.asLong();
        long got = report.path("totals").path("kernels").asLong();
        rows.add(new Row("pytorch: kernels (torch.profiler vs vprof)", Long.toString(want), Long.toString(got), want == got));
        Map<String, Long> ourNames = new HashMap<>();
        for (JsonNode k : report.path("top_kernels")) {
            ourNames.merge(Toolchain.demangle(k.path("name").asText()), k.path("count").asLong(), Long::sum);
        }
        int mismatched = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = torch.path("kernels").fields(); it.hasNext(); ) {
            var e = it.next();
            if (!Long.valueOf(e.getValue().asLong()).equals(ourNames.get(e.getKey()))) mismatched++;
        }
        rows.add(new Row("pytorch: names with equal counts", "all " + torch.path("kernels").size(),
                (torch.path("kernels").size() - mismatched) + " of " + torch.path("kernels").size(), mismatched == 0));
    }

    private int printTable() {
        int w = rows.stream().mapToInt(r -> r.check().length()).max().orElse(10);
        String fmt = "%-" + w + "s  %-18s  %-40s  %s%n";
        out.printf(Locale.ROOT, fmt, "check", "expected", "vprof", "");
        boolean allOk = true;
        for (Row r : rows) {
            out.printf(Locale.ROOT, fmt, r.check(), r.expected(), r.actual(), r.ok() ? "ok" : "MISMATCH");
            allOk &= r.ok();
        }
        out.println(allOk ? "GPU self-test passed." : "GPU self-test FAILED: see the MISMATCH rows; logs in " + work);
        return allOk ? 0 : 1;
    }

    private static String fmt(Double d) {
        return d == null ? "failed" : String.format(Locale.ROOT, "%.1f", d);
    }

    private static String ratio(Double v, Double base) {
        if (v == null || base == null) return "failed";
        return String.format(Locale.ROOT, "%.1f (x%.3f)", v, v / base);
    }

    private static String tail(String s) {
        String t = s.strip();
        int nl = t.lastIndexOf('\n');
        return nl < 0 ? t : t.substring(nl + 1);
    }
}
