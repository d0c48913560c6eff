package dev.vprof.capture;

import java.io.IOException;

/** The file cannot be read as a vprof capture at all; the message is one sentence for a person. */
public final class CaptureFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public CaptureFormatException(String message) {
        super(message);
    }
}
