package dev.vprof.time;

import java.util.Locale;

/**
 * Durations as people write them on a command line: {@code 500ms}, {@code 10s}, {@code 2m},
 * {@code 1h}, {@code 250us}; a bare number is seconds. The one parser of every duration option
 * ({@code cli.Units} calls it) and of the offsets in a {@link Selection}.
 */
public final class DurationText {
    private DurationText() {}

    /** The duration {@code text} in ns, above 0; IllegalArgumentException with a sentence naming {@code option}. */
    public static long ns(String option, String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        long mult; // nanoseconds per unit
        String digits;
        if (s.endsWith("ms")) { mult = 1_000_000L; digits = s.substring(0, s.length() - 2); }
        else if (s.endsWith("us")) { mult = 1_000L; digits = s.substring(0, s.length() - 2); }
        else if (s.endsWith("s")) { mult = 1_000_000_000L; digits = s.substring(0, s.length() - 1); }
        else if (s.endsWith("m")) { mult = 60_000_000_000L; digits = s.substring(0, s.length() - 1); }
        else if (s.endsWith("h")) { mult = 3_600_000_000_000L; digits = s.substring(0, s.length() - 1); }
        else { mult = 1_000_000_000L; digits = s; }
        double v;
        try {
            v = Double.parseDouble(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(notADuration(option, text));
        }
        if (v <= 0) {
            throw new IllegalArgumentException(option + " " + text.trim()
                    + " must be positive; write for example 500ms, 10s or 2m");
        }
        if (!(v > 0) || Double.isInfinite(v) || v * mult > Long.MAX_VALUE / 2.0) {
            throw new IllegalArgumentException(notADuration(option, text));
        }
        return (long) (v * mult);
    }

    private static String notADuration(String option, String text) {
        return option + " '" + text + "' is not a duration; write it like 500ms, 10s or 2m";
    }
}
