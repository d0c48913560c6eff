package dev.vprof.diff;

/** A diff that cannot be made as asked: one sentence that says what to do (the command exits 2). */
public final class DiffException extends RuntimeException {
    public DiffException(String message) {
        super(message);
    }
}
