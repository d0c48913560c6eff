package dev.vprof.export;

import dev.vprof.export.sqlite.SqliteWriter;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.output.OutputFile;
import dev.vprof.output.OutputTakenException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The entry point of {@code vprof export}: picks a writer for the format and writes the file. Each
 * file is written through {@link OutputFile} (beside its destination, claimed when complete), so
 * an interrupted export never leaves a truncated trace under the real name.
 */
public final class Exporter {
    private Exporter() {}

    /**
     * Writes {@code source} (a capture streamed from its file) to {@code out}
     * in {@code format} and returns the files written. Kineto traces hold one process each (HTA reads
     * one file per rank): with several processes, each goes to {@code NAME-pidPID.json} next to
     * {@code out} ({@link KinetoFiles}, which also takes steps).
     */
    public static List<Path> export(TimelineSource source, Path out, ExportFormat format) throws IOException {
        return export(source, out, format, true);
    }

    /**
     * As {@link #export(TimelineSource, Path, ExportFormat)}; without {@code replace} an output
     * that exists when the export is done is left as it is ({@link OutputTakenException}).
     */
    public static List<Path> export(TimelineSource source, Path out, ExportFormat format, boolean replace)
            throws IOException {
        return switch (format) {
            case PERFETTO -> {
                writeAtomically(out, replace, s -> new PerfettoWriter().write(source, s));
                yield List.of(out);
            }
            case CHROME -> {
                writeAtomically(out, replace, s -> new ChromeJsonWriter().write(source, s));
                yield List.of(out);
            }
            case KINETO -> KinetoFiles.write(source, out, null, replace).paths();
            case SQLITE -> {
                SqliteWriter.write(source, out, SqliteWriter.Facts.none(), replace);
                yield List.of(out);
            }
        };
    }

    /** TensorBoard's PyTorch profiler plugin reads only files that end so. */
    private static final String PYTORCH_TRACE = ".pt.trace.json";

    /**
     * {@code dir/trace.json} -> {@code dir/trace-pid123.json}; {@code dir/w.pt.trace.json} ->
     * {@code dir/w-pid123.pt.trace.json}, which TensorBoard still finds.
     */
    public static Path perProcess(Path out, int pid) {
        String name = out.getFileName().toString();
        if (name.endsWith(PYTORCH_TRACE) && name.length() > PYTORCH_TRACE.length()) {
            return out.resolveSibling(name.substring(0, name.length() - PYTORCH_TRACE.length()) + "-pid" + pid + PYTORCH_TRACE);
        }
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : ".json";
        return out.resolveSibling(stem + "-pid" + pid + ext);
    }

    interface Body {
        void write(OutputStream out) throws IOException;
    }

    /** Writes {@code out} through {@link OutputFile}: aside, then claimed whole (replacing it only when {@code replace}). */
    static void writeAtomically(Path out, boolean replace, Body body) throws IOException {
        try (OutputFile file = OutputFile.create(out, replace)) {
            body.write(file.stream());
            file.commit();
        }
    }
}
