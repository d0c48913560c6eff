package dev.vprof.cli;

import dev.vprof.capture.ReadStats;
import dev.vprof.diff.DiffText;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.replay.ReplayArguments;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "simulate",
        description = {"Run the synthetic GPU process (no GPU needed): it launches realistic LLM kernels "
                + "through a CUPTI test double, so every vprof command can be tried anywhere.",
                "Its options: --steps N | --duration D, --kernels-per-step K, --step-us U, "
                + "--profiler-range A:B, --nvtx, --nvtx-range NAME:A:B, --workers W, --threads N, --serve, --bare, "
                + "--slow SUBSTRING:FACTOR, --replay TRACE [--loop N]; "
                + "what real servers do to a CUPTI tool: --cuda-graph, --stop-kernel-us U, --kineto-at A:B, "
                + "--kineto-tsc, --nvtx-before-init NAME; the test double's VPROF_SIM_* switches "
                + "(see: vprof simulate --help, docs/simulator.md)."},
        footer = {"", "Examples:",
                "  vprof run --capture-range=cudaProfilerApi -o a.vprof -- vprof simulate --steps 300 "
                        + "--profiler-range 50:100",
                "  vprof run --capture-range=cudaProfilerApi -o g.vprof -- vprof simulate --cuda-graph "
                        + "--steps 300 --step-us 2000 --profiler-range 100:200",
                "  vprof run -o r.vprof -- vprof simulate --replay rank-0.pt.trace.json.gz --loop 10"})
final class SimulateCommand extends VprofCommand {
    SimulateCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.READ_PARTLY);
    }

    @Parameters(paramLabel = "ARGS", description = "Passed to vprof-simgpu as they are, except --replay TRACE, "
            + "whose trace (a .vprof, a PyTorch profiler trace or a folder of rank traces) becomes a replay script.")
    List<String> args = new ArrayList<>();

    // Closing the ReplayArguments it opens deletes their temporary file; it never closes System.err.
    @SuppressWarnings("ClosingStandardOutputStreams")
    @Override
    public Integer call() throws InterruptedException {
        List<String> cmd = new ArrayList<>();
        try {
            cmd.add(NativeFiles.require(NativeFiles.SIMGPU).toString());
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        try (ReplayArguments replay = ReplayArguments.prepare(args, System.err)) {
            cmd.addAll(replay.arguments());
            PrintWriter err = spec.commandLine().getErr();
            ReadStats health = replay.health();
            if (health != null) {
                ReadHealth.warnings(err, health);
            }
            try {
                ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
                pb.environment().put("VPROF_SIM_NAME", "vprof simulate"); // its errors name what was typed
                int code = pb.start().waitFor();
                // A damaged source replays what could be read; the run then says so, as report does.
                return health == null || code != 0 ? code
                        : ReadHealth.finish(err, "simulate", ExitCode.OK, List.of(health));
            } catch (IOException e) {
                throw new CliException("cannot start " + cmd.getFirst() + ": " + e.getMessage(), e);
            }
        } catch (ReplayArguments.ReplayException e) {
            if (e.health() == null) {
                throw new CliException(e.getMessage(), e);
            }
            PrintWriter err = spec.commandLine().getErr();
            ReadHealth.warnings(err, e.health());
            err.println("vprof simulate: " + DiffText.escape(e.getMessage()));
            err.flush();
            return ExitCode.READ_PARTLY.code();
        }
    }
}
