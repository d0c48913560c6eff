/*
 * cupti_abi.h: what vprof uses of CUPTI, CUDA and NVTX, declared by vprof itself, so that gcc
 * alone builds the agent, the CUPTI test double and their tests (no CUDA toolkit needed).
 *
 * Every declaration is generated from a list below, and each list entry carries what CUPTI's
 * ABI fixes: an enum value, a field's offset, a struct's size and alignment, the spelling of a
 * type or prototype. Two checks read the same lists, so nothing can be declared unchecked:
 *   - this file, in every build: each generated declaration matches its entry's numbers
 *     (a field sits at its offset, a struct has its size);
 *   - abi/cupti_abi_check.c, compiled against the real headers where they are (make check;
 *     CI requires it): the real headers have the same numbers, and each typedef, field type and
 *     prototype spelled here names the same type there.
 * Names are CUPTI's own, so code reads as it would against cupti.h. Only the fields vprof reads
 * or the double writes are named; the rest are padding (P) of the right size.
 *
 * The numbers are CUPTI 13.0's (CUPTI_API_VERSION 130001). CUDA 12's records keep their own
 * names (Kernel9, Memcpy5), which CUDA 13's cupti_activity_deprecated.h still declares.
 *
 * Adding something: add an entry to the right list (a field needs its offset and the pads
 * around it adjusted); the build says when a pad is wrong, the cross-check when a number is.
 */
#ifndef VPROF_CUPTI_ABI_LISTS
#define VPROF_CUPTI_ABI_LISTS

/* ---- constants: macros in the real headers, enum constants here ---- */
#define VPROF_CUPTI_CONSTANTS(C) \
    C(CUPTI_TIMESTAMP_UNKNOWN, 0) \
    C(invalidNumaId, 0xFFFFFFFFu) \
    C(CUPTI_SYNCHRONIZATION_INVALID_VALUE, 0xFFFFFFFFu) \
    C(NVTX_VERSION, 3) \
    C(NVTX_EVENT_ATTRIB_STRUCT_SIZE, 48)

/* The CUPTI release these declarations describe (what the double reports by default). The
 * cross-check needs headers of the same release (13.0.x): it compares CUPTI_API_VERSION / 100. */
#define VPROF_CUPTI_RELEASE(R) R(CUPTI_API_VERSION, 130001)

/* ---- enum types: E(type, the type an enum of it promotes to), then each one's values ---- */
#define VPROF_CUPTI_ENUM_TYPES(E) \
    E(CUptiResult, unsigned int) \
    E(CUpti_ActivityKind, unsigned int) \
    E(CUpti_ActivityAttribute, unsigned int) \
    E(CUpti_ActivityFlag, unsigned int) \
    E(CUpti_ActivityLaunchType, unsigned int) \
    E(CUpti_ActivityMemcpyKind, unsigned int) \
    E(CUpti_ActivityMemoryKind, unsigned int) \
    E(CUpti_ActivityObjectKind, unsigned int) \
    E(CUpti_ActivityPartitionedGlobalCacheConfig, unsigned int) \
    E(CUpti_ActivitySynchronizationType, unsigned int) \
    E(CUpti_ActivityThreadIdType, unsigned int) \
    E(CUpti_ApiCallbackSite, unsigned int) \
    E(CUpti_CallbackDomain, unsigned int) \
    E(CUpti_ChannelType, unsigned int) \
    E(CUpti_FuncShmemLimitConfig, unsigned int) \
    E(CUpti_driver_api_trace_cbid, unsigned int) \
    E(CUpti_runtime_api_trace_cbid, unsigned int) \
    E(CUpti_nvtx_api_trace_cbid, unsigned int) \
    E(nvtxMessageType_t, unsigned int)

