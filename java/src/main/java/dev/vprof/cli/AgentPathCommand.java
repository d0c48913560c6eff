package dev.vprof.cli;

import dev.vprof.nativelib.NativeFiles;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "agent-path", mixinStandardHelpOptions = true,
        description = "Print the agent library's path, for processes you start yourself.",
        footer = {"", "Example:",
                "  CUDA_INJECTION64_PATH=$(vprof agent-path) python serve.py &",
                "  vprof attach --pid $! --duration 10s"})
final class AgentPathCommand implements Callable<Integer>, ExitCode.Returns {
    @Override
    public List<ExitCode> exitCodes() {
        return List.of(ExitCode.OK);
    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            spec.commandLine().getOut().println(NativeFiles.require(NativeFiles.AGENT));
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        spec.commandLine().getOut().flush();
        return ExitCode.OK.code();
    }
}
