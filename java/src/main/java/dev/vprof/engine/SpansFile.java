package dev.vprof.engine;

import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.SpanImport;
import dev.vprof.source.InputKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * The one reader of {@code --spans FILE}, for the commands that capture and those that read a capture
 * or a trace: the spans of an OTLP/JSON lines file (an OpenTelemetry Collector's file exporter), an
 * OTLP/JSON document or a Jaeger export, through {@link SpanImport}. A file that is not spans at all
 * ({@code /etc/passwd}, a log), a FIFO or a device is one sentence ({@link CaptureException}, exit 2);
 * in a spans file, bad lines are named as warnings and the good spans kept.
 */
public final class SpansFile {
    private SpansFile() {}

    /** How each warning about the file begins. */
    static final String PREFIX = "vprof: warning: --spans: ";

    /** Reads {@code file}; null gives no spans. */
    public static SpanImport.Result read(Path file, PrintWriter err) {
        if (file == null) {
            return new SpanImport.Result(null, List.of(), List.of(), List.of(), 0);
        }
        try {
            InputKind kind = InputKind.of(file);
            switch (kind.kind()) {
                case MISSING, FIFO, DEVICE, SOCKET, TRACE_FOLDER ->
                        throw new CaptureException("--spans " + (kind.kind() == InputKind.Kind.TRACE_FOLDER
                                ? file + " is a folder; give the spans file itself" : kind.refusal()));
                default -> { }
            }
        } catch (IOException e) {
            throw new CaptureException("--spans: cannot read " + file + ": " + e.getMessage(), e);
        }
        SpanImport.Result r;
        try {
            r = SpanImport.read(file);
        } catch (OtlpFormatException e) {
            throw new CaptureException("--spans: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new CaptureException("--spans: cannot read " + file + ": " + e.getMessage(), e);
        }
        if (r.spans().isEmpty() && r.errorCount() > 0) {
            // Not a spans file at all: one sentence, not one error per line.
            String first = r.errors().isEmpty() ? "" : r.errors().getFirst().lines().findFirst().orElse("");
            throw new CaptureException("--spans " + file + " holds no spans: none of its " + r.errorCount()
                    + " entr" + (r.errorCount() == 1 ? "y" : "ies") + " is an OTLP JSON request or a Jaeger JSON trace "
                    + "(first: " + first + "); give the collector's file exporter output (OTLP JSON lines) or a Jaeger "
                    + "JSON export");
        }
        for (String e : r.errors()) {
            err.println(PREFIX + e);
        }
        if (r.errorCount() > r.errors().size()) {
            err.println(PREFIX + "... and " + (r.errorCount() - r.errors().size()) + " more errors");
        }
        if (r.errorCount() > 0) {
            err.println(PREFIX + "kept the " + r.spans().size() + " good span(s) of " + file);
        }
        err.flush();
        return r;
    }
}
