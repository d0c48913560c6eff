package dev.vprof.cli;

import dev.vprof.demo.DemoDir;
import dev.vprof.demo.DemoException;
import dev.vprof.demo.DemoPlan;
import dev.vprof.demo.DemoScenario;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureEnvironment;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.Started;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code vprof demo}: the whole story without a GPU. A simulated vLLM server whose GPU workers run
 * the CUPTI test double under a dormant agent; an OTLP receiver its spans go to; a capture taken
 * exactly as {@code vprof attach --pid <this vprof> --capture-range=cudaProfilerApi
 * --capture-range-end=stop --metrics <server>/metrics --metrics-interval 200ms} takes it; a load
 * with a steady phase and a burst that overloads the server, bracketed by /start_profile and
 * /stop_profile; then the file, the traces, the report and the triage verdict. The command parses
 * its options into a {@link DemoPlan}, runs it ({@link DemoScenario}: the scenario lives in the
 * demo package) with the two captures made from attach's and capture's own options, and prints
 * its progress lines and what it made; {@code --serve} is {@link DemoServe}.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Show vprof end to end in under a minute, no GPU needed: a simulated vLLM server with two "
                + "GPU workers (the CUPTI test double), a load with a burst that overloads it, and one capture "
                + "holding the kernels, the server's /metrics and its request spans.",
                "Writes capture.vprof, trace.pftrace (Perfetto), trace.json (Chrome), report.txt and report.html into --dir; "
                        + "an earlier demo's files there are replaced only with --force, and never those of a demo "
                        + "still running there."},
        footer = {"", "Examples:", "  vprof demo", "  vprof demo --dir /tmp/demo --burst 100",
                "  vprof demo --force             # again, replacing the last run's files in ./vprof-demo",
                "  vprof demo --serve &           # the server alone, on 127.0.0.1:8000, until Ctrl-C or SIGTERM",
                "  vprof demo --serve --port 0 --load 10 --otlp http://127.0.0.1:14318/v1/traces",
                "", "Signals: with --serve, SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the server and end its workers "
                        + "(exit 0); SIGHUP stays ignored under nohup. Without --serve they end the demo's capture as "
                        + "vprof attach does."})