#define VPROF_ENUM_CUptiResult(V) \
    V(CUPTI_SUCCESS, 0) \
    V(CUPTI_ERROR_INVALID_PARAMETER, 1) \
    V(CUPTI_ERROR_INVALID_DEVICE, 2) \
    V(CUPTI_ERROR_INVALID_CONTEXT, 3) \
    V(CUPTI_ERROR_INVALID_OPERATION, 7) \
    V(CUPTI_ERROR_OUT_OF_MEMORY, 8) \
    V(CUPTI_ERROR_HARDWARE, 9) \
    V(CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT, 10) \
    V(CUPTI_ERROR_API_NOT_IMPLEMENTED, 11) \
    V(CUPTI_ERROR_MAX_LIMIT_REACHED, 12) \
    V(CUPTI_ERROR_NOT_READY, 13) \
    V(CUPTI_ERROR_NOT_COMPATIBLE, 14) \
    V(CUPTI_ERROR_NOT_INITIALIZED, 15) \
    V(CUPTI_ERROR_QUEUE_EMPTY, 18) \
    V(CUPTI_ERROR_INVALID_HANDLE, 19) \
    V(CUPTI_ERROR_INVALID_STREAM, 20) \
    V(CUPTI_ERROR_INVALID_KIND, 21) \
    V(CUPTI_ERROR_DISABLED, 23) \
    V(CUPTI_ERROR_NOT_SUPPORTED, 27) \
    V(CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE, 34) \
    V(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, 35) \
    V(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, 39) \
    V(CUPTI_ERROR_UNKNOWN, 999)

#define VPROF_ENUM_CUpti_ActivityKind(V) \
    V(CUPTI_ACTIVITY_KIND_INVALID, 0) \
    V(CUPTI_ACTIVITY_KIND_MEMCPY, 1) \
    V(CUPTI_ACTIVITY_KIND_MEMSET, 2) \
    V(CUPTI_ACTIVITY_KIND_KERNEL, 3) \
    V(CUPTI_ACTIVITY_KIND_DRIVER, 4) \
    V(CUPTI_ACTIVITY_KIND_RUNTIME, 5) \
    V(CUPTI_ACTIVITY_KIND_DEVICE, 8) \
    V(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 10) \
    V(CUPTI_ACTIVITY_KIND_MARKER, 12) \
    V(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, 38) \
    V(CUPTI_ACTIVITY_KIND_GRAPH_TRACE, 51) \
    V(CUPTI_ACTIVITY_KIND_COUNT, 56)

#define VPROF_ENUM_CUpti_ActivityAttribute(V) \
    V(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, 0) \
    V(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE_CDP, 1) \
    V(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, 2) \
    V(CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_POOL_SIZE, 3) \
    V(CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_POOL_LIMIT, 4) \
    V(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, 5) \
    V(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, 6) \
    V(CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_PRE_ALLOCATE_VALUE, 7) \
    V(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, 8) \
    V(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, 9) \
    V(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE_DEVICE_GRAPHS, 10)

#define VPROF_ENUM_CUpti_ActivityFlag(V) \
    V(CUPTI_ACTIVITY_FLAG_DEVICE_CONCURRENT_KERNELS, 1) \
    V(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, 1) \
    V(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 1) \
    V(CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC, 1) \
    V(CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC, 1) \
    V(CUPTI_ACTIVITY_FLAG_MARKER_START, 2) \
    V(CUPTI_ACTIVITY_FLAG_MARKER_END, 4)

#define VPROF_ENUM_CUpti_ActivityLaunchType(V) \
    V(CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR, 0)

#define VPROF_ENUM_CUpti_ActivityMemcpyKind(V) \
    V(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 1)

#define VPROF_ENUM_CUpti_ActivityMemoryKind(V) \
    V(CUPTI_ACTIVITY_MEMORY_KIND_PINNED, 2) \
    V(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 3)

#define VPROF_ENUM_CUpti_ActivityObjectKind(V) \
    V(CUPTI_ACTIVITY_OBJECT_THREAD, 2)

#define VPROF_ENUM_CUpti_ActivityPartitionedGlobalCacheConfig(V) \
    V(CUPTI_ACTIVITY_PARTITIONED_GLOBAL_CACHE_CONFIG_NOT_SUPPORTED, 1)

#define VPROF_ENUM_CUpti_ActivitySynchronizationType(V) \
    V(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN, 0) \
    V(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, 1) \
    V(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT, 2) \
    V(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 3) \
    V(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 4)

#define VPROF_ENUM_CUpti_ActivityThreadIdType(V) \
    V(CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT, 0) \
    V(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM, 1)

#define VPROF_ENUM_CUpti_ApiCallbackSite(V) \
    V(CUPTI_API_ENTER, 0) \
    V(CUPTI_API_EXIT, 1)

