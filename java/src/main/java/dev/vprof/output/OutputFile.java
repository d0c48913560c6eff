package dev.vprof.output;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One output being written: a temporary file beside the target, moved onto it by {@link #commit}
 * when whole; closed without a commit (a failure), the temporary file is removed.
 *
 * <p>The temporary name is {@code .NAME.vprof-tmp-PID-N}, created exclusively (CREATE_NEW), so two
 * writers never share one, and an unrelated file is never truncated. The commit syncs the file,
 * then claims the target: with {@code replace} by rename(2), which replaces atomically; without it
 * by link(2) then unlink(2) of the temporary name, since link(2) fails with EEXIST when the target
 * exists, in the same step that would claim it. {@code Files.move} cannot express "move unless
 * the target exists" atomically (its check and its rename are two steps), and link(2) needs no
 * native binding, where renameat2(RENAME_NOREPLACE) would. A file system without hard links
 * (FAT, some FUSE) falls back to the check-then-rename, which is what vprof did before.
 */
public final class OutputFile implements AutoCloseable {
    private static final AtomicLong NEXT = new AtomicLong();

    private final Path target;
    private final Path temp;
    private final boolean replace;
    private OutputStream stream;
    private boolean done;

    private OutputFile(Path target, Path temp, boolean replace) {
        this.target = target;
        this.temp = temp;
        this.replace = replace;
    }

    /**
     * What {@link #abandonAll} did: the outputs left unwritten, the temporaries it could not remove
     * (with why), and the outputs this JVM had already moved into place whole.
     */
    public record Abandoned(List<Path> outputs, List<String> leftBehind, List<Path> complete) {
        /** The outputs, by name, each once. */
        public String names() {
            return String.join(", ", outputs.stream().map(Path::toString).distinct().toList());
        }
    }

    /**
     * A signal ends the command: every temporary file and folder of this JVM not yet in place is
     * removed now, and one a writer claims after this is removed at once, so nothing reaches an
     * output's name. Prints nothing; the caller says what was stopped, in one sentence.
     */
    public static Abandoned abandonAll() {
        return Live.abandonAll();
    }

    /**
     * Claims a temporary file for {@code target} (created empty) after removing the leftovers of
     * killed vprofs in its folder. {@code replace}: whether an existing target may be replaced
     * (the command's {@code --force}).
     */
    public static OutputFile create(Path target, boolean replace) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new FileSystemException(target.toString(), null, "the folder " + dir + " does not exist");
        }
        refuseSpecial(abs);
        Leftovers.clean(dir, line -> System.err.println("vprof: note: " + line));
        while (true) {
            Path temp = Leftovers.tempName(abs, NEXT.incrementAndGet());
            try {
                Files.createFile(temp);
            } catch (FileAlreadyExistsException e) {
                continue; // a name of this pid from an earlier life of the pid: take the next
            }
            Live.add(temp, target);
            return new OutputFile(target, temp, replace);
        }
    }

    /** The file the writer writes; it may open it itself (a channel, a database) instead of {@link #stream}. */
    public Path temp() {
        return temp;
    }

    /** The name the file gets on {@link #commit}. */
    public Path target() {
        return target;
    }

    /** A buffered stream onto {@link #temp}; {@link #commit} closes it. */
    public OutputStream stream() throws IOException {
        if (stream == null) {
            stream = new BufferedOutputStream(Files.newOutputStream(temp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), 1 << 16);
        }
        return stream;
    }

    /** Closes {@link #stream} and keeps the file for a later {@link #commit} (frees its descriptor). */
    public void closeStream() throws IOException {
        if (stream != null) {
            stream.close();
        }
    }

    /**
     * Syncs the file and moves it onto the target. Throws {@link OutputTakenException} when the
     * target appeared meanwhile and may not be replaced; the temporary file is then removed.
     */
    public void commit() throws IOException {
        if (done) {
            throw new IOException(target + " was already committed or abandoned");
        }
        try {
            if (stream != null) {
                stream.close();
            }
            try (FileChannel c = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                c.force(true);
            }
            Live.commit(temp, target, () -> claim(temp, target, replace));
            done = true;
        } finally {
            if (!done) {
                close();
            }
        }
    }

    /** Moves {@code from} onto {@code to}: replacing it when {@code replace}, else only when {@code to} does not exist. */
    static void claim(Path from, Path to, boolean replace) throws IOException {
        if (replace) {
            refuseSpecial(to);
            try {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
            return;
        }
        try {
            Files.createLink(to, from);
        } catch (FileAlreadyExistsException e) {
            throw new OutputTakenException(to);
        } catch (NoSuchFileException e) {
            throw e; // the temporary file is gone (removed on a signal): nothing to claim
        } catch (UnsupportedOperationException | FileSystemException e) {
            if (Files.exists(to)) {
                throw new OutputTakenException(to);
            }
            Files.move(from, to); // no hard links here: check, then move
            return;
        }
        Files.delete(from);
    }

    /**
     * Refuses a target that exists and is not a regular file (a device, a FIFO, a folder, or a
     * link to one): a rename would put a file in place of {@code /dev/full} or a pipe another
     * program reads, which {@code --force} never means.
     */
    private static void refuseSpecial(Path target) throws IOException {
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            String what = Files.isDirectory(target) ? "a folder" : "a device, FIFO or socket";
            throw new FileSystemException(target.toString(), null,
                    "is " + what + ", not a regular file; vprof replaces only regular files, even with --force");
        }
    }

    /** Removes the temporary file unless committed. */
    @Override
    public void close() throws IOException {
        if (done) {
            return;
        }
        done = true;
        try {
            if (stream != null) {
                stream.close();
            }
        } catch (IOException e) {
            // the file goes anyway
        } finally {
            Files.deleteIfExists(temp);
            Live.remove(temp);
        }
    }
}
