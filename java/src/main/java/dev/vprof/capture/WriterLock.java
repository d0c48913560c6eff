package dev.vprof.capture;

import dev.vprof.nativelib.Posix;
import java.nio.file.Path;

/**
 * How a reader tells a capture that is still being written from one whose writer died: the writer
 * holds an exclusive flock(2) on the file from before it has its name until it is closed, and the
 * kernel drops that lock when the writer's process ends, however it ends (SIGKILL included). A
 * reader that cannot take a shared lock at once knows the writer is alive, in another process or
 * in its own (flock locks belong to an open file, so a second open conflicts even in one JVM). A
 * copy of the file carries no lock, so it reads as what it is: a file that was never closed.
 */
final class WriterLock implements AutoCloseable {
    private int fd;

    private WriterLock(int fd) {
        this.fd = fd;
    }

    /**
     * Takes the writer's lock on {@code file}, which only this writer can have opened yet; null
     * when the file system has no flock (the capture is then read as never closed until it is).
     */
    static WriterLock hold(Path file) {
        try {
            int fd = Posix.openReadOnly(file.toString());
            if (fd < 0) {
                return null;
            }
            if (Posix.tryFlock(fd, true) != Posix.Lock.TAKEN) {
                Posix.close(fd);
                return null;
            }
            return new WriterLock(fd);
        } catch (RuntimeException | LinkageError e) {
            return null; // no native access: the file still gets written, only not told live
        }
    }

    /** Whether a writer holds {@code file} now; false when it cannot be told. */
    static boolean held(Path file) {
        try {
            int fd = Posix.openReadOnly(file.toString());
            if (fd < 0) {
                return false;
            }
            try {
                // A shared lock taken here is let go at once by the close below.
                return Posix.tryFlock(fd, false) == Posix.Lock.HELD_ELSEWHERE;
            } finally {
                Posix.close(fd);
            }
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** Lets go of the lock: the writer has closed the file. */
    @Override
    public void close() {
        if (fd >= 0) {
            Posix.close(fd);
            fd = -1;
        }
    }
}