#define VPROF_ENUM_CUpti_CallbackDomain(V) \
    V(CUPTI_CB_DOMAIN_INVALID, 0) \
    V(CUPTI_CB_DOMAIN_DRIVER_API, 1) \
    V(CUPTI_CB_DOMAIN_RUNTIME_API, 2) \
    V(CUPTI_CB_DOMAIN_NVTX, 5) \
    V(CUPTI_CB_DOMAIN_SIZE, 7)

#define VPROF_ENUM_CUpti_ChannelType(V) \
    V(CUPTI_CHANNEL_TYPE_COMPUTE, 1) \
    V(CUPTI_CHANNEL_TYPE_ASYNC_MEMCPY, 2)

#define VPROF_ENUM_CUpti_FuncShmemLimitConfig(V) \
    V(CUPTI_FUNC_SHMEM_LIMIT_DEFAULT, 0)

#define VPROF_ENUM_CUpti_driver_api_trace_cbid(V) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, 17) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, 126) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, 216) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, 220) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 243) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, 245) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, 277) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2, 279) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2, 281) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync, 306) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 307) \
    V(CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, 308) \
    V(CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, 309) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, 442) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, 477) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, 478) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, 495) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz, 496) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, 497) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz, 498) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, 514) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, 515) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, 539) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz, 540) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, 643) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, 652) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, 653) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph, 720) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz, 721) \
    V(CUPTI_DRIVER_TRACE_CBID_SIZE, 807)

#define VPROF_ENUM_CUpti_runtime_api_trace_cbid(V) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 20) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, 22) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 31) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 41) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020, 49) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, 51) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 131) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, 135) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, 137) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020, 147) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 165) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000, 171) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000, 172) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 211) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, 214) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 311) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000, 312) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000, 315) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000, 319) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, 430) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000, 443) \
    V(CUPTI_RUNTIME_TRACE_CBID_SIZE, 523)

#define VPROF_ENUM_CUpti_nvtx_api_trace_cbid(V) \
    V(CUPTI_CBID_NVTX_nvtxRangePushA, 8) \
    V(CUPTI_CBID_NVTX_nvtxRangePushEx, 10) \
    V(CUPTI_CBID_NVTX_nvtxRangePop, 11) \
    V(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, 33) \
    V(CUPTI_CBID_NVTX_nvtxDomainRangePop, 34) \
    V(CUPTI_CBID_NVTX_nvtxDomainCreateA, 41)

#define VPROF_ENUM_nvtxMessageType_t(V) \
    V(NVTX_MESSAGE_TYPE_ASCII, 1)


/* ---- typedefs: T(name, the type it names); function pointer types as CUPTI spells them ---- */
#define VPROF_CUPTI_TYPEDEFS(T) \
    T(CUcontext, struct CUctx_st *) \
    T(CUpti_CallbackId, uint32_t) \
    T(CUpti_SubscriberHandle, struct CUpti_Subscriber_st *) \
    T(nvtxDomainHandle_t, struct nvtxDomainRegistration_st *) \
    T(CUpti_CallbackFunc, void (*)(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, \
                                   const void *cbdata)) \
    T(CUpti_BuffersCallbackRequestFunc, void (*)(uint8_t **buffer, size_t *size, size_t *maxNumRecords)) \
    T(CUpti_BuffersCallbackCompleteFunc, void (*)(CUcontext context, uint32_t streamId, uint8_t *buffer, \
                                                  size_t size, size_t validSize)) \
    T(CUpti_TimestampCallbackFunc, uint64_t (*)(void)) \
    T(NvtxGetExportTableFunc_t, const void *(*)(uint32_t exportTableId)) \
    T(NvtxInitializeInjectionNvtxFunc_t, int (*)(NvtxGetExportTableFunc_t exportTable))

/*
 * ---- structs and unions: S(name, the same type in the real headers, struct|union, size,
 * alignment, VPROF_ABI_PACKED for CUPTI's packed records or VPROF_ABI_NATURAL), then each one's
 * fields: F(T, offset, type, name) and P(bytes of padding), in offset order. A type CUPTI
 * declares anonymously inside another gets a name of ours and is found in the real headers
 * through its field (__typeof__).
 */
