/*
 * cupti_api.h: libcupti, dlopen'ed at run time (never linked), and the only
 * CUPTI functions the agent calls. The CUPTI test double implements exactly
 * this set; adding a call here means adding it there.
 */
#ifndef VPROF_AGENT_CUPTI_API_H
#define VPROF_AGENT_CUPTI_API_H

#include <stddef.h>
#include <stdint.h>

#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */

struct vprof_cupti {
    void *handle;
    char path[512];     /* the file the library came from (dladdr) */
    uint32_t version;   /* cuptiGetVersion; 0 when CUPTI could not say */
    __typeof__(cuptiGetVersion) *GetVersion;
    __typeof__(cuptiGetResultString) *GetResultString;
    __typeof__(cuptiSubscribe) *Subscribe;
    __typeof__(cuptiUnsubscribe) *Unsubscribe;
    __typeof__(cuptiEnableCallback) *EnableCallback;
    __typeof__(cuptiEnableDomain) *EnableDomain;
    __typeof__(cuptiActivityRegisterCallbacks) *ActivityRegisterCallbacks;
    __typeof__(cuptiActivityEnable) *ActivityEnable;
    __typeof__(cuptiActivityDisable) *ActivityDisable;
    __typeof__(cuptiActivityFlushAll) *ActivityFlushAll;
    __typeof__(cuptiActivityGetNextRecord) *ActivityGetNextRecord;
    __typeof__(cuptiActivityGetNumDroppedRecords) *ActivityGetNumDroppedRecords;
    __typeof__(cuptiGetTimestamp) *GetTimestamp;
    __typeof__(cuptiSetThreadIdType) *SetThreadIdType;
    __typeof__(cuptiFinalize) *Finalize;
    __typeof__(cuptiActivitySetAttribute) *ActivitySetAttribute; /* optional */
};

/* Oldest CUPTI whose kernel record has the prefix convert.c reads (CUDA 12.0). */
#define VPROF_CUPTI_MIN_VERSION 19u
/* CUPTI 13.0.0 crashes as the NVTX injection library (NVIDIA/NVTX#125). */
#define VPROF_CUPTI_NVTX_BROKEN_VERSION 130000u

/*
 * What vprof knows about CUPTI versions (cuptiGetVersion; 0 = it could not say).
 *
 * Record layouts verified: the kernel fields vprof reads sit where convert.c's
 * static asserts say in Kernel9 (CUDA 12.0 to 12.9, API 19 to 28) and Kernel10
 * (13.0, 13.0 Update 1: 130000 to 130099), checked against the 13.0 headers.
 * 13.2 renamed the record (Kernel11), 13.3 again (Kernel12), 13.5 (Kernel13),
 * and no header of those was at hand: outside the list every record is
 * sanity-checked and the capture says the layout is unverified.
 */
static inline int vprof_cupti_layout_verified(uint32_t v)
{
    return (v >= 19u && v <= 28u) || (v >= 130000u && v <= 130099u);
}

/* Before API 27 (CUDA 12.9) a buffer request answered with NULL can crash CUPTI (kineto#1275, #1534). */
static inline int vprof_cupti_refusal_crashes(uint32_t v)
{
    return v < 27u;
}

/* 13.0 GA can deadlock in cuptiActivityDisable(CONCURRENT_KERNEL); 13.0 Update 1 fixed it. */
static inline int vprof_cupti_disable_deadlocks(uint32_t v)
{
    return v == 130000u;
}

/* Per-thread activity buffers (CUDA 13's default) exist from 13.0 on. */
static inline int vprof_cupti_has_per_thread_buffers(uint32_t v)
{
    return v >= 130000u;
}

/*
 * Finds and loads libcupti: $VPROF_CUPTI_LIB; a libcupti this process already
 * loaded; $CUDA_HOME/extras/CUPTI/lib64, $CUDA_HOME/lib64, $CUDA_HOME/lib; the
 * pip wheel's nvidia/cuda_cupti/lib next to the loaded libcudart; the default
 * search. Resolves every function above. Returns 0, or -1 with a sentence
 * for the person in why.
 */
int vprof_cupti_load(struct vprof_cupti *api, char *why, size_t why_size);

/*
 * "<call> failed: CUPTI_ERROR_X (what it means here)" into out, using
 * CUPTI's own name for the error.
 */
void vprof_cupti_describe(const struct vprof_cupti *api, const char *call, CUptiResult result,
                          char *out, size_t out_size);

#endif /* VPROF_AGENT_CUPTI_API_H */
