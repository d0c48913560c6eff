package dev.vprof.cli;

import dev.vprof.selftest.DoubleSelftest;
import dev.vprof.selftest.GpuSelftest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vprof selftest [--gpu]}: checks an installation end to end. */
@Command(name = "selftest", mixinStandardHelpOptions = true,
        description = {
            "Check this vprof installation end to end.",
            "",
            "Without --gpu: runs the synthetic GPU process on the CUPTI test double under 'vprof run' and checks "
                    + "the exact kernel and range counts. Needs no GPU.",
            "",
            "With --gpu: builds a small CUDA program with nvcc and runs its cases under vprof, each with an exact "
                    + "expectation: the capture-range modes (cudaProfilerApi, nvtx, none); CUDA graphs instantiated "
                    + "while the agent is dormant and replayed in two ranges (every node kernel with its ids, or none "
                    + "and vprof's loud warning: the table says which this GPU gives); a long kernel still running at "
                    + "an unsynchronized cudaProfilerStop; 32 launching threads; 10^6 graph kernels with timestamp "
                    + "validation; launch cost with no, a dormant, an armed and a capturing agent and after a "
                    + "capture; NVTX used before CUDA initializes; 'attach --inject' into a process started without "
                    + "vprof; and, with PyTorch, torch.profiler against vprof in two processes and in one. Prints "
                    + "each row as it is decided and the whole table at the end; exits 1 on any mismatch (a failing "
                    + "case does not stop the others). Without a GPU it says so and exits 0 (1 with --require-gpu)."},
        footer = {"", "Examples:",
            "  vprof selftest",
            "  vprof selftest --gpu",
            "  vprof selftest --gpu --keep     # keep its logs and captures, and say where",
            "  vprof selftest --gpu --out gpu-run --time-limit 7m",
            "  vprof selftest --gpu --case graph-dormant --case unsync-stop --out again"})
public final class SelftestCommand extends VprofCommand {
    public SelftestCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.NOT_EXPECTED);
    }

    @Option(names = "--gpu", description = "Run the real-GPU self-test (needs an NVIDIA GPU and driver)")
    boolean gpu;

    @Option(names = "--require-gpu", description = "With --gpu: exit 1 when there is no GPU to test on, for a CI job "
            + "that means to test one (without it, no GPU exits 0)")
    boolean requireGpu;

    @Option(names = "--keep", description = "Keep the working folder (logs, captures) and print its path")
    boolean keep;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Work in DIR and keep it: the table as DIR/selftest.txt, every row and fact as "
                    + "DIR/results.json, and per case DIR/cases/NAME/ (commands, the program's output and stderr, "
                    + "vprof's stderr, the capture, report.json, facts.json). Created if missing")
    Path out;

    @Option(names = "--case", paramLabel = "NAME", completionCandidates = CaseNames.class,
            description = "With --gpu: run only this case (repeatable): ${COMPLETION-CANDIDATES}. Default: all")
    List<String> cases = new ArrayList<>();

    @Option(names = "--time-limit", paramLabel = "D", converter = TriageCommand.DurationConverter.class,
            description = "With --gpu: stop starting cases once D (7m, 300s) has passed, and cut the running one "
                    + "short, so that the table is written within D. Default: 1h")
    Duration timeLimit = Duration.ofHours(1);

    @Override
    public Integer call() throws Exception {
        PrintWriter terminal = spec.commandLine().getOut();
        for (String c : cases) {
            if (!GpuSelftest.CASES.contains(c)) {
                throw new CliException("--case " + c + ": no such case; the cases are " + GpuSelftest.caseNames());
            }
        }
        if (timeLimit.isNegative() || timeLimit.isZero()) {
            throw new CliException("--time-limit must be positive, not " + timeLimit);
        }
        Path work;
        Writer table = null;
        PrintWriter print = terminal;
        if (out != null) {
            try {
                work = Files.createDirectories(out);
                table = Files.newBufferedWriter(out.resolve("selftest.txt"), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new CliException("--out " + out + ": cannot write there (" + e.getMessage() + "); give a writable folder");
            }
            print = new PrintWriter(new Tee(terminal, table), true);
        } else {
            work = Files.createTempDirectory("vprof-selftest-");
        }
        try {
            if (gpu) {
                String why = GpuSelftest.whyNoGpu();
                if (why != null) {
                    print.println("vprof selftest --gpu: " + why + ".");
                    print.println("Nothing was tested on a GPU. The capture path can be checked on the CUPTI test double with 'vprof selftest'.");
                    return requireGpu ? ExitCode.NOT_EXPECTED.code() : ExitCode.OK.code();
                }
                return judged(new GpuSelftest(print, work, new GpuSelftest.Options(null, Map.of(),
                        Set.copyOf(cases), timeLimit.toSeconds())).run());
            }
            return judged(new DoubleSelftest(print, work).run());
        } finally {
            if (out != null) {
                print.println("table and raw outputs: " + work.toAbsolutePath());
                print.flush();
                table.close();
            } else if (keep) {
                terminal.println("working folder: " + work);
            } else {
                try (var files = Files.walk(work)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** The GPU self-test's cases, for --case's help. */
    static final class CaseNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return GpuSelftest.CASES.iterator();
        }
    }

    /** Writes to the terminal and to the table file at once. */
    private static final class Tee extends Writer {
        private final Writer a;
        private final Writer b;

        Tee(Writer a, Writer b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }

        @Override
        public void close() throws IOException {
            flush(); // the terminal stays open; the table file is closed by its owner
        }
    }

    /** A self-test's own result (0: every check held) as a row of the exit-code table. */
    private static int judged(int result) {
        return result == 0 ? ExitCode.OK.code() : ExitCode.NOT_EXPECTED.code();
    }
}
