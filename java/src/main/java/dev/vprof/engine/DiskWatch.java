package dev.vprof.engine;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Warns, once, while there is still time to act, when the capture file's disk will not hold the
 * capture: at the start when little space is free, and as it runs when the rate it is written at
 * would fill the disk before --duration ends (or within a minute, without --duration).
 */
final class DiskWatch {
    static final long CHECK_EVERY_NS = 5_000_000_000L;
    /** Below this much free space at the start, the capture is warned about at once. */
    static final long LOW_AT_START_BYTES = 256L << 20;
    /** Without --duration: warn when the disk fills within this long at the current rate. */
    static final long HORIZON_NS = 60_000_000_000L;

    private final Path file;
    private final LongSupplier free;
    private final long deadlineNs;
    private long lastNs;
    private long lastBytes;
    private boolean warned;

    DiskWatch(Path file, LongSupplier freeBytes, long startNs, long deadlineNs) {
        this.file = file;
        this.free = freeBytes;
        this.deadlineNs = deadlineNs;
        this.lastNs = startNs;
    }

    static DiskWatch of(Path file, long startNs, long deadlineNs) {
        Path at = file.toAbsolutePath();
        return new DiskWatch(file, () -> {
            try {
                return Files.getFileStore(Files.exists(at) ? at : at.getParent()).getUsableSpace();
            } catch (IOException | RuntimeException e) {
                return Long.MAX_VALUE; // cannot be asked: nothing to warn about
            }
        }, startNs, deadlineNs);
    }

    /** At the start: little space left is worth a line before anything is written. */
    void atStart(PrintWriter err) {
        long f = free.getAsLong();
        if (f < LOW_AT_START_BYTES) {
            warned = true;
            err.println("vprof: warning: only " + WriteFailure.bytes(f) + " free on the file system of " + file
                    + "; a busy GPU writes megabytes a second, and the capture stops when the disk is full");
            err.flush();
        }
    }

    /** Every turn of the loop; looks at the disk only every {@link #CHECK_EVERY_NS}. */
    void check(long nowNs, long bytesWritten, PrintWriter err) {
        if (warned || nowNs - lastNs < CHECK_EVERY_NS) {
            return;
        }
        double rate = (bytesWritten - lastBytes) * 1e9 / (nowNs - lastNs);
        lastNs = nowNs;
        lastBytes = bytesWritten;
        if (rate <= 0) {
            return;
        }
        long f = free.getAsLong();
        long left = deadlineNs != 0 ? deadlineNs - nowNs : HORIZON_NS;
        double needed = rate * left / 1e9;
        if (needed > f) {
            warned = true;
            err.println("vprof: warning: the capture is written at " + WriteFailure.bytes((long) rate) + "/s and "
                    + (deadlineNs != 0 ? "needs about " + WriteFailure.bytes((long) needed) + " more until --duration ends"
                            : "would fill the disk within a minute")
                    + ", but only " + WriteFailure.bytes(f) + " are free on the file system of " + file
                    + "; it will stop when the disk is full (Ctrl-C now keeps what it has)");
            err.flush();
        }
    }
}
