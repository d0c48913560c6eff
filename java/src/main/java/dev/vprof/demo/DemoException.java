package dev.vprof.demo;

/**
 * A demo that cannot go on, as one sentence a person can act on (a missing native file, a folder
 * that cannot be made, agents that did not come up, a capture that did not finish).
 */
public final class DemoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What the failed step printed itself, to show before the sentence; null for nothing. */
    private final String output;

    public DemoException(String message) {
        this(message, null, null);
    }

    public DemoException(String message, Throwable cause) {
        this(message, null, cause);
    }

    DemoException(String message, String output, Throwable cause) {
        super(message, cause);
        this.output = output;
    }

    /** The failed step's own lines (the torch path's {@code vprof capture} output), or null. */
    public String output() {
        return output;
    }
}