final class DemoCommand extends VprofCommand {
    DemoCommand() {
        super(ExitCode.OK, ExitCode.CANNOT);
    }

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "vprof-demo",
            description = "Where the files go. Default: ./${DEFAULT-VALUE}.")
    Path dir;

    @Option(names = "--force", description = "Replace an earlier demo's files in --dir (never those of a demo "
            + "that is still running there, such as a demo --serve writing its workers' logs).")
    boolean force;

    @Option(names = "--steady", paramLabel = "N", defaultValue = "40",
            description = "Requests of the steady phase. Default: ${DEFAULT-VALUE}.")
    int steady;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "6",
            description = "Requests per second of the steady phase. Default: ${DEFAULT-VALUE}.")
    double rate;

    @Option(names = "--burst", paramLabel = "N", defaultValue = "60",
            description = "Requests sent at once after the steady phase. Default: ${DEFAULT-VALUE}.")
    int burst;

    @Option(names = "--max-tokens", paramLabel = "N", defaultValue = "48",
            description = "Tokens generated per request. Default: ${DEFAULT-VALUE}.")
    int maxTokens;

    @Option(names = "--no-torch-path", description = "Skip the last step: the same server's torch profiler traces "
            + "captured with vprof capture --torch-traces, no agent.")
    boolean noTorchPath;

    @Option(names = "--serve", description = "Start the simulated vLLM server and keep it up until Ctrl-C, "
            + "SIGTERM or SIGHUP, for trying the commands of a real server on it (README: \"Profiling a real server\"): prints "
            + "its URL and its GPU workers' pids; nothing is captured or written but the workers' logs in --dir.")
    boolean serve;

    @Option(names = "--port", paramLabel = "P", defaultValue = "8000",
            description = "With --serve: the HTTP port, 0 for a free one. Default: ${DEFAULT-VALUE}, as vLLM's.")
    int port;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "With --serve: the address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
    String host;

    @Option(names = "--otlp", paramLabel = "URL", defaultValue = "http://127.0.0.1:4318/v1/traces",
            description = "With --serve: where the server sends its llm_request spans (OTLP/HTTP JSON; HOST:PORT means "
                    + "http://HOST:PORT/v1/traces). Default: ${DEFAULT-VALUE}, where `vprof attach --otlp` listens.")
    String otlp;

    @Option(names = "--no-otlp", description = "With --serve: export no spans.")
    boolean noOtlp;

    @Option(names = "--load", paramLabel = "R", defaultValue = "4",
            description = "With --serve: requests per second the server sends itself, so captures have requests "
                    + "and kernels; 0 for none (bring your own, e.g. vprof bench). Default: ${DEFAULT-VALUE}.")
    double load;

    @Option(names = "--torch-profiler-dir", paramLabel = "DIR",
            description = "With --serve: also write a PyTorch profiler trace per worker into DIR on /stop_profile, as "
                    + "vLLM's torch profiler does (for vprof capture --torch-traces DIR).")
    Path torchProfilerDir;

    private PrintWriter err;
    private long t0;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        if (serve) {
            return serve(out);
        }
        for (String o : new String[] {"--port", "--host", "--otlp", "--no-otlp", "--load", "--torch-profiler-dir"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new CliException(o + " is an option of vprof demo --serve; add --serve, or leave it out");
            }
        }
        if (steady < 0 || burst < 0 || steady + burst == 0) {
            throw new CliException("--steady and --burst must be 0 or more, and not both 0");
        }
        if (!(rate > 0)) {
            throw new CliException("--rate must be positive");
        }
        if (maxTokens < 1) {
            throw new CliException("--max-tokens must be at least 1");
        }
        t0 = System.nanoTime();
        DemoScenario.Result result;
        try (DemoDir claimed = claim(false)) {
            DemoPlan plan = DemoPlan.of(claimed.dir(), steady, rate, burst, maxTokens, !noTorchPath);
            result = DemoScenario.run(plan, new CommandCaptures(), new DemoScenario.Listener() {
                @Override
                public void step(String line) {
                    DemoCommand.this.step(line);
                }

                @Override
                public void warning(String line) {
                    err.println("vprof: warning: demo: " + line);
                }
            }, err);
        } catch (DemoException e) {
            if (e.output() != null) {
                err.print(e.output());
            }
            throw new CliException(e.getMessage(), e);
        }
        print(out, result);
        if (result.failed() > 0) {
            err.println("vprof: warning: demo: " + result.failed() + " of " + result.requests() + " requests failed");
        }
        return ExitCode.OK.code();
    }

    /** The report, then the files and how to open them. */
    private void print(PrintWriter out, DemoScenario.Result r) {
        out.println(r.reportText());
        out.println("Files in " + dir + ":");
        out.printf("  %-14s the capture (vprof report %s)%n", r.capture().getFileName(), r.capture());
        for (Path t : r.traces()) {
            out.printf("  %-14s %s%n", t.getFileName(), t.toString().endsWith(".json")
                    ? "Chrome trace JSON (chrome://tracing, or Perfetto)" : "Perfetto trace");
        }
        out.printf("  %-14s this report%n", r.report().getFileName());
        if (r.torchCapture() != null) {
            out.printf("  %-14s the same server through its torch profiler, no agent (vprof report %s)%n",
                    r.torchCapture().getFileName(), r.torchCapture());
        }

        out.printf("  %-14s this report as one page: open it in a browser (file://%s)%n", r.page().getFileName(),
                r.page().toAbsolutePath());
        out.println("Open the trace: https://ui.perfetto.dev -> \"Open trace file\" -> "
                + r.traces().getFirst().toAbsolutePath());
        out.printf("vprof demo: done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        out.flush();
    }

    /** The demo's captures, made from the commands' own options: attach's CaptureOptions, and vprof capture itself. */
    private final class CommandCaptures implements DemoScenario.Captures {
        @Override
        public Capture attach(int pid, List<String> args, Path file, CaptureFeeds feeds) {
            CaptureOptions options = CaptureOptions.parse(args.toArray(String[]::new));
            options.validate();
            CapturePlan plan = options.plan(CapturePlan.Mode.ATTACH)
                    .rootPid(pid).arm(options.toSpec(Capture.newCaptureId())).output(file)
                    .commandLine(List.of("demo", "attach", "--pid", Integer.toString(pid)))
                    .build();
            return Capture.start(plan, Started.feeds(feeds), new CaptureEnvironment(AgentDirectory.system(), err, false));
        }

        @Override
        public int command(List<String> args, PrintWriter log) {
            CommandLine cl = Main.commandLine();
            cl.setOut(log);
            cl.setErr(log);
            return cl.execute(args.toArray(String[]::new));
        }
    }

    private int serve(PrintWriter out) throws InterruptedException {
        for (String o : new String[] {"--steady", "--rate", "--burst", "--no-torch-path"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new CliException(o + " shapes the demo's own run, not --serve; for load on the server use "
                        + "--load R or vprof bench");
            }
        }
        if (port < 0 || port > 65535) {
            throw new CliException("--port must be between 0 and 65535, not " + port);
        }
        if (!(load >= 0) || Double.isInfinite(load)) {
            throw new CliException("--load must be 0 or a positive number of requests per second");
        }
        if (maxTokens < 1) {
            throw new CliException("--max-tokens must be at least 1");
        }
        try (DemoDir claimed = claim(true)) {
            return DemoServe.run(new DemoServe.Options(host, port, noOtlp ? null : DemoServe.otlpUrl(otlp), load,
                    maxTokens, claimed.dir(), torchProfilerDir), out, err);
        }
    }

    /** --dir, held for this run: refused when a running demo uses it, or when it holds earlier files without --force. */
    private DemoDir claim(boolean forServe) {
        try {
            return DemoDir.claim(dir, forServe, force);
        } catch (DemoException e) {
            throw new CliException(e.getMessage(), e);
        }
    }

    // err is set once in call(), before any step runs, so every thread locks the same writer.
    @SuppressWarnings("SynchronizeOnNonFinalField")
    private void step(String s) {
        synchronized (err) {
            err.printf("vprof demo [%5.1fs] %s%n", (System.nanoTime() - t0) / 1e9, s);
            err.flush();
        }
    }
}
