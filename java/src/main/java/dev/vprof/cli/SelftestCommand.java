package dev.vprof.cli;

import dev.vprof.selftest.DoubleSelftest;
import dev.vprof.selftest.GpuSelftest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code vprof selftest [--gpu]}: checks an installation end to end. */
@Command(name = "selftest", mixinStandardHelpOptions = true,
        description = {
            "Check this vprof installation end to end.",
            "",
            "Without --gpu: runs the synthetic GPU process on the CUPTI test double under",
            "'vprof run' and checks the exact kernel and range counts. Needs no GPU.",
            "",
            "With --gpu: builds a small CUDA program with nvcc, runs it under vprof in each",
            "capture-range mode (cudaProfilerApi, nvtx, none) and checks that exactly the",
            "kernels (several names, two streams, a CUDA graph) and memcpys it launched were",
            "recorded with zero drops; compares vprof with torch.profiler when PyTorch is",
            "present; measures launch overhead with no, a dormant and an armed agent; and",
            "captures a CUDA process started without vprof through 'attach --inject'.",
            "Prints one table; exits 1 on any mismatch. Without a GPU it says so and exits 0."},
        footer = {"", "Examples:",
            "  vprof selftest",
            "  vprof selftest --gpu",
            "  vprof selftest --gpu --keep     # keep the logs and captures, and print where they are"})
public final class SelftestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--gpu", description = "Run the real-GPU self-test (needs an NVIDIA GPU and driver)")
    boolean gpu;

    @Option(names = "--keep", description = "Keep the working folder (logs, captures) and print its path")
    boolean keep;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Work in DIR and keep it: the table as DIR/selftest.txt, next to every raw output "
                    + "(programs' stdout and stderr, captures, reports). Created if missing")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintWriter terminal = spec.commandLine().getOut();
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
                    return 0;
                }
                return new GpuSelftest(print, work).run();
            }
            return new DoubleSelftest(print, work).run();
        } finally {
            if (out != null) {
                print.println("table and raw outputs: " + work.toAbsolutePath());
                print.flush();
                table.close();
            } else if (keep) {
                terminal.println("working folder: " + work);
            } else {
                try (var files = Files.walk(work)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
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
}
