package dev.vprof.cli;

import dev.vprof.engine.AgentEnvironment;
import dev.vprof.nativelib.NativeFiles;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "launch", mixinStandardHelpOptions = true,
        description = {"Start CMD in the background with a dormant vprof agent, watch it for --wait, and return.",
                "Dormant costs nothing per kernel; `vprof attach --pid PID` captures later, as often as you like. "
                        + "CMD's stdin is /dev/null and its output goes to a log file (printed). "
                        + "If CMD dies within --wait, launch says so with the end of its log and exits with CMD's "
                        + "status."},
        footer = {"", "Examples:",
                "  vprof launch -- vllm serve meta-llama/Llama-3.1-8B",
                "  vprof launch --log server.log --ring-size 256m -- python serve.py",
                "  vprof launch --wait 10s -- vllm serve Qwen/Qwen2.5-7B-Instruct --profiler-config '{\"profiler\":\"cuda\"}'",
                "  vprof attach --pid 4242 --duration 10s   # 4242: the pid launch printed"})
final class LaunchCommand extends VprofCommand {
    LaunchCommand() {
        super(ExitCode.OK, ExitCode.CANNOT);
    }

    @Option(names = "--log", paramLabel = "FILE", defaultValue = "vprof-launch-%p.log",
            description = "Where CMD's stdout and stderr go; %%p is its pid. Default: ${DEFAULT-VALUE}.")
    String log;

    @Option(names = "--force", description = "Replace the --log file when it exists (without it, vprof refuses).")
    boolean force;

    @Mixin
    AgentOptions.Ring ring = new AgentOptions.Ring();

    @Option(names = "--wait", paramLabel = "D", defaultValue = "2s", converter = TriageCommand.DurationConverter.class,
            description = "How long to watch CMD before returning: a command that dies in that time is reported "
                    + "with its exit status and the end of its log. Default: ${DEFAULT-VALUE}.")
    Duration wait;

    @Parameters(arity = "1..*", paramLabel = "CMD", description = "The command to start, after --.")
    List<String> cmd = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        long ringBytes = ring.ringBytes();
        Path agent;
        try {
            agent = NativeFiles.require(NativeFiles.AGENT);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), e);
        }
        // The pid is known only after the start: write to a temporary name, rename once known
        // (the child keeps writing to the same file).
        Path tmp = OutputPath.expand(log, 0, LocalDateTime.now(ZoneId.systemDefault())).toAbsolutePath();
        Path pending = tmp.resolveSibling(".vprof-launch-" + ProcessHandle.current().pid() + ".log");
        OutputPath.checkWritable(pending);
        if (!log.contains("%p")) { // known before CMD starts: refuse before anything runs
            OutputPath.refuseExisting(tmp, force, "the log file", "--log");
        }
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
            throw new CliException(CommandStart.why(cmd.getFirst(), e));
        }
        Path logFile = OutputPath.expand(log, p.pid(), LocalDateTime.now(ZoneId.systemDefault())).toAbsolutePath();
        try {
            // Without --force an existing log (a reused pid) is kept, and this one keeps its temporary name.
            if (force) {
                Files.move(pending, logFile, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.move(pending, logFile);
            }
        } catch (IOException e) {
            logFile = pending;
        }
        if (died(p, wait)) {
            int status = p.exitValue();
            PrintWriter err = spec.commandLine().getErr();
            String what = status > 128 && status < 128 + 65 ? "was killed by signal " + (status - 128)
                    : "exited with status " + status;
            if (status == 0) {
                // It finished cleanly: perhaps a launcher that started the real server in the background.
                out.println("launched pid " + p.pid() + "; it " + what + " within " + millis(wait) + ", so there is"
                        + " nothing left to attach to unless it started other processes (vprof list shows them);"
                        + " its output is in " + logFile);
                out.flush();
                return ExitCode.OK.code();
            }
            err.println("vprof launch: " + cmd.getFirst() + " (pid " + p.pid() + ") " + what + " within "
                    + millis(wait) + ", so nothing is left to attach to; the end of its log " + logFile + ":");
            for (String line : tail(logFile, LOG_TAIL_LINES)) {
                err.println("  | " + line);
            }
            err.flush();
            return status;
        }
        out.println("launched pid " + p.pid() + "; its output goes to " + logFile);
        out.flush();
        return ExitCode.OK.code();
    }

    /** Lines of the log shown when CMD dies at once: enough for a Python traceback's end. */
    static final int LOG_TAIL_LINES = 15;

    /** Whether {@code p} ends within {@code wait}. */
    private static boolean died(Process p, Duration wait) {
        try {
            return p.waitFor(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The last {@code n} lines of {@code file}, from at most its last 64 KiB; bytes that are not UTF-8 shown replaced. */
    static List<String> tail(Path file, int n) {
        try (var ch = Files.newByteChannel(file)) {
            long size = ch.size();
            int len = (int) Math.min(size, TAIL_BYTES);
            ByteBuffer buf = ByteBuffer.allocate(len);
            ch.position(size - len);
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                // read to the end
            }
            List<String> lines = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8)
                    .lines().toList();
            if (lines.isEmpty()) {
                return List.of("(empty)");
            }
            return lines.subList(Math.max(0, lines.size() - n), lines.size());
        } catch (IOException e) {
            return List.of("(cannot read it: " + e.getMessage() + ")");
        }
    }

    private static final int TAIL_BYTES = 64 * 1024;

    private static String millis(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
