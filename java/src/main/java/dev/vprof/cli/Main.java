package dev.vprof.cli;

import dev.vprof.VprofVersion;
import dev.vprof.engine.CaptureException;
import dev.vprof.nativelib.NativeAccessException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The vprof command line. */
@Command(name = "vprof", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"Low-overhead GPU profiling for LLM inference servers: an agent inside each CUDA "
                + "process records kernels, memcpys and NVTX ranges, only inside the capture range you choose."},
        subcommands = {RunCommand.class, LaunchCommand.class, AttachCommand.class, CaptureCommand.class, ListCommand.class,
                ReportCommand.class, ExportCommand.class, ImportCommand.class, AgentPathCommand.class, DoctorCommand.class, SimulateCommand.class,
                TriageCommand.class, BenchCommand.class, SelftestCommand.class, DemoCommand.class,
                DiffCommand.class, BaselineCommand.class, MergeCommand.class,
                WatchCommand.class, DumpCommand.class, McpCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Examples:",
                "  vprof run --capture-range=cudaProfilerApi -o a.vprof -- python serve.py",
                "  vprof launch -- vllm serve meta-llama/Llama-3.1-8B",
                "  vprof attach --pid 4242 --duration 10s -o b.vprof",
                "  vprof list",
                "  vprof demo                                           # the whole story in a minute, no GPU",
                "  export CUDA_INJECTION64_PATH=$(vprof agent-path)   # start it yourself, attach later",
                "", "Exit codes (one table for every command; `vprof run` exits with its command's own status, and `vprof "
                        + "launch` with it when the command dies within --wait):"})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The configured command line; tests call {@code execute} on it with their own streams. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // Everything after the command's name belongs to it: `vprof run python -m x --port 1`.
        cl.getSubcommands().get("run").setStopAtPositional(true);
        cl.getSubcommands().get("launch").setStopAtPositional(true);
        cl.getSubcommands().get("simulate").setStopAtPositional(true);
        cl.getSubcommands().get("simulate").setUnmatchedOptionsArePositionalParams(true);
        cl.setParameterExceptionHandler(new UsageErrors());
        HelpFooter.install(cl);
        cl.setExecutionExceptionHandler((ex, line, parseResult) -> {
            PrintWriter err = line.getErr();
            if (ex instanceof CliException || ex instanceof CaptureException || ex instanceof NativeAccessException) {
                err.println("vprof: " + ex.getMessage());
            } else {
                err.println("vprof: internal error: " + ex);
                ex.printStackTrace(err);
            }
            err.flush();
            return ExitCode.CANNOT.code();
        });
        exitCodes(cl);
        return cl;
    }

    /**
     * The exit-code table under the top-level help, and under each command's help the rows it
     * returns ({@link ExitCode.Returns}), so no help text words a code differently from the table.
     */
    private static void exitCodes(CommandLine cl) {
        var usage = cl.getCommandSpec().usageMessage();
        List<String> footer = new ArrayList<>(List.of(usage.footer()));
        footer.addAll(ExitCode.table(usage.width()));
        usage.footer(footer.toArray(String[]::new));
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getCommand() instanceof ExitCode.Returns r) {
                sub.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n")
                        .exitCodeList(ExitCode.helpList(r.exitCodes()));
            }
        }
    }

    /** {@code vprof --version}: the POM's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"vprof " + VprofVersion.get()};
        }
    }

    public static void main(String[] args) {
        // kill -INT works in a script's background job too (it comes with SIGINT ignored), and
        // SIGINT, SIGTERM and SIGHUP all exit INTERRUPTED after the hooks removed unfinished outputs.
        Interrupted.install(args);
        System.exit(commandLine().execute(args));
    }
}
