package dev.vprof.cli;

import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanImport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --spans FILE} for commands that read a capture or a trace: the spans of an OTLP/JSON lines
 * file (an OpenTelemetry Collector's file exporter), an OTLP/JSON document or a Jaeger export, read by
 * the same import as a capture's {@code --spans}. Bad lines are named and skipped; a file that is not
 * spans at all is one sentence.
 */
final class SpansFile {
    private SpansFile() {}

    static List<Span> read(Path file, PrintWriter err) {
        if (file == null) {
            return List.of();
        }
        SpanImport.Result r;
        try {
            r = SpanImport.read(file);
        } catch (NoSuchFileException e) {
            throw new CliException("--spans " + file + " does not exist");
        } catch (OtlpFormatException e) {
            throw new CliException("--spans: " + e.getMessage());
        } catch (IOException e) {
            throw new CliException("--spans: cannot read " + file + ": " + e.getMessage());
        }
        for (String e : r.errors()) {
            err.println("vprof: --spans: " + e);
        }
        if (r.errorCount() > r.errors().size()) {
            err.println("vprof: --spans: ... and " + (r.errorCount() - r.errors().size()) + " more errors");
        }
        if (r.errorCount() > 0) {
            err.println("vprof: --spans: kept the " + r.spans().size() + " good span(s) of " + file);
        }
        return r.spans();
    }
}
