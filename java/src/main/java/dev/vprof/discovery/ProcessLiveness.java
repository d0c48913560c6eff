package dev.vprof.discovery;

import dev.vprof.nativelib.Posix;

/**
 * Whether one process still runs, asked without reading {@code /proc}: a pidfd becomes readable
 * when its process exits (zombies included, and a reused pid cannot fool it). Where the kernel
 * has no pidfd_open (before Linux 5.3), it asks {@link ProcFs#isAlive} instead.
 */
public final class ProcessLiveness implements AutoCloseable {
    private final int pid;
    private final ProcFs fallback;
    private int pidfd;
    private boolean exited;

    private ProcessLiveness(int pid, int pidfd, ProcFs fallback) {
        this.pid = pid;
        this.pidfd = pidfd;
        this.fallback = fallback;
    }

    /**
     * Watches {@code pid}. Call it while the process is known to run (just after its region was
     * found): a pid that is already gone reads as exited.
     */
    public static ProcessLiveness watch(int pid, ProcFs fallback) {
        int fd = Posix.pidfdOpen(pid);
        return new ProcessLiveness(pid, fd, fd >= 0 ? null : fallback);
    }

    public int pid() {
        return pid;
    }

    /** Whether the process still runs. Cheap: one poll(2) with no wait. */
    public boolean alive() {
        if (exited) {
            return false;
        }
        if (pidfd >= 0) {
            exited = Posix.pidfdExited(pidfd);
        } else {
            exited = !fallback.isAlive(pid);
        }
        return !exited;
    }

    @Override
    public void close() {
        if (pidfd >= 0) {
            Posix.close(pidfd);
            pidfd = -1;
        }
    }
}
