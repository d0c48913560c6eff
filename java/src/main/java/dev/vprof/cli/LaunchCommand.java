package dev.vprof.cli;

import dev.vprof.engine.AgentEnvironment;
import dev.vprof.nativelib.NativeFiles;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "launch", mixinStandardHelpOptions = true,
        description = {"Start CMD in the background with a dormant vprof agent and return at once.",
                "Dormant costs nothing per kernel; `vprof attach --pid PID` captures later, as often as you like. "
                        + "CMD's stdin is /dev/null and its output goes to a log file (printed)."},
        footer = {"", "Examples:",
                "  vprof launch -- vllm serve meta-llama/Llama-3.1-8B",
                "  vprof launch --log server.log --ring-size 256m -- python serve.py",
                "  vprof attach --pid <printed pid> --duration 10s"})
final class LaunchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--log", paramLabel = "FILE", defaultValue = "vprof-launch-%p.log",
            description = "Where CMD's stdout and stderr go; %%p is its pid. Default: ${DEFAULT-VALUE}.")
    String log;

    @Option(names = "--ring-size", paramLabel = "SIZE",
            description = "Shared ring per process, a power of two from 64k to 1g. Default: 64m.")
    String ringSize;

    @Parameters(arity = "1..*", paramLabel = "CMD", description = "The command to start, after --.")
    List<String> cmd = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        CaptureOptions ring = new CaptureOptions();
        ring.ringSize = ringSize;
        long ringBytes = ring.ringBytes();
        Path agent;
        try {
            agent = NativeFiles.require(NativeFiles.AGENT);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        // The pid is known only after the start: write to a temporary name, rename once known
        // (the child keeps writing to the same file).
        Path tmp = OutputPath.expand(log, 0, java.time.LocalDateTime.now()).toAbsolutePath();
        Path pending = tmp.resolveSibling(".vprof-launch-" + ProcessHandle.current().pid() + ".log");
        OutputPath.checkWritable(pending);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(pending.toFile()))
                .redirectErrorStream(true);
        AgentEnvironment.apply(pb.environment(), agent, ringBytes, null);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Files.deleteIfExists(pending);
            throw new CliException("cannot start " + cmd.getFirst() + ": " + e.getMessage());
        }
        Path logFile = OutputPath.expand(log, p.pid(), java.time.LocalDateTime.now()).toAbsolutePath();
        try {
            Files.move(pending, logFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            logFile = pending;
        }
        out.println("launched pid " + p.pid() + "; its output goes to " + logFile);
        out.flush();
        return 0;
    }
}
