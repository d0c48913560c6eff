package dev.vprof.cli;

import dev.vprof.nativelib.NativeFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "simulate",
        description = {"Run the synthetic GPU process (no GPU needed): it launches realistic LLM kernels "
                + "through a CUPTI test double, so every vprof command can be tried anywhere.",
                "Its options: --steps N | --duration D, --kernels-per-step K, --step-us U, "
                + "--profiler-range A:B, --nvtx, --nvtx-range NAME:A:B, --workers W, --bare (see: vprof simulate --help)."},
        footer = {"", "Example:",
                "  vprof run --capture-range=cudaProfilerApi -o a.vprof -- vprof simulate --steps 300 "
                        + "--profiler-range 50:100"})
final class SimulateCommand implements Callable<Integer> {
    @Parameters(paramLabel = "ARGS", description = "Passed to vprof-simgpu as they are.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        List<String> cmd = new ArrayList<>();
        try {
            cmd.add(NativeFiles.require(NativeFiles.SIMGPU).toString());
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        cmd.addAll(args);
        try {
            return new ProcessBuilder(cmd).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new CliException("cannot start " + cmd.getFirst() + ": " + e.getMessage(), e);
        }
    }
}
