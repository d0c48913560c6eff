package dev.vprof.watch;

import java.util.Locale;

/** Sizes and durations as the watch's lines write them. */
final class Sizes {
    private Sizes() {}

    static String text(long bytes) {
        if (bytes >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        if (bytes >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        if (bytes >= 1L << 10) return String.format(Locale.ROOT, "%.1f KiB", bytes / (double) (1L << 10));
        return bytes + " bytes";
    }

    static String seconds(double s) {
        return s >= 10 ? String.format(Locale.ROOT, "%.0f s", s) : String.format(Locale.ROOT, "%.1f s", s);
    }
}
