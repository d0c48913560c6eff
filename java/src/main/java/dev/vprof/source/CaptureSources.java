package dev.vprof.source;

import dev.vprof.capture.CaptureReader;
import dev.vprof.nsys.NsysExport;
import dev.vprof.trace.TorchTraceImport;
import dev.vprof.trace.TorchTraceOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The one way every command opens what it reads: a {@code .vprof} capture, a PyTorch profiler
 * trace ({@code .json}, {@code .json.gz}, {@code *.pt.trace.json[.gz]}) or a folder of rank
 * traces, which the trace reader ({@link TorchTraceImport}) turns into the same records in a
 * temporary capture that the reader removes when closed, or an Nsight Systems SQLite export,
 * which {@link NsysExport} turns into such a capture the same way. Every reader of a capture (report,
 * export, diff, the SQLite and HTML sinks, merge, replay) calls this, never
 * {@link CaptureReader#open} directly, so a new source reaches all of them at once.
 */
public final class CaptureSources {
    private CaptureSources() {}

    /** Opens {@code path} as a capture; the caller closes the reader. */
    public static CaptureReader open(Path path) throws IOException {
        return open(path, TorchTraceOptions.defaults());
    }

    /** Opens {@code path}, reading a trace with {@code traceOptions}; the caller closes the reader. */
    public static CaptureReader open(Path path, TorchTraceOptions traceOptions) throws IOException {
        return open(path, traceOptions, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * Opens {@code path}; a trace or an nsys export is converted into a temporary capture in {@code tempDir}, removed
     * when the reader closes (and at once if the conversion fails).
     */
    public static CaptureReader open(Path path, TorchTraceOptions traceOptions, Path tempDir) throws IOException {
        if (NsysExport.claims(path)) {
            return NsysExport.open(path, tempDir); // an Nsight Systems SQLite export
        }
        if (!Files.exists(path) || !TorchTraceImport.looksLikeTrace(path)) {
            return CaptureReader.open(path);
        }
        Path temp = Files.createTempFile(tempDir, "vprof-trace-", ".vprof");
        TorchTraceImport.Result result;
        try {
            result = TorchTraceImport.write(temp, List.of(path), traceOptions, List.of());
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        return CaptureReader.openMade(temp, path, result.warnings(), () -> {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
