package dev.vprof.export;

import dev.vprof.export.sqlite.SqliteWriter;
import dev.vprof.timeline.TimelineSource;
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
     * Writes {@code source} (a capture streamed from its file) to {@code out}
     * in {@code format} and returns the files written. Kineto traces hold one process each (HTA reads
     * one file per rank): with several processes, each goes to {@code NAME-pidPID.json} next to
     * {@code out} ({@link KinetoFiles}, which also takes steps).
     */
    public static List<Path> export(TimelineSource source, Path out, ExportFormat format) throws IOException {
        return switch (format) {
            case PERFETTO -> {
                writeAtomically(out, s -> new PerfettoWriter().write(source, s));
                yield List.of(out);
            }
            case CHROME -> {
                writeAtomically(out, s -> new ChromeJsonWriter().write(source, s));
                yield List.of(out);
            }
            case KINETO -> KinetoFiles.write(source, out, null).paths();
            case SQLITE -> {
                SqliteWriter.write(source, out, SqliteWriter.Facts.none());
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

    static void writeAtomically(Path out, Body body) throws IOException {
        try (AtomicFile file = AtomicFile.create(out)) {
            body.write(file.stream());
            file.commit();
        }
    }

    /**
     * A file written under a temporary name beside its destination and moved into place by
     * {@link #commit}; closed without a commit (an error), the temporary file is deleted.
     */
    static final class AtomicFile implements AutoCloseable {
        private final Path out;
        private final Path tmp;
        private final OutputStream stream;
        private boolean streamClosed;
        private boolean done;

        /** Opens {@code OUT.part} beside {@code out}. */
        static AtomicFile create(Path out) throws IOException {
            return new AtomicFile(out);
        }

        private AtomicFile(Path out) throws IOException {
            Path dir = out.toAbsolutePath().getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                throw new IOException("cannot write " + out + ": directory " + dir + " does not exist");
            }
            this.out = out;
            this.tmp = out.resolveSibling(out.getFileName() + ".part");
            this.stream = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
        }

        OutputStream stream() {
            return stream;
        }

        /** Closes the stream and keeps the temporary file, to commit later (frees its descriptor). */
        void closeStream() throws IOException {
            if (!streamClosed) {
                streamClosed = true;
                stream.close();
            }
        }

        /** Moves the complete file into place. */
        void commit() throws IOException {
            closeStream();
            try {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        }

        @Override
        public void close() throws IOException {
            if (done) {
                return;
            }
            done = true;
            try {
                closeStream();
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
