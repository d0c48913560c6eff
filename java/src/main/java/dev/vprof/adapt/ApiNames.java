package dev.vprof.adapt;

import dev.vprof.bindings.CuptiCallbackIds;
import dev.vprof.bindings.VprofRing;

/**
 * Names of the CUDA calls an API record carries only as a CUPTI callback id. The names come from
 * the generated {@link CuptiCallbackIds}, made from the lists of native/src/cupti_abi.h that the
 * CUPTI ABI check compares with CUDA's own headers (the calls an inference server makes on its hot
 * path); any other id is named by its number so it still shows, and can be looked up.
 */
final class ApiNames {
    private ApiNames() {}

    static boolean isDriver(int domain) {
        return domain == VprofRing.API_DRIVER;
    }

    static String name(int domain, int cbid) {
        if (isDriver(domain)) {
            String n = CuptiCallbackIds.driverName(cbid);
            return n != null ? n : "driver API cbid " + cbid;
        }
        String n = CuptiCallbackIds.runtimeName(cbid);
        return n != null ? n : "runtime API cbid " + cbid;
    }
}
