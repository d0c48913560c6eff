package dev.vprof.metrics;

/**
 * The numbers of an exposition: sample and exemplar values and label values read as numbers
 * ({@code le}, {@code quantile}), and timestamps, integer milliseconds in the Prometheus text
 * format and decimal seconds in OpenMetrics, both to epoch nanoseconds. A value that does not
 * parse sets {@link #bad} instead of throwing, so that a parse allocates nothing for it.
 * Confined to one parse.
 */
final class ExpositionNumbers {
    /** Set by {@link #parse} (and the timestamp readers through it) when the token is not a number. */
    boolean bad;

    /**
     * Parses a float token; sets {@link #bad} instead of throwing. The format's own spellings of
     * the special values (NaN, +Inf, -Inf, Inf, any case, "Infinity" too) are read here; everything
     * else is digits, a point, an exponent and signs, which Double.parseDouble reads exactly; it
     * would also take "1d", "0x1p3" or blanks around the number, so any other character is refused
     * before it sees the token.
     */
    double parse(String str, int from, int to) {
        bad = false;
        int len = to - from;
        if (len == 0) {
            bad = true;
            return Double.NaN;
        }
        char c0 = str.charAt(from);
        if (c0 == 'N' || c0 == 'n' || c0 == 'I' || c0 == 'i' || ((c0 == '+' || c0 == '-') && len > 1
                && (str.charAt(from + 1) == 'I' || str.charAt(from + 1) == 'i'))) {
            return special(str, from, to);
        }
        for (int i = from; i < to; i++) {
            char c = str.charAt(i);
            if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
                bad = true;
                return Double.NaN;
            }
        }
        try {
            return Double.parseDouble(str.substring(from, to));
        } catch (NumberFormatException e) {
            bad = true;
            return Double.NaN;
        }
    }

    private double special(String str, int from, int to) {
        int i = from;
        boolean negative = false;
        if (str.charAt(i) == '+' || str.charAt(i) == '-') {
            negative = str.charAt(i) == '-';
            i++;
        }
        String word = str.substring(i, to);
        if (i == from && word.equalsIgnoreCase("nan")) {
            return Double.NaN;
        }
        if (word.equalsIgnoreCase("inf") || word.equalsIgnoreCase("infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        bad = true;
        return Double.NaN;
    }

    /** A label value read as a number ({@code le}, {@code quantile}); NaN when it is none. */
    double labelNumber(String v) {
        double d = parse(v, 0, v.length());
        return bad ? Double.NaN : d;
    }

    /**
     * Integer milliseconds to nanoseconds; NO_TIMESTAMP when not an integer. Any size is valid:
     * one beyond what nanoseconds in a long hold (about 292 years from 1970) is kept at the
     * nearest end of that range ({@link #saturated}).
     */
    static long millisToNanos(String s, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        if (i == to) {
            return Sample.NO_TIMESTAMP;
        }
        long ms = 0;
        boolean overflow = false;
        for (; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return Sample.NO_TIMESTAMP;
            }
            if (ms > 9_223_372_036_854L / 10) {
                overflow = true;
            } else {
                ms = ms * 10 + (c - '0');
            }
        }
        if (overflow || ms > 9_223_372_036_854L) {
            return saturated(negative);
        }
        return (negative ? -ms : ms) * 1_000_000L;
    }

    /**
     * The end of the nanosecond range a timestamp too large for it is kept at; never
     * {@link Sample#NO_TIMESTAMP}, which is {@link Long#MIN_VALUE}.
     */
    private static long saturated(boolean negative) {
        return negative ? Long.MIN_VALUE + 1 : Long.MAX_VALUE;
    }

    /** Decimal seconds to nanoseconds, exact for up to 9 fraction digits; NO_TIMESTAMP when invalid. */
    long secondsToNanos(String s, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        long secs = 0;
        int intDigits = 0;
        boolean huge = false;
        boolean sawDigit = false;
        while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            sawDigit = true;
            if (secs != 0 || s.charAt(i) != '0') {
                intDigits++;
            }
            if (intDigits > 10) {
                huge = true; // 10^10 s is past year 2286; the exact path would overflow
            } else {
                secs = secs * 10 + (s.charAt(i) - '0');
            }
            i++;
        }
        huge |= secs > Long.MAX_VALUE / 1_000_000_000L - 1;
        long nanos = 0;
        int fracDigits = 0;
        if (i < to && s.charAt(i) == '.') {
            i++;
            while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                sawDigit = true;
                if (fracDigits < 9) {
                    nanos = nanos * 10 + (s.charAt(i) - '0');
                    fracDigits++;
                }
                i++;
            }
        }
        if (i == to && !huge && sawDigit) {
            for (int k = fracDigits; k < 9; k++) {
                nanos *= 10;
            }
            long total = secs * 1_000_000_000L + nanos;
            return negative ? -total : total;
        }
        // Exponent form ("1.7e9") or a huge one: through a double, to the precision a double
        // has; any finite size is a valid timestamp, kept at the end of the range past it.
        double d = parse(s, from, to);
        boolean word = !s.substring(from, to).matches(".*[0-9].*"); // NaN, Inf: not timestamps
        if (bad || Double.isNaN(d) || word) {
            return Sample.NO_TIMESTAMP;
        }
        if (Math.abs(d) >= 9.2e9) {
            return saturated(d < 0); // 1e400 too: a valid number, past every clock
        }
        return Math.round(d * 1e9);
    }
}
