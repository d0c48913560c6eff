package dev.vprof.otlp;

/** trace.v1.Status.StatusCode; the ordinal is the protobuf enum number. */
public enum StatusCode {
    UNSET, OK, ERROR;

    private static final StatusCode[] BY_NUMBER = values();

    public static StatusCode of(long number) {
        return ProtoEnum.of(BY_NUMBER, number, UNSET);
    }

    /** Accepts "STATUS_CODE_ERROR", "ERROR" or "error". */
    public static StatusCode ofName(String name) {
        return ProtoEnum.ofName(BY_NUMBER, "STATUS_CODE_", name, UNSET);
    }

    public int number() {
        return ordinal();
    }
}
