package dev.vprof.source;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureReader;
import dev.vprof.nsys.NsysExport;
import dev.vprof.trace.TorchTraceImport;
import dev.vprof.trace.TorchTraceOptions;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The one way every command opens what it reads, told apart first by {@link InputKind} (which names
 * what vprof does not read, and refuses a FIFO or a device before opening it): a {@code .vprof} capture, an Nsight Systems SQLite export, or a PyTorch profiler
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
        InputKind kind = InputKind.of(path);
        switch (kind.kind()) {
            case CAPTURE -> {
                return CaptureReader.open(path);
            }
            case TRACE, TRACE_FOLDER -> {
                return trace(path, traceOptions, tempDir);
            }
            case MISSING -> throw new NoSuchFileException(path.toString());
            case NSYS_EXPORT, VPROF_SQLITE, SQLITE -> {
                // The export's tables into the same records, through a temporary capture (vprof's own
                // SQLite export is in Nsight Systems' schema, so it reads the same way); the nsys reader
                // says what is wrong with any other SQLite file (cut short, not an export, a table missing).
                return NsysExport.open(path, tempDir);
            }
            default -> throw new CaptureFormatException(kind.refusal());
        }
    }

    private static CaptureReader trace(Path path, TorchTraceOptions traceOptions, Path tempDir) throws IOException {
        return CaptureReader.openConverted(path, tempDir.resolve("vprof-trace"), "trace.vprof",
                capture -> TorchTraceImport.write(capture, List.of(path), traceOptions, List.of()).warnings());
    }

    /**
     * The one sentence for {@code e}, met opening or reading {@code input} (null: the caller reads
     * several and the exception names the file), the same for every command and for {@code vprof mcp}'s
     * tools.
     */
    public static String whyNot(Path input, IOException e) {
        String file = e instanceof FileSystemException f && f.getFile() != null ? f.getFile()
                : input == null ? "the input" : input.toString();
        if (e instanceof CaptureFormatException) {
            return e.getMessage();
        }
        if (e instanceof NoSuchFileException) {
            return file + " does not exist";
        }
        if (e instanceof AccessDeniedException) {
            return "cannot read " + file + ": permission denied";
        }
        if (input != null && Files.isDirectory(input)) {
            return "cannot read " + input + ": it is a directory";
        }
        return "cannot read " + file + ": " + e.getMessage();
    }
}
