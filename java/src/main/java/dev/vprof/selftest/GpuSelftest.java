package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code vprof selftest --gpu}: on a machine with an NVIDIA GPU, builds the self-test program
 * (native/gpu: selftest.cu, selftest_cases.c) with nvcc and runs its cases under vprof, each with
 * an exact expectation: the three capture-range modes; graphs instantiated while the agent is
 * dormant, replayed in two ranges (R2: every node kernel with its ids, or none and the agent's loud
 * warning, and the table says which); a long kernel at an unsynchronized cudaProfilerStop (R3); 32
 * launching threads (R6); 10^6 graph kernels with timestamp validation (R4); launch cost with no,
 * a dormant, an armed, a capturing agent and after a capture (R7); NVTX before CUDA initializes
 * (R12); late injection; and, with PyTorch, torch.profiler against vprof in two processes and in
 * one (R1). R numbers are the risks of docs/cupti-field-facts.md.
 *
 * <p>One table, exit 1 on a mismatch; a failing case never stops the others. Everything needed to
 * diagnose a mismatch without a second run is kept under the working folder: results.json (every
 * row and fact), and per case (cases/NAME/) the commands, the program's own output and stderr,
 * vprof's stderr, the capture (unless large), report.json (as `vprof report --json --top 1000`)
 * and facts.json ({@link CaptureFacts}). Without a GPU, {@link #whyNoGpu} says so and nothing runs.
 *
 * <p>The same cases run on the CUPTI test double (native/test/selftest_double.c) through
 * {@link Options#program}: GpuSelftestOnDoubleTest.
 */
public final class GpuSelftest {
    /** The cases, in the order they run: the field's unknowns first, in case time runs out. */
    public static final List<String> CASES = List.of("graph-dormant", "unsync-stop", "profiler", "pytorch",
            "threads", "graph-stress", "launch-cost", "watch", "nvtx-early", "nvtx", "none", "late");

    /**
     * How to run. {@code program}: a self-test program already built (null: build selftest.cu with
     * nvcc); {@code programEnv}: added to its environment in every case; {@code cases}: which to run
     * (empty: all); {@code limitSeconds}: the whole run's time limit.
     */
    public record Options(Path program, Map<String, String> programEnv, Set<String> cases, long limitSeconds) {
        public static Options defaults() {
            return new Options(null, Map.of(), Set.of(), 3600);
        }
    }

    private final PrintWriter out;
    private final Path work;
    private final Options options;

    public GpuSelftest(PrintWriter out, Path work) {
        this(out, work, Options.defaults());
    }

    public GpuSelftest(PrintWriter out, Path work, Options options) {
        this.out = out;
        this.work = work;
        this.options = options;
    }

    /** Why this machine cannot run the GPU self-test, or null when it can. */
    public static String whyNoGpu() {
        boolean devices = Files.exists(Path.of("/dev/nvidiactl")) || Files.exists(Path.of("/dev/nvidia0"));
        boolean driver;
        try (var arena = Arena.ofConfined()) {
            SymbolLookup.libraryLookup("libcuda.so.1", arena);
            driver = true;
        } catch (IllegalArgumentException e) {
            driver = false;
        }
        if (devices && driver) return null;
        return "no NVIDIA GPU here (" + (devices ? "" : "no /dev/nvidia* device; ")
                + (driver ? "" : "libcuda.so.1, the driver, cannot be loaded") + ")";
    }

    /** Runs the cases; returns the process exit code (0 nothing mismatched, 1 a mismatch). */
    public int run() throws IOException, InterruptedException {
        SelftestTable table = new SelftestTable(out, work.resolve("results.json"));
        SelftestRun run = new SelftestRun(table, work, options.limitSeconds());
        run.programEnv.putAll(options.programEnv());
        out.println("vprof GPU self-test: each row as it is decided; the whole table at the end. Working folder: " + work);
        out.flush();
        run.program = options.program() != null ? options.program() : build(run);
        doctor(run);
        if (run.program != null && info(run)) {
            CaptureCases captures = new CaptureCases(run);
            InteractiveCases interactive = new InteractiveCases(run);
            Map<String, Step> steps = new LinkedHashMap<>();
            steps.put("graph-dormant", interactive::graphDormant);
            steps.put("unsync-stop", captures::unsyncStop);
            steps.put("profiler", () -> captures.mode("profiler", "--capture-range=cudaProfilerApi"));
            steps.put("pytorch", () -> new TorchCases(run).run());
            steps.put("threads", captures::threads);
            steps.put("graph-stress", captures::graphStress);
            steps.put("launch-cost", interactive::launchCost);
            steps.put("watch", interactive::watch);
            steps.put("nvtx-early", captures::nvtxEarly);
            steps.put("nvtx", () -> captures.mode("nvtx", "--capture-range=nvtx:vprof_selftest"));
            steps.put("none", () -> captures.mode("none", "--capture-range=none"));
            steps.put("late", interactive::lateInjection);
            for (String name : CASES) {
                runCase(run, name, steps.get(name));
            }
        } else if (options.cases().isEmpty() || options.cases().contains("pytorch")) {
            runCase(run, "pytorch", () -> new TorchCases(run).run()); // PyTorch needs no nvcc
        }
        return table.finish(work);
    }

    /** One case's work; may throw: the case then gets a MISMATCH row and the run goes on. */
    @FunctionalInterface
    interface Step {
        void run() throws IOException, InterruptedException;
    }

    private void runCase(SelftestRun run, String name, Step step) throws InterruptedException {
        if (!options.cases().isEmpty() && !options.cases().contains(name)) {
            return;
        }
        if (run.secondsLeft() < 15) {
            run.table.add(Row.skipped(name, "not run: the time limit is reached"));
            return;
        }
        out.println("case " + name + " (" + run.secondsLeft() + " s left)");
        out.flush();
        long t0 = System.nanoTime();
        try {
            step.run();
        } catch (IOException | RuntimeException e) {
            run.table.add(Row.of(name + ": the case ran to its end", "no error", e.getClass().getSimpleName() + ": "
                    + e.getMessage(), false));
        }
        run.table.fact("case " + name + " took", String.format(Locale.ROOT, "%.1f s",
                (System.nanoTime() - t0) / 1e9));
    }

    /** nvcc selftest.cu selftest_cases.c into work/build; the program, or null with a failed row. */
    private Path build(SelftestRun run) throws IOException, InterruptedException {
        Path nvcc = Toolchain.nvcc();
        if (nvcc == null) {
            run.table.add(Row.of("build selftest.cu", "nvcc", "nvcc not found (set CUDA_HOME or PATH)", false));
            return null;
        }
        Path dir = Files.createDirectories(work.resolve("build"));
        for (String source : SOURCES) {
            try (InputStream in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/" + source)) {
                if (in == null) {
                    throw new IOException(source + " is missing from the vprof jar");
                }
                Files.copy(in, dir.resolve(source), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path exe = dir.resolve("vprof-selftest");
        out.println("building " + dir.resolve("selftest.cu") + " with " + nvcc + " ...");
        out.flush();
        SelfCli.Result r = SelfCli.run(buildCommand(nvcc, dir, exe), Map.of(), run.timeout(300), dir, "nvcc");
        boolean ok = r.exitCode() == 0;
        run.table.add(Row.of("build selftest.cu", "exit 0", ok ? "exit 0" : "exit " + r.exitCode() + ": "
                + SelftestRun.tail(r.stderr()), ok));
        run.table.fact("nvcc", nvcc + " (" + firstLine(SelfCli.run(List.of(nvcc.toString(), "--version"), Map.of(),
                run.timeout(30), dir, "nvcc-version").stdout(), "release") + ")");
        cuptiFor(run, nvcc);
        return ok ? exe : null;
    }

    /** The files of the self-test program, as the jar (and the GPU bundle) carry them. */
    static final List<String> SOURCES = List.of("selftest.cu", "selftest_cases.c", "selftest.h");

    /** How the program is built: one command, nvcc compiling the CUDA part and the cases. */
    static List<String> buildCommand(Path nvcc, Path dir, Path exe) {
        return List.of(nvcc.toString(), "-O2", "-lineinfo", "-o", exe.toString(), dir.resolve("selftest.cu").toString(),
                dir.resolve("selftest_cases.c").toString(), "-lpthread");
    }

    /**
     * Which libcupti the agent in the program will load. The agent looks at VPROF_CUPTI_LIB, then
     * CUDA_HOME, then the loader's default search, which does not cover the toolkit's
     * extras/CUPTI/lib64: where neither variable is set, the program gets CUDA_HOME of the nvcc
     * that built it, so that the agent finds the CUPTI of the toolkit the program was built with.
     */
    private void cuptiFor(SelftestRun run, Path nvcc) {
        String explicit = System.getenv("VPROF_CUPTI_LIB");
        String home = System.getenv("CUDA_HOME");
        if (explicit != null && !explicit.isBlank()) {
            run.table.fact("libcupti for the program", "VPROF_CUPTI_LIB=" + explicit + " (yours)");
        } else if (home != null && !home.isBlank()) {
            run.table.fact("libcupti for the program", "from CUDA_HOME=" + home + " (yours)");
        } else {
            Path toolkit = nvcc.toAbsolutePath().getParent().getParent();
            run.programEnv.put("CUDA_HOME", toolkit.toString());
            run.table.fact("libcupti for the program", "from CUDA_HOME=" + toolkit + " (set by the self-test: "
                    + "the toolkit of the nvcc that built it)");
        }
    }

    /**
     * `vprof doctor` with the program's environment, kept as doctor.stdout (the libcupti the agent
     * will find, the driver, ptrace); notes whether this machine allows attach --inject.
     */
    private void doctor(SelftestRun run) throws IOException, InterruptedException {
        SelfCli.Result r = SelfCli.run(SelfCli.vprof("doctor"), run.programEnv, run.timeout(60), work, "doctor");
        for (String line : (r.stdout() + "\n" + r.stderr()).split("\n")) {
            String[] f = line.strip().split("\\s+", 3);
            if (f.length == 3 && f[1].equals("injection") && !f[0].equals("OK")) {
                run.injectionRefused = f[2];
            }
        }
    }

    /** The program's info case: the device, driver, runtime, and the kernels' launch shapes. */
    private boolean info(SelftestRun run) throws IOException, InterruptedException {
        Path dir = run.caseDir("info");
        SelfCli.Result r = SelfCli.run(List.of(run.program.toString(), "info"), run.programEnv, run.timeout(120), dir,
                "program");
        JsonNode j = r.lastJsonLine();
        if (r.exitCode() != 0 || j == null) {
            run.table.add(Row.of("info: the program runs without vprof", "exit 0", "exit " + r.exitCode() + ": "
                    + SelftestRun.tail(r.stderr()), false));
            return false;
        }
        run.table.fact("device", j.path("device").asText());
        run.table.fact("CUDA driver version (cudaDriverGetVersion)", j.path("driver").asInt());
        run.table.fact("CUDA runtime version (cudaRuntimeGetVersion)", j.path("runtime").asInt());
        for (var e : j.path("shapes").properties()) {
            run.shapes.put(e.getKey(), e.getValue().path(0).asInt() + "x1x1/" + e.getValue().path(1).asInt() + "x1x1");
        }
        return true;
    }

    private static String firstLine(String text, String containing) {
        for (String l : text.split("\n")) {
            if (l.contains(containing)) {
                return l.strip();
            }
        }
        return text.strip();
    }

    /** The case names, for --case's help and errors. */
    public static String caseNames() {
        return String.join(", ", new ArrayList<>(CASES));
    }
}
