package dev.vprof.metrics;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Latencies in seconds as a person reads them, to three significant digits ({@code 1.32 s},
 * {@code 60.1 ms}, {@code 412 us}), and quantiles with what is known of them: a value when exact,
 * a bucket's bounds otherwise ({@code 1-2.5 s}, {@code <= 300 ms}, {@code > 2.5 s}). ASCII only,
 * so that a report piped into a file under any locale reads the same.
 */
public final class Seconds {
    private Seconds() {}

    private static final MathContext THREE = new MathContext(3, RoundingMode.HALF_EVEN);

    /** A duration in seconds; "n/a" for NaN. */
    public static String format(double s) {
        if (Double.isNaN(s)) {
            return "n/a";
        }
        if (Double.isInfinite(s)) {
            return s > 0 ? "+Inf" : "-Inf";
        }
        Unit u = Unit.of(s);
        return number(s / u.seconds) + " " + u.symbol;
    }

    /**
     * A quantile: its value when exact; otherwise its bounds in the unit of the larger one,
     * {@code <= X} when the lower bound is 0 and {@code > X} when there is no upper bound.
     */
    public static String format(Quantile q) {
        if (!q.known()) {
            return "n/a";
        }
        if (q.exact()) {
            return format(q.value());
        }
        if (q.high() == Double.POSITIVE_INFINITY) {
            return "> " + format(q.low());
        }
        if (q.low() <= 0) {
            return "<= " + format(q.high());
        }
        Unit u = Unit.of(q.high());
        String low = number(q.low() / u.seconds);
        String high = number(q.high() / u.seconds);
        return low.equals(high) ? "~" + high + " " + u.symbol : low + "-" + high + " " + u.symbol;
    }

    /** Three significant digits, no trailing zeros, no exponent. */
    private static String number(double v) {
        if (v == 0) {
            return "0";
        }
        BigDecimal d = new BigDecimal(v).round(THREE).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    private enum Unit {
        NS(1e-9), US(1e-6), MS(1e-3), S(1);

        final double seconds;
        /** The unit's symbol is its name in lower case: ns, us, ms, s. */
        final String symbol = name().toLowerCase(Locale.ROOT);

        Unit(double seconds) {
            this.seconds = seconds;
        }

        /** The largest unit in which {@code s}, rounded to three digits, is at least 1. */
        static Unit of(double s) {
            double a = Math.abs(s);
            if (a == 0) {
                return S;
            }
            double rounded = new BigDecimal(a).round(THREE).doubleValue();
            for (Unit u : new Unit[] {S, MS, US}) {
                if (rounded >= u.seconds) {
                    return u;
                }
            }
            return NS;
        }
    }
}
