package dev.vprof.inject;

/** The agent could not be loaded into a running process; the message says why and what to do. */
public final class InjectionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InjectionException(String message) {
        super(message);
    }

    public InjectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
