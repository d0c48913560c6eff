package dev.vprof.metrics;

/** The exposition as a whole was refused (too large) before any line was read. */
public final class ExpositionRejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ExpositionRejectedException(String message) {
        super(message);
    }
}
