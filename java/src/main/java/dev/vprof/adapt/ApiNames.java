package dev.vprof.adapt;

import dev.vprof.bindings.CuptiCallbackIds;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * Names of the CUDA calls an API record carries only as a CUPTI callback id. The names come from
 * the generated {@link CuptiCallbackIds}, made from the lists of native/src/cupti_abi.h that the
 * CUPTI ABI check compares with CUDA's own headers (every id CUDA 13 defines); an id CUPTI does not
 * define is named by its number and says so. A source that names a call CUPTI does not number (a
 * PyTorch profiler trace) keeps its own name ({@link ApiEvent#name()}).
 */
public final class ApiNames {
    private ApiNames() {}

    /** Above every callback id CUDA 13 defines (the driver's domain ends near 810). */
    private static final int MAX_CBID = 4096;
    private static final Map<String, Integer> RUNTIME_IDS = ids(true);
    private static final Map<String, Integer> DRIVER_IDS = ids(false);

    private static Map<String, Integer> ids(boolean runtime) {
        Map<String, Integer> ids = new HashMap<>();
        for (int cbid = 0; cbid < MAX_CBID; cbid++) {
            String n = runtime ? CuptiCallbackIds.runtimeName(cbid) : CuptiCallbackIds.driverName(cbid);
            if (n != null) {
                ids.putIfAbsent(n, cbid);
            }
        }
        return Map.copyOf(ids);
    }

    /**
     * The callback id of the call named {@code name} in {@code domain} (VPROF_API_*), or -1 when the
     * table does not hold it: for sources that name calls rather than number them (PyTorch
     * profiler traces without {@code cbid}).
     */
    public static int cbid(int domain, String name) {
        Integer id = (isDriver(domain) ? DRIVER_IDS : RUNTIME_IDS).get(name);
        return id != null ? id : -1;
    }

    static boolean isDriver(int domain) {
        return domain == VprofRing.API_DRIVER;
    }

    /**
     * CUPTI's name of callback id {@code cbid} in {@code domain}; for an id CUPTI does not define,
     * {@code "runtime API cbid N (not a CUPTI callback id)"}, so it still shows and says why.
     */
    public static String name(int domain, int cbid) {
        String n = isDriver(domain) ? CuptiCallbackIds.driverName(cbid) : CuptiCallbackIds.runtimeName(cbid);
        return n != null ? n : (isDriver(domain) ? "driver" : "runtime") + " API cbid " + cbid + " (not a CUPTI callback id)";
    }

    /** The name of the call {@code api} records: the source's own where it kept one, else CUPTI's. */
    public static String name(ApiEvent api) {
        return api.name() != null ? api.name() : name(api.domain(), api.cbid());
    }
}
