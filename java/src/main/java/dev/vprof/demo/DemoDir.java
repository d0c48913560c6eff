package dev.vprof.demo;

import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folder a demo writes into, claimed for one run. A running demo (and {@code demo --serve},
 * whose workers write their logs there for as long as it runs) holds an exclusive flock(2) on a
 * hidden file in it, so a second demo given the same folder is refused even with {@code --force};
 * the kernel drops the lock when the demo's process ends, however it ends, and flock locks belong
 * to an open file, so a second claim in the same JVM is refused too. A folder that holds an earlier
 * demo's capture, traces or reports is refused unless {@code --force}.
 */
public final class DemoDir implements AutoCloseable {
    /** The hidden file whose lock a running demo holds; it names that demo's pid. */
    static final String LOCK = ".vprof-demo.lock";

    /** What {@code vprof demo} writes into its folder besides the workers' logs ({@link #workerLog}). */
    static final List<String> RUN_FILES = List.of("capture.vprof", "trace.pftrace", "trace.json", "report.txt",
            "report.html", DemoTorchPath.FILE, DemoScenario.TORCH_TRACES);

    private final Path dir;
    private int fd;

    private DemoDir(Path dir, int fd) {
        this.dir = dir;
        this.fd = fd;
    }

    /** The log file of the GPU worker of {@code rank}. */
    static String workerLog(int rank) {
        return "worker-" + rank + ".log";
    }

    /**
     * Claims {@code dir} for a demo run ({@code serve}: only the workers' logs are written there),
     * making it when missing. Refuses, in one sentence, a folder a running demo uses, and one that
     * holds an earlier demo's files unless {@code force}.
     */
    public static DemoDir claim(Path dir, boolean serve, boolean force) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new DemoException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        DemoDir claimed = new DemoDir(dir, lock(dir));
        try {
            List<String> earlier = earlierFiles(dir, serve);
            if (!earlier.isEmpty() && !force) {
                throw new DemoException(dir + " holds an earlier demo's files (" + String.join(", ", earlier)
                        + "); give --force to replace them, or choose another --dir");
            }
            return claimed;
        } catch (IOException e) {
            claimed.close();
            throw new DemoException("cannot read " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            claimed.close();
            throw e;
        }
    }

    /** The folder. */
    public Path dir() {
        return dir;
    }

    /** The descriptor holding the folder's lock; -1 where flock cannot be had (the run goes on unguarded). */
    private static int lock(Path dir) {
        Path file = dir.resolve(LOCK);
        int fd;
        try {
            Files.newByteChannel(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
            fd = Posix.openReadOnly(file.toString());
        } catch (IOException e) {
            throw new DemoException("cannot write in " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException | LinkageError e) {
            return -1; // no native access: nothing to lock with
        }
        if (fd < 0) {
            return -1;
        }
        Posix.Lock lock = Posix.tryFlock(fd, true);
        if (lock == Posix.Lock.TAKEN) {
            try {
                // Written after the lock is ours, so the pid a refused demo reads is the holder's.
                Files.writeString(file, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
            } catch (IOException e) {
                // the pid only makes the refusal's sentence fuller
            }
            return fd;
        }
        Posix.close(fd);
        if (lock == Posix.Lock.HELD_ELSEWHERE) {
            throw new DemoException(dir + " is in use by a running vprof demo" + holder(file)
                    + ", which writes its workers' logs there; stop it, or choose another --dir (--force does not "
                    + "replace the files of a demo that is running)");
        }
        return -1;
    }

    private static String holder(Path lock) {
        try {
            String pid = Files.readString(lock, StandardCharsets.US_ASCII).strip();
            return pid.matches("[0-9]{1,10}") ? " (pid " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The files in {@code dir} a demo run would replace. The workers' logs are not among them: each
     * run (and each demo --serve) writes them afresh, as a server rewrites its log, and the logs of
     * a demo still running are kept by the lock.
     */
    private static List<String> earlierFiles(Path dir, boolean serve) throws IOException {
        List<String> found = new ArrayList<>();
        if (!serve) {
            for (String name : RUN_FILES) {
                Path p = dir.resolve(name);
                if (Files.isDirectory(p) ? !isEmpty(p) : Files.exists(p)) {
                    found.add(name);
                }
            }
        }
        return found;
    }

    private static boolean isEmpty(Path folder) throws IOException {
        try (Stream<Path> in = Files.list(folder)) {
            return in.findAny().isEmpty();
        }
    }

    /** Lets go of the folder: the demo has ended. */
    @Override
    public void close() {
        if (fd >= 0) {
            Posix.close(fd);
            fd = -1;
        }
    }
}
