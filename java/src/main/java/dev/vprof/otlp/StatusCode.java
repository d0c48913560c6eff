package dev.vprof.otlp;

import java.util.Locale;

/** trace.v1.Status.StatusCode; the ordinal is the protobuf enum number. */
public enum StatusCode {
    UNSET, OK, ERROR;

    private static final StatusCode[] BY_NUMBER = values();

    public static StatusCode of(long number) {
        return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[(int) number] : UNSET;
    }

    /** Accepts "STATUS_CODE_ERROR", "ERROR" or "error". */
    public static StatusCode ofName(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT);
        if (n.startsWith("STATUS_CODE_")) {
            n = n.substring("STATUS_CODE_".length());
        }
        for (StatusCode c : BY_NUMBER) {
            if (c.name().equals(n)) {
                return c;
            }
        }
        return UNSET;
    }

    public int number() {
        return ordinal();
    }
}
