package dev.vprof.cli;

import dev.vprof.capture.CaptureReader;
import java.util.Locale;

/**
 * A damaged capture is an error, not a quiet report of nothing: {@code report} and {@code export}
 * still show what could be read, then exit {@link ExitCode#READ_PARTLY} and say how much was lost.
 */
final class ReadPartly {

    private ReadPartly() {}

    /** The sentence for a reader that skipped damage, or null when it read the file whole. */
    static String sentence(CaptureReader reader, String command) {
        long chunks = reader.damagedChunks();
        if (chunks == 0) {
            return null;
        }
        boolean nothing = reader.processes().isEmpty() && reader.recordsBytes() == 0;
        return String.format(Locale.ROOT, "%s: %s is damaged: %s%d damaged part%s (%s of its %s) could not be read "
                        + "and %s; %s", command, reader.path(), nothing ? "nothing in it was readable: " : "",
                chunks, chunks == 1 ? "" : "s", bytes(reader.damagedBytes()), bytes(reader.fileSize()),
                chunks == 1 ? "was skipped" : "were skipped",
                nothing ? "it holds no process or record to show" : "what is shown covers the rest only");
    }

    private static String bytes(long b) {
        if (b >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
        if (b >= 1L << 10) return String.format(Locale.ROOT, "%.1f KiB", b / (double) (1L << 10));
        return b + " bytes";
    }
}
