package dev.vprof.nativelib;

/** Native access (FFM downcalls) was refused by the JVM: say how to turn it on. */
public final class NativeAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NativeAccessException(Throwable cause) {
        super("vprof needs native access to talk to its agents: run java with "
                + "--enable-native-access=ALL-UNNAMED (the ./vprof launcher and the jar's "
                + "manifest already do this)", cause);
    }
}
