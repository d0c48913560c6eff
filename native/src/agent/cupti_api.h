/*
 * cupti_api.h: libcupti, dlopen'ed at run time (never linked), and the only
 * CUPTI functions the agent calls. The CUPTI test double implements exactly
 * this set; adding a call here means adding it there.
 */
#ifndef VPROF_AGENT_CUPTI_API_H
#define VPROF_AGENT_CUPTI_API_H

#include <stddef.h>
#include <stdint.h>

#include <cupti.h>

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
};

/* Oldest CUPTI whose kernel record has the prefix convert.c reads (CUDA 12.0). */
#define VPROF_CUPTI_MIN_VERSION 19u
/* CUPTI 13.0.0 crashes as the NVTX injection library (NVIDIA/NVTX#125). */
#define VPROF_CUPTI_NVTX_BROKEN_VERSION 130000u

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
