package dev.vprof.engine;

/**
 * A capture cannot start or go on, for a reason a person can act on: the message is one
 * sentence that says what to do. The command line prints it and exits with code 2.
 */
public class CaptureException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CaptureException(String message) {
        super(message);
    }

    public CaptureException(String message, Throwable cause) {
        super(message, cause);
    }

    /** No agent in the tree of the pid to attach to; a command may add what it knows (injection). */
    public static final class NoAgent extends CaptureException {
        private static final long serialVersionUID = 1L;

        public NoAgent(String message) {
            super(message);
        }
    }
}
