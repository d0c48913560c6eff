package dev.vprof.cli;

import dev.vprof.selftest.DoubleSelftest;
import dev.vprof.selftest.GpuSelftest;
import java.io.PrintWriter;
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
            "Prints one table; exits 1 on any mismatch. Without a GPU it says so and exits 0."})
public final class SelftestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--gpu", description = "Run the real-GPU self-test (needs an NVIDIA GPU and driver)")
    boolean gpu;

    @Option(names = "--keep", description = "Keep the working folder (logs, captures) and print its path")
    boolean keep;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path work = Files.createTempDirectory("vprof-selftest-");
        try {
            if (gpu) {
                String why = GpuSelftest.whyNoGpu();
                if (why != null) {
                    out.println("vprof selftest --gpu: " + why + ".");
                    out.println("Nothing was tested on a GPU. The capture path can be checked on the CUPTI test double with 'vprof selftest'.");
                    return 0;
                }
                return new GpuSelftest(out, work).run();
            }
            return new DoubleSelftest(out, work).run();
        } finally {
            if (keep) {
                out.println("working folder: " + work);
            } else {
                try (var files = Files.walk(work)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
