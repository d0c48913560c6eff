package dev.vprof.engine;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.trace.TorchTraceImport;
import dev.vprof.trace.TorchTraceOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Folds vLLM's torch profiler traces into the capture file being written, through the trace
 * reader's own import ({@link TorchTraceImport#into}): each trace becomes one process of the
 * capture, its kernels on the same clock as the capture's metrics and spans (a trace's times are
 * epoch time already). A file the reader refuses adds nothing, and is named.
 */
final class TorchTraceFold {
    private TorchTraceFold() {}

    /** Returns the closing summary's line. */
    static String fold(List<Path> files, CaptureOutput out, PrintWriter err, Set<Integer> pidsInUse) {
        CaptureWriter writer = out.writer();
        if (writer == null) {
            throw new IllegalStateException("this capture output cannot take a source's records");
        }
        TorchTraceImport.Result r;
        try {
            r = TorchTraceImport.into(writer, files, TorchTraceOptions.defaults(), pidsInUse);
        } catch (CaptureFormatException e) {
            throw new CaptureException("--torch-traces: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new CaptureException("--torch-traces: cannot read the traces in " + files.getFirst().getParent()
                    + ": " + e.getMessage(), e);
        }
        for (String w : r.warnings()) {
            err.println("vprof: --torch-traces: warning: " + w);
        }
        long memcpys = r.processes().stream().mapToLong(TorchTraceImport.ProcessSummary::memcpys).sum();
        return String.format(Locale.ROOT, "vprof: --torch-traces: folded %d trace%s (%.1f MB of JSON): %d kernels, "
                        + "%d memcpys from %d process%s: %s", files.size(), files.size() == 1 ? "" : "s",
                r.jsonBytes() / 1e6, r.kernels(), memcpys, r.processes().size(),
                r.processes().size() == 1 ? "" : "es", String.join(", ", TorchTraceFolder.names(files)));
    }
}
