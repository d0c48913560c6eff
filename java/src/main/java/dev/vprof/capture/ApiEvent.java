package dev.vprof.capture;

/** An API record: one runtime (domain VprofRing.API_RUNTIME) or driver call, by CUPTI callback id. */
public record ApiEvent(long start, long end, int correlationId, int cbid, int domain, int tid) {}
