package dev.vprof.source;

import dev.vprof.capture.CaptureReader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The one way every command opens what it reads: a {@code .vprof} capture today; a PyTorch
 * profiler trace ({@code .json}, {@code .json.gz}, {@code *.pt.trace.json[.gz]}) or a folder of
 * rank traces once the trace reader turns them into the same records. Every reader of a capture
 * (report, export, diff, the SQLite and HTML sinks, merge, replay) calls this, never
 * {@link CaptureReader#open} directly, so a new source reaches all of them at once.
 */
public final class CaptureSources {
    private CaptureSources() {}

    /** Opens {@code path} as a capture; the caller closes the reader. */
    public static CaptureReader open(Path path) throws IOException {
        return CaptureReader.open(path);
    }
}
