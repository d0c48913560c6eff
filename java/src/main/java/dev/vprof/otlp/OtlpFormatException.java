package dev.vprof.otlp;

/**
 * A request body, a span file or a capture chunk that cannot be read. The message says what
 * was wrong and where (a byte offset, a line number or a JSON path), so that a person can
 * find the sender's bug; receivers answer it with HTTP 400 or gRPC INVALID_ARGUMENT.
 */
public final class OtlpFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public OtlpFormatException(String message) {
        super(message);
    }

    public OtlpFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
