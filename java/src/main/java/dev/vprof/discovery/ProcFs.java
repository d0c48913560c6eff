package dev.vprof.discovery;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Every read of {@code /proc} the capture engine makes goes through here, so that a test can
 * count them (the drain thread must not walk {@code /proc} while nothing new appears) or serve
 * a made-up process table.
 */
public interface ProcFs {
    /** The whole process table: one read of {@code /proc/<pid>/stat} per process. */
    ProcessTree tree();

    /** The parent of {@code pid} from its stat line, or -1 when it is gone or unreadable. */
    int parent(int pid);

    /** Whether {@code pid} runs (its stat line exists and it is not a zombie). */
    boolean isAlive(int pid);

    /** Whether {@code /proc/<pid>} exists (a zombie exists too). */
    boolean exists(int pid);

    /** {@code /proc/<pid>/cmdline}, arguments joined by spaces; empty when unreadable. */
    String commandLine(int pid);

    /**
     * Whether {@code pid} is {@code root} or below it, by walking up the parent links: a few
     * stat reads instead of the whole table. Stops at pid 1, a loop, or 64 levels.
     */
    default boolean isDescendant(int pid, int root) {
        int p = pid;
        for (int depth = 0; depth < 64 && p > 0; depth++) {
            if (p == root) {
                return true;
            }
            int up = parent(p);
            if (up == p) {
                return false;
            }
            p = up;
        }
        return false;
    }

    /**
     * The raw wait status of {@code pid} while it is a zombie (exited, not yet reaped by its
     * parent: {@code /proc/PID/stat}'s exit_code), or -1 when it is not one or cannot be read.
     */
    default int zombieWaitStatus(int pid) {
        return -1;
    }

    /**
     * The value of {@code name} in {@code /proc/<pid>/environ} (the environment the process was
     * started with), or null when it is not set there or the file cannot be read (another user's
     * process, a process gone).
     */
    default String environment(int pid, String name) {
        return null;
    }

    /** The machine's {@code /proc}. */
    static ProcFs system() {
        return of(Path.of("/proc"));
    }

    /** A {@code /proc} mounted at {@code root}. */
    static ProcFs of(Path root) {
        return new ProcFs() {
            @Override public ProcessTree tree() { return ProcessTree.read(root); }
            @Override public int parent(int pid) { return ProcessTree.readPpid(root.resolve(Integer.toString(pid)).resolve("stat")); }
            @Override public boolean isAlive(int pid) { return ProcessTree.isAlive(root, pid); }
            @Override public boolean exists(int pid) { return Files.isDirectory(root.resolve(Integer.toString(pid))); }
            @Override public String commandLine(int pid) { return ProcessTree.commandLine(root, pid); }
            @Override public String environment(int pid, String name) {
                return ProcessTree.environment(root.resolve(Integer.toString(pid)).resolve("environ"), name);
            }
            @Override public int zombieWaitStatus(int pid) {
                return ProcessTree.zombieWaitStatus(root.resolve(Integer.toString(pid)).resolve("stat"));
            }
        };
    }
}
