package dev.vprof.engine;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** Folds vLLM's torch profiler traces into the capture file being written (pending the trace reader). */
final class TorchTraceFold {
    private TorchTraceFold() {}

    static String fold(List<Path> files, CaptureOutput out, PrintWriter err) {
        throw new CaptureException("--torch-traces: found " + files.size() + " trace(s), but this build cannot read them yet");
    }
}
