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

    /**
     * What was folded in, for the capture's one summary line: the traces' processes, kernels and
     * records (their GPU ops, API calls, annotations and CPU slices), and where they came from.
     */
    record Folded(int processes, long kernels, long records, String from) {}

    /** Folds {@code files} into the capture being written; returns what they added. */
    static Folded fold(List<Path> files, CaptureOutput out, PrintWriter err, Set<Integer> pidsInUse) {
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
            err.println("vprof: warning: --torch-traces: " + w);
        }
        long records = 0;
        for (TorchTraceImport.ProcessSummary p : r.processes()) {
            records += p.kernels() + p.memcpys() + p.memsets() + p.apiCalls() + p.annotations() + p.cpuOps();
        }
        String from = String.format(Locale.ROOT, "--torch-traces: folded %d trace%s (%.1f MB of JSON: %s)",
                files.size(), files.size() == 1 ? "" : "s", r.jsonBytes() / 1e6,
                String.join(", ", TorchTraceFolder.names(files)));
        return new Folded(r.processes().size(), r.kernels(), records, from);
    }
}
