package dev.vprof.cli;

import dev.vprof.capture.CaptureReader;
import dev.vprof.otlp.ForwardTarget;
import dev.vprof.otlp.Span;
import dev.vprof.source.CaptureSources;
import dev.vprof.spanexport.GpuSpans;
import dev.vprof.spanexport.OtlpSpanExporter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** {@code vprof export FILE --otlp URL}: the capture's request spans, GPU-enriched, to the person's collector. */
final class OtlpExport {
    private OtlpExport() {}

    /** Exit status: 0 when every span was accepted, 2 when some were not (counted) or for an error. */
    static int run(Path file, String url, PrintWriter stdout, PrintWriter err) {
        ForwardTarget target;
        try {
            target = ForwardTarget.parse(url);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage().replace("--otlp-forward", "--otlp"));
        }
        List<Span> spans;
        try (CaptureReader reader = CaptureSources.open(file)) {
            spans = GpuSpans.of(reader);
        } catch (IOException e) {
            throw CaptureOpenError.of(file, e, null);
        }
        if (spans.isEmpty()) {
            throw new CliException(file + " holds no request spans (llm_request); capture with --otlp while vLLM "
                    + "sends its traces (--otlp-traces-endpoint) to have some");
        }
        OtlpSpanExporter.Result r;
        try {
            r = new OtlpSpanExporter(target, OtlpSpanExporter.Settings.DEFAULTS).export(spans);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("vprof export: interrupted while sending spans to " + target);
            return 2;
        }
        if (r.notAccepted() == 0) {
            stdout.println(r.describe(target));
        } else {
            err.println("vprof export: " + r.describe(target) + "; check that the collector at " + target
                    + " is up and accepts these spans, then export again");
        }
        stdout.flush();
        err.flush();
        return r.notAccepted() == 0 ? 0 : 2;
    }
}
