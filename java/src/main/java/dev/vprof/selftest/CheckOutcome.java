package dev.vprof.selftest;

/** What one row of the GPU self-test's table says. Only {@link #MISMATCH} fails the run. */
public enum CheckOutcome {
    /** The expectation held. */
    OK("ok"),
    /** The expectation did not hold: the run exits 1. */
    MISMATCH("MISMATCH"),
    /** A measured fact with no expectation (a figure, a version, which of two outcomes). */
    INFO("info"),
    /** Could not be judged: the measurement's own noise is larger than the margin asked for. */
    INCONCLUSIVE("inconclusive"),
    /** Not run here (no PyTorch, out of time, a case not asked for). */
    SKIPPED("skipped");

    private final String word;

    CheckOutcome(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}
