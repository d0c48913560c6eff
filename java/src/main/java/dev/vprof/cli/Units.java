package dev.vprof.cli;

import dev.vprof.time.DurationText;
import java.time.Duration;
import java.util.Locale;

/** Parses the human units of the command line: durations ({@code 500ms, 10s, 2m}) and sizes ({@code 64m}). */
final class Units {
    private Units() {}

    /** {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}; a bare number is seconds (the time layer's one parser). */
    static Duration duration(String option, String text) {
        try {
            return Duration.ofNanos(DurationText.ns(option, text));
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
    }

    /**
     * {@code 65536}, {@code 64k}, {@code 64m}, {@code 1g}: binary multiples, any case, an optional
     * trailing b or ib ({@code 64MiB}, {@code 64mb}) and spaces between the number and its unit
     * ({@code 64 MiB}). The one size parser of the command line, {@code --otlp-max-body} included.
     */
    static long size(String option, String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) s = s.substring(0, s.length() - 2);
        else if (s.endsWith("b")) s = s.substring(0, s.length() - 1);
        long mult = 1;
        if (s.endsWith("k")) { mult = 1L << 10; s = s.substring(0, s.length() - 1); }
        else if (s.endsWith("m")) { mult = 1L << 20; s = s.substring(0, s.length() - 1); }
        else if (s.endsWith("g")) { mult = 1L << 30; s = s.substring(0, s.length() - 1); }
        try {
            long v = Long.parseLong(s.strip());
            if (v <= 0 || v > Long.MAX_VALUE / mult) {
                throw new NumberFormatException();
            }
            return v * mult;
        } catch (NumberFormatException e) {
            throw new CliException(option + " '" + text + "' is not a size; write it like 65536, 256k, 64m or 1g");
        }
    }
}
