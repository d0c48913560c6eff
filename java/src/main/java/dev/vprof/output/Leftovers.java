package dev.vprof.output;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a vprof killed with SIGKILL left behind: temporary files and folders whose name carries
 * the pid of a process that no longer runs. The next writer into the same folder removes them
 * and says so in one line. A name whose pid runs (another vprof writing now, or a pid reused by
 * an unrelated process) is left alone: removing a live writer's file would lose its output.
 */
public final class Leftovers {
    /** {@code .NAME.vprof-tmp-PID-N}: what {@link OutputFile} and {@link TempFolder} create. */
    static final String MARK = ".vprof-tmp-";
    private static final Pattern NAME = Pattern.compile("^\\..+\\.vprof-tmp-(\\d+)-\\d+$");

    private Leftovers() {}

    /** The temporary name of {@code target} for number {@code n} of this process. */
    static Path tempName(Path target, long n) {
        Path abs = target.toAbsolutePath();
        return abs.resolveSibling("." + abs.getFileName() + MARK + ProcessHandle.current().pid() + "-" + n);
    }

    /** Whether {@code file}'s name is one of vprof's temporary names. */
    public static boolean isTemporary(Path file) {
        return file.getFileName() != null && NAME.matcher(file.getFileName().toString()).matches();
    }

    /**
     * Removes the leftovers of dead vprof processes in {@code dir}, telling {@code say} one line
     * when there were any. Returns what was removed. Errors leave the file where it is (a later
     * run tries again); they never stop the writer that asked.
     */
    public static List<Path> clean(Path dir, Consumer<String> say) {
        List<Path> removed = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return removed;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, ".*" + MARK + "*")) {
            for (Path p : entries) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (!m.matches() || alive(m.group(1))) {
                    continue;
                }
                try {
                    deleteTree(p);
                    removed.add(p);
                } catch (IOException | RuntimeException e) {
                    // left for a later run
                }
            }
        } catch (IOException | RuntimeException e) {
            return removed;
        }
        if (!removed.isEmpty() && say != null) {
            say.accept("removed " + removed.size() + " temporary " + (removed.size() == 1 ? "file" : "files")
                    + " in " + dir + " that a vprof killed earlier left behind (" + removed.getFirst().getFileName()
                    + (removed.size() > 1 ? ", ..." : "") + ")");
        }
        return removed;
    }

    private static boolean alive(String pid) {
        try {
            long p = Long.parseLong(pid);
            return p == ProcessHandle.current().pid() || ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return true; // not a pid we wrote: not ours to remove
        }
    }

    /** Removes {@code p}, a file or a folder with what is inside it; nothing when it is gone. */
    static void deleteTree(Path p) throws IOException {
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(p);
            return;
        }
        try {
            Files.walkFileTree(p, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // gone meanwhile
        }
    }
}
