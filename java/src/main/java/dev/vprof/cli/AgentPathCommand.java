package dev.vprof.cli;

import dev.vprof.nativelib.NativeFiles;
import java.io.IOException;
import picocli.CommandLine.Command;

@Command(name = "agent-path", mixinStandardHelpOptions = true,
        description = "Print the agent library's path, for processes you start yourself.",
        footer = {"", "Example:",
                "  CUDA_INJECTION64_PATH=$(vprof agent-path) python serve.py &",
                "  vprof attach --pid $! --duration 10s"})
final class AgentPathCommand extends VprofCommand {
    AgentPathCommand() {
        super(ExitCode.OK);
    }

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
