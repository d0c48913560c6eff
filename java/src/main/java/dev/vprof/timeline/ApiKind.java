package dev.vprof.timeline;

/** Which CUDA API a host call belongs to. */
public enum ApiKind {
    RUNTIME,
    DRIVER;

    private static final ApiKind[] VALUES = values();

    static ApiKind of(int ordinal) {
        return VALUES[ordinal];
    }
}
