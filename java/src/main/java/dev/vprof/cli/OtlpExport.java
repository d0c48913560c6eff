package dev.vprof.cli;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ReadStats;
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

    /**
     * Exit status, a row of {@link ExitCode}: OK when every span was accepted, CANNOT when some were
     * not (counted), INTERRUPTED when stopped while sending, READ_PARTLY when all were sent from a
     * capture read only partly (what it held past the damage was not sent), or when such a capture
     * has no spans left to send.
     */
    static int run(Path file, String url, PrintWriter stdout, PrintWriter err) {
        ForwardTarget target;
        try {
            target = ForwardTarget.parse(url);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage().replace("--otlp-forward", "--otlp"));
        }
        List<Span> spans;
        ReadStats health;
        try (CaptureReader reader = CaptureSources.open(file)) {
            spans = GpuSpans.of(reader);
            health = reader.readStats();
        } catch (IOException e) {
            throw CaptureOpenError.of(file, e, null);
        }
        if (spans.isEmpty() && health.readPartly()) {
            // The spans may have been in what was lost: say that, not only that there are none.
            ReadHealth.warnings(err, health);
            err.println("vprof: " + file + " holds no request spans (llm_request) in what could be read; nothing was sent");
            return ReadHealth.finish(err, "export", ExitCode.CANNOT, List.of(health));
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
            err.println("vprof: interrupted while sending spans to " + target);
            err.flush();
            return ExitCode.INTERRUPTED.code();
        }
        ReadHealth.warnings(err, health);
        if (r.notAccepted() == 0) {
            stdout.println(r.describe(target));
        } else {
            err.println("vprof: " + r.describe(target) + "; check that the collector at " + target
                    + " is up and accepts these spans, then export again");
        }
        stdout.flush();
        return ReadHealth.finish(err, "export", r.notAccepted() == 0 ? ExitCode.OK : ExitCode.CANNOT, List.of(health));
    }
}
