package dev.vprof.export;

import dev.vprof.timeline.Timeline;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The entry point of {@code vprof export}: picks a writer for the format and writes the file. Each
 * file is written beside its destination under a temporary name and moved into place when
 * complete, so an interrupted export never leaves a truncated trace under the real name.
 */
public final class Exporter {
    private Exporter() {}

    /**
     * Writes {@code timeline} to {@code out} in {@code format} and returns the files written. Kineto
     * traces hold one process each (HTA reads one file per rank): with several processes, each goes to
     * {@code NAME-pidPID.json} next to {@code out} ({@link KinetoFiles}, which also takes steps).
     */
    public static List<Path> export(Timeline timeline, Path out, ExportFormat format) throws IOException {
        return switch (format) {
            case PERFETTO -> {
                writeAtomically(out, s -> new PerfettoWriter().write(timeline, s));
                yield List.of(out);
            }
            case CHROME -> {
                writeAtomically(out, s -> new ChromeJsonWriter().write(timeline, s));
                yield List.of(out);
            }
            case KINETO -> KinetoFiles.write(timeline, out, null).paths();
        };
    }

    /** TensorBoard's PyTorch profiler plugin reads only files that end so. */
    private static final String PYTORCH_TRACE = ".pt.trace.json";

    /**
     * {@code dir/trace.json} -> {@code dir/trace-pid123.json}; {@code dir/w.pt.trace.json} ->
     * {@code dir/w-pid123.pt.trace.json}, which TensorBoard still finds.
     */
    static Path perProcess(Path out, int pid) {
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

    static void writeAtomically(Path out, Body body) throws IOException {
        Path dir = out.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IOException("cannot write " + out + ": directory " + dir + " does not exist");
        }
        Path tmp = out.resolveSibling(out.getFileName() + ".part");
        try (OutputStream s = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
            body.write(s);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        try {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
