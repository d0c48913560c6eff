package dev.vprof.wire;

import java.io.IOException;

/**
 * Bytes that are not what their reader expects: cut short, a length past the end, a count the
 * bytes left cannot hold. The message names what was being read and the byte offset.
 */
public final class WireFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public WireFormatException(String message) {
        super(message);
    }
}