#define VPROF_CUPTI_STRUCTS(S) \
    S(CUuuid, CUuuid, struct, 16, 1, VPROF_ABI_NATURAL) \
    S(vprof_cupti_object_pt, __typeof__(((CUpti_ActivityObjectKindId *)0)->pt), struct, 8, 4, VPROF_ABI_NATURAL) \
    S(CUpti_ActivityObjectKindId, CUpti_ActivityObjectKindId, union, 12, 4, VPROF_ABI_NATURAL) \
    S(CUpti_CallbackData, CUpti_CallbackData, struct, 72, 8, VPROF_ABI_NATURAL) \
    S(CUpti_NvtxData, CUpti_NvtxData, struct, 24, 8, VPROF_ABI_NATURAL) \
    S(CUpti_Activity, CUpti_Activity, struct, 8, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityAPI, CUpti_ActivityAPI, struct, 40, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityKernel9, CUpti_ActivityKernel9, struct, 208, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityKernel10, CUpti_ActivityKernel10, struct, 216, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityMemcpy5, CUpti_ActivityMemcpy5, struct, 88, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy6, struct, 96, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityMemset4, CUpti_ActivityMemset4, struct, 88, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityMarker2, CUpti_ActivityMarker2, struct, 56, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityDevice5, CUpti_ActivityDevice5, struct, 184, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivityGraphTrace2, CUpti_ActivityGraphTrace2, struct, 56, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivitySynchronization, CUpti_ActivitySynchronization, struct, 40, 8, VPROF_ABI_PACKED) \
    S(CUpti_ActivitySynchronization2, CUpti_ActivitySynchronization2, struct, 56, 8, VPROF_ABI_PACKED) \
    S(nvtxMessageValue_t, nvtxMessageValue_t, union, 8, 8, VPROF_ABI_NATURAL) \
    S(nvtxEventAttributes_t, nvtxEventAttributes_t, struct, 48, 8, VPROF_ABI_NATURAL) \
    S(nvtxDomainCreateA_params, nvtxDomainCreateA_params, struct, 8, 8, VPROF_ABI_NATURAL) \
    S(nvtxDomainRangePop_params, nvtxDomainRangePop_params, struct, 8, 8, VPROF_ABI_NATURAL) \
    S(nvtxRangePop_params, nvtxRangePop_params, struct, 8, 8, VPROF_ABI_NATURAL) \
    S(nvtxRangePushA_params, nvtxRangePushA_params, struct, 8, 8, VPROF_ABI_NATURAL) \
    S(nvtxRangePushEx_params, nvtxRangePushEx_params, struct, 8, 8, VPROF_ABI_NATURAL) \
    S(nvtxDomainRangePushEx_params, nvtxDomainRangePushEx_params, struct, 16, 8, VPROF_ABI_NATURAL)

#define VPROF_FIELDS_vprof_cupti_object_pt(F, P, T) \
    F(T, 0, uint32_t, processId) \
    F(T, 4, uint32_t, threadId)

#define VPROF_FIELDS_CUpti_ActivityObjectKindId(F, P, T) \
    F(T, 0, vprof_cupti_object_pt, pt) \
    P(12)

#define VPROF_FIELDS_nvtxMessageValue_t(F, P, T) \
    F(T, 0, const char *, ascii)

#define VPROF_FIELDS_CUpti_CallbackData(F, P, T) \
    F(T,   0, CUpti_ApiCallbackSite, callbackSite) \
    P(4) \
    F(T,   8, const char *, functionName) \
    F(T,  16, const void *, functionParams) \
    F(T,  24, void *, functionReturnValue) \
    F(T,  32, const char *, symbolName) \
    F(T,  40, CUcontext, context) \
    F(T,  48, uint32_t, contextUid) \
    P(4) \
    F(T,  56, uint64_t *, correlationData) \
    F(T,  64, uint32_t, correlationId) \
    P(4)

#define VPROF_FIELDS_CUpti_NvtxData(F, P, T) \
    F(T,   0, const char *, functionName) \
    F(T,   8, const void *, functionParams) \
    F(T,  16, const void *, functionReturnValue)

#define VPROF_FIELDS_CUpti_Activity(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    P(4)

