package dev.vprof.cli;

import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureEnvironment;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.Started;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
                "  vprof capture --metrics localhost:8000 --otlp --duration 1m   # metrics and spans only"})
final class CaptureCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--trigger", paramLabel = "URL",
            description = "POST URL/start_profile as the capture starts and URL/stop_profile as it ends (the vLLM "
                    + "server, e.g. localhost:8000).")
    String trigger;

    @Option(names = "--torch-traces", paramLabel = "DIR",
            description = "The server's torch_profiler_dir: after /stop_profile, wait for the traces that appear "
                    + "there during the capture and fold their GPU work into the file.")
    Path torchTraces;

    @Option(names = "--torch-traces-timeout", paramLabel = "D", defaultValue = "5m",
            description = "How long to wait for the traces after the capture stops (vLLM can take minutes to "
                    + "write large ones). Default: ${DEFAULT-VALUE}.")
    String torchTracesTimeout = "5m";

    @Option(names = "--metrics", paramLabel = "URL",
            description = "Scrape this Prometheus /metrics endpoint for the whole capture "
                    + "(localhost:8000 means http://localhost:8000/metrics).")
    String metrics;

    @Option(names = "--metrics-interval", paramLabel = "D", defaultValue = "1s",
            description = "Time between scrapes, 100ms or more. Default: ${DEFAULT-VALUE}.")
    String metricsInterval = "1s";

    @Option(names = "--spans", paramLabel = "FILE",
            description = "Import spans from OTLP JSON lines (the collector's file exporter) or a Jaeger JSON export.")
    Path spans;

    @Option(names = "--duration", paramLabel = "D",
            description = "Stop after this long (500ms, 20s, 2m). Default: until Ctrl-C.")
    String duration;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "vprof-capture-%t.vprof",
            description = "Capture file; %%t is a timestamp. Default: ${DEFAULT-VALUE}.")
    String output = "vprof-capture-%t.vprof";

    @Option(names = "--force", description = "Replace the capture file if it exists.")
    boolean force;

    @Option(names = "--json", description = "When the capture ends, also print its closing summary (the file, "
            + "scrapes, spans; counts as integers) as one JSON object on stdout; the human lines stay on stderr.")
    boolean json;

    /** --otlp, --otlp-grpc, --otlp-http, --otlp-forward, --otlp-max-body. */
    @Mixin
    OtlpOptions otlp = new OtlpOptions();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        CaptureOptions o = options();
        o.validate();
        if (trigger == null && torchTraces == null && metrics == null && spans == null && !otlp.enabled()) {
            throw new CliException("vprof capture records only what it is given: pass --torch-traces with --trigger, "
                    + "--metrics, --otlp or --spans (for a process's kernels through an agent, use vprof attach)");
        }
        if (torchTraces != null && trigger == null) {
            err.println("vprof: note: --torch-traces without --trigger: start and stop the server's profiler "
                    + "yourself (vllm bench serve --profile) while the capture runs");
        }
        if (torchTraces != null && duration == null) {
            err.println("vprof: note: without --duration the capture runs until Ctrl-C, and a second Ctrl-C "
                    + "gives up waiting for the torch traces");
        }
        Path file = OutputPath.expand(output, ProcessHandle.current().pid(), LocalDateTime.now());
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
        o.printSummaryJson(running.awaitSummary(), file, null, spec.commandLine().getOut());
        return 0;
    }

    /** These options as the capture options {@code attach} takes (its agent options at their defaults). */
    CaptureOptions options() {
        CaptureOptions o = CaptureOptions.parse();
        o.trigger = trigger;
        o.torchTraces = torchTraces;
        o.torchTracesTimeout = torchTracesTimeout;
        o.metrics = metrics;
        o.metricsInterval = metricsInterval;
        o.spans = spans;
        o.duration = duration;
        o.output = output;
        o.otlp = otlp;
        o.json = json;
        return o;
    }
}
