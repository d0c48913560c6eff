package dev.vprof.output;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A writer's work folder beside its output ({@code .NAME.vprof-tmp-PID-N/}), removed with what is
 * in it on {@link #close}, on SIGINT/SIGTERM/SIGHUP, and by the next writer into the same folder
 * after a SIGKILL ({@link Leftovers}).
 */
public final class TempFolder implements AutoCloseable {
    private static final AtomicLong NEXT = new AtomicLong(1L << 20); // apart from OutputFile's numbers

    private final Path dir;

    private TempFolder(Path dir) {
        this.dir = dir;
    }

    /** A new, empty folder beside {@code target}. */
    public static TempFolder beside(Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        Leftovers.clean(abs.getParent(), line -> System.err.println("vprof: note: " + line));
        while (true) {
            Path d = Leftovers.tempName(abs, NEXT.incrementAndGet());
            try {
                Files.createDirectory(d);
            } catch (FileAlreadyExistsException e) {
                continue;
            }
            Live.add(d, null);
            return new TempFolder(d);
        }
    }

    public Path path() {
        return dir;
    }

    @Override
    public void close() throws IOException {
        try {
            Leftovers.deleteTree(dir);
        } finally {
            Live.remove(dir);
        }
    }
}
