package dev.vprof.cli;

import dev.vprof.engine.AgentEnvironment;
import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureEnvironment;
import dev.vprof.engine.CaptureException;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.CaptureSummary;
import dev.vprof.engine.Started;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.region.ArmSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Start CMD with the vprof agent and capture it and every CUDA process it starts.",
                "The agents arm themselves as CUDA initializes, so no kernel in the range is missed. "
                        + "vprof exits with CMD's exit code."},
        footer = {"", "Examples:",
                "  vprof run -o a.vprof -- python infer.py                      # everything",
                "  vprof run --capture-range=cudaProfilerApi --capture-range-end=repeat -- python serve.py",
                "  vprof run --capture-range=nvtx:decode --duration 30s -- ./bench",
                "  vprof run --ring-size 256m --kinds kernel,memcpy,runtime -- python train.py",
                "  vprof run --capture-range=cudaProfilerApi --duration 60s \\",
                "      --trigger localhost:8000 --metrics localhost:8000 --otlp \\",
                "      -- vllm serve MODEL --profiler-config '{\"profiler\":\"cuda\"}'",
                "", SignalHelp.CAPTURE + " CMD is in the same process group, so Ctrl-C reaches it too; vprof "
                        + "waits up to 10 s for it to end, then sends it SIGTERM, as it does at once after SIGTERM or "
                        + "SIGHUP.",
                "When --duration ends, CMD gets SIGTERM (SIGKILL 10 s later), as nsys does. When the file cannot be "
                        + "written (a full disk), the capture stops there, CMD gets SIGTERM the same way and vprof exits 2."})
final class RunCommand extends VprofCommand {
    RunCommand() {
        super(ExitCode.OK, ExitCode.CANNOT); // and, past these, CMD's own exit status
    }

    @Mixin
    CaptureOptions capture = new CaptureOptions();

    @Parameters(arity = "1..*", paramLabel = "CMD", description = "The command to run, after --.")
    List<String> cmd = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        capture.validate();
        long ringBytes = capture.agent.ringBytes();
        ArmSpec armSpec = capture.toSpec(Capture.newCaptureId());
        LocalDateTime now = LocalDateTime.now(ZoneId.systemDefault());
        Path planned = OutputPath.expand(capture.output, 0, now);
        OutputPath.checkWritable(planned);
        if (!capture.output.contains("%p")) { // known before CMD starts: refuse before anything runs
            OutputPath.refuseExisting(planned, capture.force, "the capture file");
        }
        Path agent;
        try {
            agent = NativeFiles.require(NativeFiles.AGENT);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }

        // Before the command starts: a bad --spans file or an OTLP port in use stops here.
        CaptureFeeds feeds = capture.openFeeds(err);
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        AgentEnvironment.apply(pb.environment(), agent, ringBytes, armSpec.toEnv(ProcessHandle.current().pid()));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            feeds.close();
            throw new CliException(CommandStart.why(cmd.getFirst(), e));
        }
        Path file = OutputPath.expand(capture.output, p.pid(), now);
        Capture running;
        try {
            OutputPath.checkWritable(file);
            OutputPath.refuseExisting(file, capture.force, "the capture file");
            CapturePlan plan = capture.plan(CapturePlan.Mode.RUN)
                    .rootPid((int) p.pid()).arm(armSpec).output(file).commandLine(cmd)
                    .build();
            running = Capture.start(plan, Started.command(p, feeds), CaptureEnvironment.system(err));
        } catch (RuntimeException e) {
            feeds.close();
            p.destroyForcibly();
            throw e;
        }
        CaptureSummary s;
        try {
            s = running.awaitSummary();
        } catch (CaptureException e) {
            // The file cannot be written (a full disk): the capture is over, and CMD is ended as
            // --duration ends it, never left running without the vprof that started it.
            terminate(p);
            throw new CliException(e.getMessage() + "; " + cmd.getFirst() + " (pid " + p.pid()
                    + ") was sent SIGTERM, as at the end of --duration", e);
        }
        if (s.processes() == 0 && s.failedAgents() > 0) {
            err.println("vprof: warning: the agent loaded in " + s.failedAgents() + " process"
                    + (s.failedAgents() == 1 ? "" : "es") + " of " + cmd.getFirst() + " but FAILED (the reason is above);"
                    + " the file holds no GPU activity");
        } else if (s.processes() == 0) {
            err.println("vprof: warning: no process of " + cmd.getFirst() + " loaded the agent (no CUDA "
                    + "initialization seen); the file holds no GPU activity");
        }
        err.flush();
        String stoppedBy = s.stopReason();
        if (("SIGINT".equals(stoppedBy) || "SIGTERM".equals(stoppedBy) || "SIGHUP".equals(stoppedBy)) && p.isAlive()) {
            // Ctrl-C reaches CMD too (one process group): give it time to end by itself. A SIGTERM
            // meant for vprof alone is passed on, so that CMD is never left without it.
            if ("SIGINT".equals(stoppedBy)) {
                p.waitFor(10, TimeUnit.SECONDS);
            }
            if (p.isAlive()) {
                err.println("vprof: stopped by " + stoppedBy + "; sending SIGTERM to pid " + p.pid());
                err.flush();
                terminate(p);
            }
        }
        if ("duration".equals(stoppedBy) && p.isAlive()) {
            // As nsys does when its --duration ends: ask the application to terminate.
            err.println("vprof: --duration reached; sending SIGTERM to pid " + p.pid());
            err.flush();
            terminate(p);
        }
        int exit = p.waitFor();
        capture.exportSpans(file, capture.humanOut(spec.commandLine().getOut(), err), err);
        capture.printSummaryJson(s, file, exit, spec.commandLine().getOut());
        return exit;
    }

    /** SIGTERM, and SIGKILL when it has not exited 10 s later. */
    private static void terminate(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
