package dev.vprof.capture;

/**
 * An API record: one runtime (domain VprofRing.API_RUNTIME) or driver call, by CUPTI callback id.
 * {@code name} is the source's own name for the call where CUPTI's name of {@code cbid} would not
 * give it back (a PyTorch profiler trace's call that CUPTI does not number, or names otherwise,
 * kept in the ARGS record before it); null for every agent's record.
 */
public record ApiEvent(long start, long end, int correlationId, int cbid, int domain, int tid, String name) {
    public ApiEvent(long start, long end, int correlationId, int cbid, int domain, int tid) {
        this(start, end, correlationId, cbid, domain, tid, null);
    }
}
