package dev.vprof.cli;

import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureEnvironment;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.CaptureSummary;
import dev.vprof.engine.Started;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vprof capture}: a capture with no agents, only the feeds: /metrics, spans, the
 * profiler trigger, and vLLM's own torch profiler traces folded in at the end. The same engine
 * as {@code attach} ({@link CapturePlan.Mode#FEEDS}), the same options as its feed options.
 */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = {"Capture a vLLM server without an agent: its /metrics, its request spans, and the GPU work "
                + "its own torch profiler records, in one file on one clock.",
                "vprof POSTs /start_profile and /stop_profile (--trigger), then waits for the traces vLLM writes "
                        + "into its torch_profiler_dir (--torch-traces) and folds their kernels into the file."},
        footer = {"", "Examples:",
                "  # vLLM started with --profiler-config '{\"profiler\":\"torch\",\"torch_profiler_dir\":\"./vllm_profile\"}'",
                "  vprof capture --trigger localhost:8000 --torch-traces ./vllm_profile \\",
                "      --metrics localhost:8000/metrics --otlp --duration 20s -o x.vprof",
                "  vprof capture --metrics localhost:8000 --otlp --duration 1m   # metrics and spans only",
                "", SignalHelp.CAPTURE})
final class CaptureCommand extends VprofCommand {
    CaptureCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.INTERRUPTED);
    }

    @Option(names = "--duration", paramLabel = "D",
            description = "Stop after this long (500ms, 20s, 2m). Default: until Ctrl-C.")
    String duration;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "vprof-capture-%t.vprof",
            description = "Capture file; %%t is a timestamp. Default: ${DEFAULT-VALUE}.")
    String output = "vprof-capture-%t.vprof";

    @Option(names = "--force", description = "Replace the capture file if it exists.")
    boolean force;

    /** --metrics, --trigger, --torch-traces, --spans, --otlp*, --json: the same options as attach's. */
    @Mixin
    FeedOptions feeds = new FeedOptions();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        CaptureOptions o = options();
        o.validate();
        if (feeds.trigger == null && feeds.torchTraces == null && feeds.scrape.metrics == null && feeds.spans.file == null
                && !feeds.otlp.enabled()) {
            throw new CliException("vprof capture records only what it is given: pass --torch-traces with --trigger, "
                    + "--metrics, --otlp or --spans (for a process's kernels through an agent, use vprof attach)");
        }
        if (feeds.torchTraces != null && feeds.trigger == null) {
            err.println("vprof: note: --torch-traces without --trigger: start and stop the server's profiler "
                    + "yourself (vllm bench serve --profile) while the capture runs");
        }
        if (feeds.torchTraces != null && duration == null) {
            err.println("vprof: note: without --duration the capture runs until Ctrl-C, and a second Ctrl-C "
                    + "gives up waiting for the torch traces");
        }
        Path file = OutputPath.expand(output, ProcessHandle.current().pid(), LocalDateTime.now(ZoneId.systemDefault()));
        OutputPath.refuseExisting(file, force, "capture file");
        OutputPath.checkWritable(file);
        List<String> commandLine = new ArrayList<>();
        commandLine.add("capture");
        commandLine.addAll(spec.commandLine().getParseResult().originalArgs());
        CapturePlan plan = o.plan(CapturePlan.Mode.FEEDS)
                .arm(o.toSpec(Capture.newCaptureId())).output(file).commandLine(commandLine)
                .build();
        CaptureFeeds feeds = o.openFeeds(err);
        Capture running = Capture.start(plan, Started.feeds(feeds), CaptureEnvironment.system(err));
        CaptureSummary summary = running.awaitSummary();
        int exit = o.exportSpans(file, o.humanOut(spec.commandLine().getOut(), err), err);
        o.printSummaryJson(summary, file, null, spec.commandLine().getOut());
        return exit;
    }

    /** These options as the capture options {@code attach} takes (its agent options at their defaults). */
    CaptureOptions options() {
        CaptureOptions o = CaptureOptions.parse();
        feeds.copyTo(o);
        o.duration = duration;
        o.output = output;
        return o;
    }
}
