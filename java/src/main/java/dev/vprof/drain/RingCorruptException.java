package dev.vprof.drain;

/** The ring holds a record the front end refuses: it stops reading that region. */
public final class RingCorruptException extends Exception {
    private static final long serialVersionUID = 1L;

    public RingCorruptException(String message) {
        super(message);
    }
}
