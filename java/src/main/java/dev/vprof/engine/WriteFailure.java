package dev.vprof.engine;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The one sentence for a capture file that could not be written any more (a full disk, a quota,
 * an I/O error): the path, how much had been written, and what its file system has free, so that
 * the person knows at once what to free or where else to write. The capture stops there; what was
 * written before is a readable capture (chunks end whole: {@code CaptureWriter} cuts a chunk that
 * did not fit back off the file).
 */
final class WriteFailure {
    private WriteFailure() {}

    static CaptureException of(Path file, long written, IOException cause) {
        String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        String free = free(file);
        return new CaptureException("cannot write the capture file " + file + ": " + lower(why) + " after "
                + bytes(written) + " had been written" + (free == null ? "" : " (" + free + ")")
                + "; the capture stopped there, the agents are disarmed, and the file keeps everything up to then "
                + "(vprof report " + file + " reads it); free some space or choose another path with -o", cause);
    }

    /** "12.0 KiB free on the file system of /mnt/x", or null when the file system cannot be asked. */
    static String free(Path file) {
        try {
            Path at = file.toAbsolutePath();
            Path dir = Files.exists(at) ? at : at.getParent();
            FileStore store = Files.getFileStore(dir);
            return bytes(store.getUsableSpace()) + " free on its file system";
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether this failure means the disk (or a quota) is full, the reason the last line gives. */
    static boolean diskFull(IOException e) {
        String m = e.getMessage();
        return m != null && (m.contains("No space left") || m.contains("Disk quota exceeded"));
    }

    static String bytes(long b) {
        if (b >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
        if (b >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
        if (b >= 1L << 10) return String.format(Locale.ROOT, "%.1f KiB", b / (double) (1L << 10));
        return b + " bytes";
    }

    private static String lower(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