#define VPROF_FIELDS_CUpti_ActivityAPI(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    F(T,   4, CUpti_CallbackId, cbid) \
    F(T,   8, uint64_t, start) \
    F(T,  16, uint64_t, end) \
    F(T,  24, uint32_t, processId) \
    F(T,  28, uint32_t, threadId) \
    F(T,  32, uint32_t, correlationId) \
    F(T,  36, uint32_t, returnValue)

/* Kernel9 (CUDA 12) and Kernel10 (CUDA 13.0) agree up to byte 176; the agent reads only this part
 * of either (convert.c), the double writes Kernel10. */
#define VPROF_FIELDS_KERNEL_PREFIX(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    P(1) \
    F(T,   5, uint8_t, sharedMemoryConfig) \
    F(T,   6, uint16_t, registersPerThread) \
    F(T,   8, CUpti_ActivityPartitionedGlobalCacheConfig, partitionedGlobalCacheRequested) \
    F(T,  12, CUpti_ActivityPartitionedGlobalCacheConfig, partitionedGlobalCacheExecuted) \
    F(T,  16, uint64_t, start) \
    F(T,  24, uint64_t, end) \
    F(T,  32, uint64_t, completed) \
    F(T,  40, uint32_t, deviceId) \
    F(T,  44, uint32_t, contextId) \
    F(T,  48, uint32_t, streamId) \
    F(T,  52, int32_t, gridX) \
    F(T,  56, int32_t, gridY) \
    F(T,  60, int32_t, gridZ) \
    F(T,  64, int32_t, blockX) \
    F(T,  68, int32_t, blockY) \
    F(T,  72, int32_t, blockZ) \
    F(T,  76, int32_t, staticSharedMemory) \
    F(T,  80, int32_t, dynamicSharedMemory) \
    P(8) \
    F(T,  92, uint32_t, correlationId) \
    F(T,  96, int64_t, gridId) \
    F(T, 104, const char *, name) \
    P(8) \
    F(T, 120, uint64_t, queued) \
    F(T, 128, uint64_t, submitted) \
    F(T, 136, uint8_t, launchType) \
    P(3) \
    F(T, 140, uint32_t, sharedMemoryExecuted) \
    F(T, 144, uint64_t, graphNodeId) \
    F(T, 152, CUpti_FuncShmemLimitConfig, shmemLimitConfig) \
    F(T, 156, uint32_t, graphId) \
    P(8) \
    F(T, 168, uint32_t, channelID) \
    F(T, 172, CUpti_ChannelType, channelType)

#define VPROF_FIELDS_CUpti_ActivityKernel9(F, P, T) VPROF_FIELDS_KERNEL_PREFIX(F, P, T) P(32)

#define VPROF_FIELDS_CUpti_ActivityKernel10(F, P, T) VPROF_FIELDS_KERNEL_PREFIX(F, P, T) P(40)

/* Memcpy5 (CUDA 12) and Memcpy6 (CUDA 13.0) agree up to byte 84; Memcpy6 appends copyCount. */
#define VPROF_FIELDS_MEMCPY_PREFIX(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    F(T,   4, uint8_t, copyKind) \
    F(T,   5, uint8_t, srcKind) \
    F(T,   6, uint8_t, dstKind) \
    F(T,   7, uint8_t, flags) \
    F(T,   8, uint64_t, bytes) \
    F(T,  16, uint64_t, start) \
    F(T,  24, uint64_t, end) \
    F(T,  32, uint32_t, deviceId) \
    F(T,  36, uint32_t, contextId) \
    F(T,  40, uint32_t, streamId) \
    F(T,  44, uint32_t, correlationId) \
    F(T,  48, uint32_t, runtimeCorrelationId) \
    P(12) \
    F(T,  64, uint64_t, graphNodeId) \
    F(T,  72, uint32_t, graphId) \
    F(T,  76, uint32_t, channelID) \
    F(T,  80, CUpti_ChannelType, channelType)

#define VPROF_FIELDS_CUpti_ActivityMemcpy5(F, P, T) VPROF_FIELDS_MEMCPY_PREFIX(F, P, T) P(4)

#define VPROF_FIELDS_CUpti_ActivityMemcpy6(F, P, T) VPROF_FIELDS_MEMCPY_PREFIX(F, P, T) P(4) \
    F(T,  88, uint64_t, copyCount)

