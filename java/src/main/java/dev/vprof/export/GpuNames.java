package dev.vprof.export;

/** Display names for GPU copies and sets when the capture recorded no name of its own. */
final class GpuNames {
    private GpuNames() {}

    // CUpti_ActivityMemcpyKind, in enum order (cupti_activity.h).
    private static final String[] MEMCPY_KINDS = {
        "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"
    };

    static String memcpyKind(int kind) {
        return kind >= 0 && kind < MEMCPY_KINDS.length ? MEMCPY_KINDS[kind] : "Unknown";
    }

    static String memcpy(int kind) {
        return "Memcpy " + memcpyKind(kind);
    }

    static String memset() {
        return "Memset (Device)";
    }
}
