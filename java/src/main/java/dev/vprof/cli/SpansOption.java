package dev.vprof.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --spans FILE}, declared once for the commands that take it: {@code report} places the
 * file's request spans on the input's timeline, {@code run}, {@code attach} and {@code capture}
 * store them in the capture. Both read the file through one reader, {@code engine.SpansFile}.
 */
final class SpansOption {
    @Option(names = "--spans", paramLabel = "FILE",
            description = "Request spans from a file: OTLP/JSON lines (a collector's file exporter), OTLP/JSON or a "
                    + "Jaeger JSON export, placed on the timeline by wall clock; each request gets its per-phase "
                    + "GPU time.")
    Path file;
}
