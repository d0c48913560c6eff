package dev.vprof.export;

import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
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
     * {@code NAME-pidPID.json} next to {@code out}.
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
            case KINETO -> {
                List<TimelineProcess> processes = timeline.processes();
                List<Path> written = new ArrayList<>();
                if (processes.isEmpty()) {
                    throw new IllegalArgumentException("nothing to export as Kineto JSON: the capture has no process with GPU or API records");
                }
                for (TimelineProcess p : processes) {
                    Path file = processes.size() == 1 ? out : perProcess(out, p.pid());
                    String traceName = file.getFileName().toString();
                    writeAtomically(file, s -> new KinetoJsonWriter().write(timeline, p, traceName, s));
                    written.add(file);
                }
                yield written;
            }
        };
    }

    /** {@code dir/trace.json} -> {@code dir/trace-pid123.json}. */
    static Path perProcess(Path out, int pid) {
        String name = out.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : ".json";
        return out.resolveSibling(stem + "-pid" + pid + ext);
    }

    private interface Body {
        void write(OutputStream out) throws IOException;
    }

    private static void writeAtomically(Path out, Body body) throws IOException {
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
