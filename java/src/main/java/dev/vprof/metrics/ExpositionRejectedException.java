package dev.vprof.metrics;

/** The exposition as a whole was refused (too large) before any line was read. */
public final class ExpositionRejectedException extends RuntimeException {
    public ExpositionRejectedException(String message) {
        super(message);
    }
}
