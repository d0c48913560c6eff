package dev.vprof.nsys;

import dev.vprof.adapt.ApiNames;
import dev.vprof.bindings.VprofRing;

/**
 * The numbers an Nsight Systems export uses that the reader decides on: how a {@code globalPid}
 * or {@code globalTid} packs hardware, VM, process and thread ids, the event types of
 * {@code NVTX_EVENTS} and the event classes of {@code CUPTI_ACTIVITY_KIND_RUNTIME} it reads (the
 * values of the export's own {@code ENUM_NSYS_EVENT_TYPE} and {@code ENUM_NSYS_EVENT_CLASS},
 * which {@code NsysIdsTest} checks against both real exports in fixtures/real), and the CUPTI
 * callback id of a call nsys names.
 */
final class NsysIds {
    private NsysIds() {}

    /** {@code NvtxMark}: an instant. */
    static final int NVTX_MARK = 34;
    /** {@code NvtxPushPopRange}: a range pushed and popped on one thread. */
    static final int NVTX_PUSH_POP_RANGE = 59;
    /** {@code NvtxStartEndRange}: a range started and ended, possibly on two threads. */
    static final int NVTX_START_END_RANGE = 60;
    /** {@code NvtxDomainCreate}: names a domain ({@code text}) for its {@code domainId}. */
    static final int NVTX_DOMAIN_CREATE = 75;

    /** {@code TRACE_PROCESS_EVENT_CUDA_RUNTIME}. */
    static final int EVENT_CLASS_RUNTIME = 0;
    /** {@code TRACE_PROCESS_EVENT_CUDA_DRIVER}. */
    static final int EVENT_CLASS_DRIVER = 1;
    /** {@code TRACE_PROCESS_EVENT_CUDABACKTRACE}: a call already in the table again, with its call stack. */
    static final int EVENT_CLASS_CUDA_BACKTRACE = 67;

    /** A process: the hardware, VM and process parts of a globalPid or globalTid (bits 24-63). */
    static long processKey(long globalId) {
        return globalId >>> 24;
    }

    /** The Linux pid of a process key (bits 24-47 of the global id). */
    static int pid(long processKey) {
        return (int) (processKey & 0xFFFFFF);
    }

    /** The Linux thread id of a {@code globalTid} (bits 0-23). */
    static int tid(long globalTid) {
        return (int) (globalTid & 0xFFFFFF);
    }

    /** The hardware and VM parts of a global id, as {@code TARGET_INFO_GPU.vmId} holds them (bits 48-63). */
    static long vm(long globalId) {
        return globalId >>> 48;
    }

    /** The ring's API domain of an event class, or 0 for a class that is not a CUDA call. */
    static int apiDomain(int eventClass) {
        return switch (eventClass) {
            case EVENT_CLASS_RUNTIME -> VprofRing.API_RUNTIME;
            case EVENT_CLASS_DRIVER -> VprofRing.API_DRIVER;
            default -> 0;
        };
    }

    /**
     * The CUPTI callback id of the call nsys names {@code name} in {@code domain}, or -1. nsys
     * writes runtime calls with the version suffix of CUPTI's callback names
     * ({@code cudaLaunchKernel_v7000}); a driver call's {@code _v2} is part of the function's own
     * name ({@code cuMemAlloc_v2}), so the name is looked up as it is first, then without the suffix.
     */
    static int cbid(int domain, String name) {
        int id = ApiNames.cbid(domain, name);
        if (id >= 0) {
            return id;
        }
        int v = name.lastIndexOf("_v");
        if (v > 0 && v + 2 < name.length() && name.substring(v + 2).chars().allMatch(Character::isDigit)) {
            return ApiNames.cbid(domain, name.substring(0, v));
        }
        return -1;
    }
}