#define VPROF_FIELDS_CUpti_ActivityMemset4(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    F(T,   4, uint32_t, value) \
    F(T,   8, uint64_t, bytes) \
    F(T,  16, uint64_t, start) \
    F(T,  24, uint64_t, end) \
    F(T,  32, uint32_t, deviceId) \
    F(T,  36, uint32_t, contextId) \
    F(T,  40, uint32_t, streamId) \
    F(T,  44, uint32_t, correlationId) \
    F(T,  48, uint16_t, flags) \
    F(T,  50, uint16_t, memoryKind) \
    P(12) \
    F(T,  64, uint64_t, graphNodeId) \
    F(T,  72, uint32_t, graphId) \
    F(T,  76, uint32_t, channelID) \
    F(T,  80, CUpti_ChannelType, channelType) \
    P(4)

#define VPROF_FIELDS_CUpti_ActivityMarker2(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    F(T,   4, CUpti_ActivityFlag, flags) \
    F(T,   8, uint64_t, timestamp) \
    F(T,  16, uint32_t, id) \
    F(T,  20, CUpti_ActivityObjectKind, objectKind) \
    F(T,  24, CUpti_ActivityObjectKindId, objectId) \
    P(4) \
    F(T,  40, const char *, name) \
    F(T,  48, const char *, domain)

#define VPROF_FIELDS_CUpti_ActivityDevice5(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    F(T,   4, CUpti_ActivityFlag, flags) \
    F(T,   8, uint64_t, globalMemoryBandwidth) \
    F(T,  16, uint64_t, globalMemorySize) \
    F(T,  24, uint32_t, constantMemorySize) \
    F(T,  28, uint32_t, l2CacheSize) \
    F(T,  32, uint32_t, numThreadsPerWarp) \
    F(T,  36, uint32_t, coreClockRate) \
    F(T,  40, uint32_t, numMemcpyEngines) \
    F(T,  44, uint32_t, numMultiprocessors) \
    F(T,  48, uint32_t, maxIPC) \
    F(T,  52, uint32_t, maxWarpsPerMultiprocessor) \
    F(T,  56, uint32_t, maxBlocksPerMultiprocessor) \
    F(T,  60, uint32_t, maxSharedMemoryPerMultiprocessor) \
    F(T,  64, uint32_t, maxRegistersPerMultiprocessor) \
    F(T,  68, uint32_t, maxRegistersPerBlock) \
    F(T,  72, uint32_t, maxSharedMemoryPerBlock) \
    F(T,  76, uint32_t, maxThreadsPerBlock) \
    F(T,  80, uint32_t, maxBlockDimX) \
    F(T,  84, uint32_t, maxBlockDimY) \
    F(T,  88, uint32_t, maxBlockDimZ) \
    F(T,  92, uint32_t, maxGridDimX) \
    F(T,  96, uint32_t, maxGridDimY) \
    F(T, 100, uint32_t, maxGridDimZ) \
    F(T, 104, uint32_t, computeCapabilityMajor) \
    F(T, 108, uint32_t, computeCapabilityMinor) \
    F(T, 112, uint32_t, id) \
    F(T, 116, uint32_t, eccEnabled) \
    F(T, 120, CUuuid, uuid) \
    F(T, 136, const char *, name) \
    F(T, 144, uint8_t, isCudaVisible) \
    F(T, 145, uint8_t, isMigEnabled) \
    P(34) \
    F(T, 180, uint32_t, numaId)

#define VPROF_FIELDS_CUpti_ActivityGraphTrace2(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    F(T,   4, uint32_t, correlationId) \
    F(T,   8, uint64_t, start) \
    F(T,  16, uint64_t, end) \
    F(T,  24, uint32_t, deviceId) \
    F(T,  28, uint32_t, graphId) \
    F(T,  32, uint32_t, contextId) \
    F(T,  36, uint32_t, streamId) \
    P(8) \
    F(T,  48, uint32_t, endDeviceId) \
    F(T,  52, uint32_t, endContextId)

/* Synchronization (CUDA 12, cupti_activity_deprecated.h in 13) and Synchronization2 (CUDA 13.0)
 * agree up to byte 40; Synchronization2 appends cudaEventSyncId and returnValue. The agent reads
 * the shared prefix (convert.c), the double writes Synchronization2. */
