package dev.vprof.selftest;

import java.util.Locale;

/** What one row of the GPU self-test's table says. Only {@link #MISMATCH} fails the run. */
public enum CheckOutcome {
    /** The expectation held. */
    OK,
    /** The expectation did not hold: the run exits 1. */
    MISMATCH,
    /** A measured fact with no expectation (a figure, a version, which of two outcomes). */
    INFO,
    /** Could not be judged: the measurement's own noise is larger than the margin asked for. */
    INCONCLUSIVE,
    /** Not run here (no PyTorch, out of time, a case not asked for). */
    SKIPPED;

    /** The table's word: the name in lower case, but MISMATCH in capitals so that it stands out. */
    public String word() {
        return this == MISMATCH ? name() : name().toLowerCase(Locale.ROOT);
    }
}
