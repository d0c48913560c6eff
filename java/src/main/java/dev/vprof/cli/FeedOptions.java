package dev.vprof.cli;

import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a capture records besides the agents' activity, the same options on {@code run},
 * {@code attach} and {@code capture} (which takes only these): the server's /metrics, its profiler
 * trigger and torch traces, spans (a file, or an OTLP receiver), where the spans go after, and the
 * closing summary as JSON. Declared once here: {@link CaptureOptions} extends it, and
 * {@link CaptureCommand} takes it as its mixin.
 */
class FeedOptions {
    /** --metrics, --metrics-interval. */
    @Mixin
    MetricsOptions scrape = new MetricsOptions();

    /** --spans FILE. */
    @Mixin
    SpansOption spans = new SpansOption();

    @Option(names = "--trigger", paramLabel = "URL",
            description = {"POST URL/start_profile when the capture starts and URL/stop_profile when it ends, "
                    + "as `vllm bench serve --profile` does. With vLLM started with "
                    + "--profiler-config '{\"profiler\":\"cuda\"}' and --capture-range=cudaProfilerApi, "
                    + "no bench client is needed."})
    String trigger;

    @Option(names = "--torch-traces", paramLabel = "DIR",
            description = {"vLLM's torch profiler as a source: after the capture (and --trigger's /stop_profile), "
                    + "wait for the PyTorch profiler traces that appear in DIR, the server's torch_profiler_dir "
                    + "(--profiler-config '{\"profiler\":\"torch\",\"torch_profiler_dir\":DIR}'), and fold "
                    + "their GPU work into the capture file: that GPU work needs no agent."})
    Path torchTraces;

    @Option(names = "--torch-traces-timeout", paramLabel = "D", defaultValue = "5m",
            description = "How long to wait for the torch traces after the capture stops (vLLM can take minutes "
                    + "to write large ones). Default: ${DEFAULT-VALUE}.")
    String torchTracesTimeout = "5m";

    @Option(names = "--otlp-export", paramLabel = "URL",
            description = "When the capture ends, send its request spans with vprof's GPU attributes to this "
                    + "OpenTelemetry Collector (grpc://HOST:4317 or http://HOST:4318/v1/traces), as vprof export "
                    + "FILE --otlp URL does; needs spans: --otlp or --spans")
    String otlpExport;

    @Option(names = "--json", description = "When the capture ends, also print its closing summary (the file, "
            + "processes, ranges, kernels, records, drops, scrapes, spans; counts as integers) as one JSON object, "
            + "the last line on stdout; the human lines stay on stderr.")
    boolean json;

    /** --otlp, --otlp-grpc, --otlp-http, --otlp-forward, --otlp-max-body. */
    @Mixin
    OtlpOptions otlp = new OtlpOptions();

    /** Copies these options into {@code to} (vprof capture's own into the capture options it runs with). */
    void copyTo(FeedOptions to) {
        to.scrape = scrape;
        to.spans = spans;
        to.trigger = trigger;
        to.torchTraces = torchTraces;
        to.torchTracesTimeout = torchTracesTimeout;
        to.otlpExport = otlpExport;
        to.json = json;
        to.otlp = otlp;
    }
}