#define VPROF_FIELDS_SYNCHRONIZATION_PREFIX(F, P, T) \
    F(T,   0, CUpti_ActivityKind, kind) \
    F(T,   4, CUpti_ActivitySynchronizationType, type) \
    F(T,   8, uint64_t, start) \
    F(T,  16, uint64_t, end) \
    F(T,  24, uint32_t, correlationId) \
    F(T,  28, uint32_t, contextId) \
    F(T,  32, uint32_t, streamId) \
    F(T,  36, uint32_t, cudaEventId)

#define VPROF_FIELDS_CUpti_ActivitySynchronization(F, P, T) VPROF_FIELDS_SYNCHRONIZATION_PREFIX(F, P, T)

#define VPROF_FIELDS_CUpti_ActivitySynchronization2(F, P, T) VPROF_FIELDS_SYNCHRONIZATION_PREFIX(F, P, T) \
    F(T,  40, uint64_t, cudaEventSyncId) \
    F(T,  48, uint32_t, returnValue) \
    P(4)

#define VPROF_FIELDS_CUuuid(F, P, T) \
    F(T,   0, __typeof__(char[16]), bytes)

#define VPROF_FIELDS_nvtxDomainCreateA_params(F, P, T) \
    F(T,   0, const char *, name)

#define VPROF_FIELDS_nvtxDomainRangePop_params(F, P, T) \
    F(T,   0, nvtxDomainHandle_t, domain)

#define VPROF_FIELDS_nvtxDomainRangePushEx_params(F, P, T) \
    F(T,   0, nvtxDomainHandle_t, domain) \
    F(T,   8, nvtxRangePushEx_params, core)

#define VPROF_FIELDS_nvtxRangePop_params(F, P, T) \
    F(T,   0, void *, dummy)

#define VPROF_FIELDS_nvtxRangePushA_params(F, P, T) \
    F(T,   0, const char *, message)

#define VPROF_FIELDS_nvtxRangePushEx_params(F, P, T) \
    F(T,   0, const nvtxEventAttributes_t *, eventAttrib)

#define VPROF_FIELDS_nvtxEventAttributes_t(F, P, T) \
    F(T,   0, uint16_t, version) \
    F(T,   2, uint16_t, size) \
    P(28) \
    F(T,  32, int32_t, messageType) \
    P(4) \
    F(T,  40, nvtxMessageValue_t, message)


/* ---- functions: X(return type, name, parameters) ---- */
#define VPROF_CUPTI_FUNCTIONS(X) \
    X(CUptiResult, cuptiGetVersion, (uint32_t *version)) \
    X(CUptiResult, cuptiGetResultString, (CUptiResult result, const char **str)) \
    X(CUptiResult, cuptiSubscribe, (CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback, void *userdata)) \
    X(CUptiResult, cuptiUnsubscribe, (CUpti_SubscriberHandle subscriber)) \
    X(CUptiResult, cuptiEnableCallback, (uint32_t enable, CUpti_SubscriberHandle subscriber, \
                                         CUpti_CallbackDomain domain, CUpti_CallbackId cbid)) \
    X(CUptiResult, cuptiEnableDomain, (uint32_t enable, CUpti_SubscriberHandle subscriber, \
                                       CUpti_CallbackDomain domain)) \
    X(CUptiResult, cuptiActivityRegisterCallbacks, (CUpti_BuffersCallbackRequestFunc funcBufferRequested, \
                                                    CUpti_BuffersCallbackCompleteFunc funcBufferCompleted)) \
    X(CUptiResult, cuptiActivityRegisterTimestampCallback, (CUpti_TimestampCallbackFunc funcTimestamp)) \
    X(CUptiResult, cuptiActivityEnable, (CUpti_ActivityKind kind)) \
    X(CUptiResult, cuptiActivityDisable, (CUpti_ActivityKind kind)) \
    X(CUptiResult, cuptiActivityFlushAll, (uint32_t flag)) \
    X(CUptiResult, cuptiActivityGetNextRecord, (uint8_t *buffer, size_t validBufferSizeBytes, CUpti_Activity **record)) \
    X(CUptiResult, cuptiActivityGetNumDroppedRecords, (CUcontext context, uint32_t streamId, size_t *dropped)) \
    X(CUptiResult, cuptiActivityGetAttribute, (CUpti_ActivityAttribute attr, size_t *valueSize, void *value)) \
    X(CUptiResult, cuptiActivitySetAttribute, (CUpti_ActivityAttribute attr, size_t *valueSize, void *value)) \
    X(CUptiResult, cuptiGetTimestamp, (uint64_t *timestamp)) \
    X(CUptiResult, cuptiSetThreadIdType, (CUpti_ActivityThreadIdType type)) \
    X(CUptiResult, cuptiFinalize, (void))

