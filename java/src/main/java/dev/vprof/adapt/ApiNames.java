package dev.vprof.adapt;

import dev.vprof.bindings.VprofRing;
import java.util.Map;

/**
 * Names of the CUDA calls an API record carries only as a CUPTI callback id. The ids are those of
 * cupti_runtime_cbid.h and cupti_driver_cbid.h (stable across CUDA 12 and 13: CUPTI only appends);
 * the table holds the calls an inference server makes on its hot path, and any other id is named by
 * its number so it still shows, and can be looked up.
 */
public final class ApiNames {
    private ApiNames() {}

    private static final Map<Integer, String> RUNTIME = Map.ofEntries(
            Map.entry(20, "cudaMalloc"), Map.entry(22, "cudaFree"),
            Map.entry(31, "cudaMemcpy"), Map.entry(41, "cudaMemcpyAsync"),
            Map.entry(49, "cudaMemset"), Map.entry(51, "cudaMemsetAsync"),
            Map.entry(131, "cudaStreamSynchronize"), Map.entry(135, "cudaEventRecord"),
            Map.entry(137, "cudaEventSynchronize"), Map.entry(147, "cudaStreamWaitEvent"),
            Map.entry(165, "cudaDeviceSynchronize"), Map.entry(171, "cudaProfilerStart"),
            Map.entry(172, "cudaProfilerStop"), Map.entry(211, "cudaLaunchKernel"),
            Map.entry(214, "cudaLaunchKernel_ptsz"), Map.entry(311, "cudaGraphLaunch"),
            Map.entry(430, "cudaLaunchKernelExC"));

    private static final Map<Integer, String> DRIVER = Map.ofEntries(
            Map.entry(17, "cuCtxSynchronize"), Map.entry(126, "cuStreamSynchronize"),
            Map.entry(216, "cuMemsetD8Async"), Map.entry(220, "cuMemsetD32Async"),
            Map.entry(243, "cuMemAlloc_v2"), Map.entry(245, "cuMemFree_v2"),
            Map.entry(277, "cuMemcpyHtoDAsync_v2"), Map.entry(279, "cuMemcpyDtoHAsync_v2"),
            Map.entry(281, "cuMemcpyDtoDAsync_v2"), Map.entry(306, "cuMemcpyAsync"),
            Map.entry(307, "cuLaunchKernel"), Map.entry(308, "cuProfilerStart"),
            Map.entry(309, "cuProfilerStop"), Map.entry(514, "cuGraphLaunch"),
            Map.entry(652, "cuLaunchKernelEx"));

    /**
     * The callback id of the call named {@code name} in {@code domain} (VPROF_API_*), or -1 when the
     * table does not hold it: for sources that name calls rather than number them (PyTorch
     * profiler traces without {@code cbid}).
     */
    public static int cbid(int domain, String name) {
        Map<Integer, String> table = isDriver(domain) ? DRIVER : RUNTIME;
        for (Map.Entry<Integer, String> e : table.entrySet()) {
            if (e.getValue().equals(name)) {
                return e.getKey();
            }
        }
        return -1;
    }

    static boolean isDriver(int domain) {
        return domain == VprofRing.API_DRIVER;
    }

    public static String name(int domain, int cbid) {
        if (isDriver(domain)) {
            String n = DRIVER.get(cbid);
            return n != null ? n : "driver API cbid " + cbid;
        }
        String n = RUNTIME.get(cbid);
        return n != null ? n : "runtime API cbid " + cbid;
    }
}
