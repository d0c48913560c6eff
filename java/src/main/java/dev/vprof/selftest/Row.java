package dev.vprof.selftest;

/**
 * One row of the GPU self-test's table: which case and check, what was expected, what vprof (or
 * the GPU) gave, and the verdict.
 */
public record Row(String check, String expected, String actual, CheckOutcome verdict) {

    /** An exact count: ok when equal. */
    static Row count(String check, long want, long got) {
        return new Row(check, Long.toString(want), Long.toString(got), want == got ? CheckOutcome.OK : CheckOutcome.MISMATCH);
    }

    static Row of(String check, String expected, String actual, boolean ok) {
        return new Row(check, expected, actual, ok ? CheckOutcome.OK : CheckOutcome.MISMATCH);
    }

    static Row info(String check, String actual) {
        return new Row(check, "-", actual, CheckOutcome.INFO);
    }

    static Row skipped(String check, String why) {
        return new Row(check, "-", why, CheckOutcome.SKIPPED);
    }

    boolean failed() {
        return verdict == CheckOutcome.MISMATCH;
    }
}
