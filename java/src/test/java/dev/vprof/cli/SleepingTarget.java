package dev.vprof.cli;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@code sleep 60} process for the capture commands to look at, with {@code vprof.shm.dir}
 * pointed at a test's folder (where the test makes its regions) until {@link #stop}.
 */
final class SleepingTarget {
    private static final String SHM_DIR = "vprof.shm.dir";

    private final Process process;
    private final String savedShm;

    SleepingTarget(Path shmDir) throws IOException {
        savedShm = System.getProperty(SHM_DIR);
        System.setProperty(SHM_DIR, shmDir.toString());
        process = new ProcessBuilder("sleep", "60").start();
    }

    int pid() {
        return (int) process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the process, waits for it, and puts {@code vprof.shm.dir} back as it was. */
    void stop() throws InterruptedException {
        process.destroyForcibly().waitFor();
        if (savedShm == null) {
            System.clearProperty(SHM_DIR);
        } else {
            System.setProperty(SHM_DIR, savedShm);
        }
    }
}