/* ---- entry points a tool defines and NVTX finds by name: X(return type, name, parameters,
 * the real headers' pointer type for it) ---- */
#define VPROF_NVTX_ENTRY_POINTS(X) \
    X(int, InitializeInjectionNvtx2, (NvtxGetExportTableFunc_t getExportTable), NvtxInitializeInjectionNvtxFunc_t)

#endif /* VPROF_CUPTI_ABI_LISTS */

/* ======== the declarations (not in the cross-check, which has the real ones) ======== */
#if !defined(VPROF_CUPTI_ABI_LISTS_ONLY) && !defined(VPROF_CUPTI_ABI_H)
#define VPROF_CUPTI_ABI_H

#include <stddef.h>
#include <stdint.h>

/* CUPTI's calling convention: __stdcall on Windows, nothing here. */
#define CUPTIAPI

#define VPROF_ABI_CAT_(a, b) a##b
#define VPROF_ABI_CAT(a, b) VPROF_ABI_CAT_(a, b)
/* CUPTI_PACKED_ALIGNMENT: records are packed, 8-byte aligned. */
#define VPROF_ABI_PACKED __attribute__((packed, aligned(8)))
#define VPROF_ABI_NATURAL
#define VPROF_ABI_IGNORE(...)

#define VPROF_ABI_CONSTANT(name, value) enum { name = (value) };
VPROF_CUPTI_CONSTANTS(VPROF_ABI_CONSTANT)
VPROF_CUPTI_RELEASE(VPROF_ABI_CONSTANT)

#define VPROF_ABI_ENUMERATOR(name, value) name = (value),
#define VPROF_ABI_ENUM(type, promoted) \
    typedef enum { VPROF_ENUM_##type(VPROF_ABI_ENUMERATOR) } type; \
    _Static_assert(sizeof(type) == sizeof(promoted) && \
                   __builtin_types_compatible_p(__typeof__(+(type)0), promoted), #type " is a " #promoted);
VPROF_CUPTI_ENUM_TYPES(VPROF_ABI_ENUM)

#define VPROF_ABI_TYPEDEF(name, ...) typedef __typeof__(__VA_ARGS__) name;
VPROF_CUPTI_TYPEDEFS(VPROF_ABI_TYPEDEF)

#define VPROF_ABI_FIELD(T, off, type, name) type name;
#define VPROF_ABI_PAD(bytes) unsigned char VPROF_ABI_CAT(vprof_pad_, __COUNTER__)[bytes];
#define VPROF_ABI_FIELD_AT(T, off, type, name) \
    _Static_assert(offsetof(T, name) == (off), #T "." #name " sits at byte " #off);
#define VPROF_ABI_STRUCT(name, real, kind, size, align, layout) \
    typedef kind layout { VPROF_FIELDS_##name(VPROF_ABI_FIELD, VPROF_ABI_PAD, name) } name; \
    VPROF_FIELDS_##name(VPROF_ABI_FIELD_AT, VPROF_ABI_IGNORE, name) \
    _Static_assert(sizeof(name) == (size) && _Alignof(name) == (align), \
                   #name " is " #size " bytes, aligned to " #align);
VPROF_CUPTI_STRUCTS(VPROF_ABI_STRUCT)

#define VPROF_ABI_FUNCTION(ret, name, params) ret CUPTIAPI name params;
VPROF_CUPTI_FUNCTIONS(VPROF_ABI_FUNCTION)

#define VPROF_ABI_ENTRY_POINT(ret, name, params, pointer) ret name params;
VPROF_NVTX_ENTRY_POINTS(VPROF_ABI_ENTRY_POINT)

#endif /* VPROF_CUPTI_ABI_H */
