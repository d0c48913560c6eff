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

/* Every callback id of the driver and runtime domains, as cupti_driver_cbid.h and
 * cupti_runtime_cbid.h of CUDA 13.0 number them (not only those the agent subscribes to): the
 * front end names API records from these lists (CuptiCallbackIds.java, generated from them), so
 * a call is never shown by its number while CUPTI defines it. Ids are only ever appended in a
 * CUPTI release, so an older CUDA's ids are all here. */
#define VPROF_ENUM_CUpti_driver_api_trace_cbid(V) \
    V(CUPTI_DRIVER_TRACE_CBID_cuInit, 1) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDriverGetVersion, 2) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGet, 3) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetCount, 4) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetName, 5) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceComputeCapability, 6) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceTotalMem, 7) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetProperties, 8) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute, 9) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxCreate, 10) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy, 11) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxAttach, 12) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxDetach, 13) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent, 14) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent, 15) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice, 16) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, 17) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleLoad, 18) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, 19) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx, 20) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary, 21) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleUnload, 22) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, 23) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal, 24) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64ModuleGetGlobal, 25) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleGetTexRef, 26) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo, 27) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemGetInfo, 28) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc, 29) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemAlloc, 30) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch, 31) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemAllocPitch, 32) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemFree, 33) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemFree, 34) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetAddressRange, 35) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemGetAddressRange, 36) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost, 37) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost, 38) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc, 39) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostGetDevicePointer, 40) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemHostGetDevicePointer, 41) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostGetFlags, 42) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD, 43) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyHtoD, 44) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH, 45) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoH, 46) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD, 47) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoD, 48) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA, 49) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoA, 50) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD, 51) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyAtoD, 52) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA, 53) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH, 54) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA, 55) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D, 56) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned, 57) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D, 58) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64Memcpy3D, 59) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync, 60) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyHtoDAsync, 61) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync, 62) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoHAsync, 63) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync, 64) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoDAsync, 65) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync, 66) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync, 67) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync, 68) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync, 69) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64Memcpy3DAsync, 70) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8, 71) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD8, 72) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD16, 73) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD16, 74) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32, 75) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD32, 76) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8, 77) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D8, 78) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16, 79) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D16, 80) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32, 81) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D32, 82) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncSetBlockShape, 83) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedSize, 84) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncGetAttribute, 85) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig, 86) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayCreate, 87) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayGetDescriptor, 88) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy, 89) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate, 90) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArray3DGetDescriptor, 91) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefCreate, 92) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefDestroy, 93) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetArray, 94) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress, 95) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64TexRefSetAddress, 96) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D, 97) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64TexRefSetAddress2D, 98) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFormat, 99) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddressMode, 100) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFilterMode, 101) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFlags, 102) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddress, 103) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64TexRefGetAddress, 104) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetArray, 105) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddressMode, 106) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFilterMode, 107) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFormat, 108) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFlags, 109) \
    V(CUPTI_DRIVER_TRACE_CBID_cuParamSetSize, 110) \
    V(CUPTI_DRIVER_TRACE_CBID_cuParamSeti, 111) \
    V(CUPTI_DRIVER_TRACE_CBID_cuParamSetf, 112) \
    V(CUPTI_DRIVER_TRACE_CBID_cuParamSetv, 113) \
    V(CUPTI_DRIVER_TRACE_CBID_cuParamSetTexRef, 114) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunch, 115) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid, 116) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync, 117) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventCreate, 118) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventRecord, 119) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventQuery, 120) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize, 121) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventDestroy, 122) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime, 123) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamCreate, 124) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamQuery, 125) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, 126) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy, 127) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnregisterResource, 128) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsSubResourceGetMappedArray, 129) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer, 130) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64GraphicsResourceGetMappedPointer, 131) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceSetMapFlags, 132) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsMapResources, 133) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnmapResources, 134) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGetExportTable, 135) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit, 136) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetLimit, 137) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDevice, 138) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreate, 139) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D10RegisterResource, 140) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10RegisterResource, 141) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10UnregisterResource, 142) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10MapResources, 143) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10UnmapResources, 144) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceSetMapFlags, 145) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedArray, 146) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPointer, 147) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedSize, 148) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPitch, 149) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetSurfaceDimensions, 150) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDevice, 151) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreate, 152) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D11RegisterResource, 153) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDevice, 154) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreate, 155) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D9RegisterResource, 156) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDirect3DDevice, 157) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9RegisterResource, 158) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9UnregisterResource, 159) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9MapResources, 160) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9UnmapResources, 161) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceSetMapFlags, 162) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetSurfaceDimensions, 163) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedArray, 164) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPointer, 165) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedSize, 166) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPitch, 167) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9Begin, 168) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9End, 169) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9RegisterVertexBuffer, 170) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9MapVertexBuffer, 171) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9UnmapVertexBuffer, 172) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9UnregisterVertexBuffer, 173) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLCtxCreate, 174) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsGLRegisterBuffer, 175) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsGLRegisterImage, 176) \
    V(CUPTI_DRIVER_TRACE_CBID_cuWGLGetDevice, 177) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLInit, 178) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLRegisterBufferObject, 179) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject, 180) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLUnmapBufferObject, 181) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLUnregisterBufferObject, 182) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLSetBufferObjectMapFlags, 183) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync, 184) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLUnmapBufferObjectAsync, 185) \
    V(CUPTI_DRIVER_TRACE_CBID_cuVDPAUGetDevice, 186) \
    V(CUPTI_DRIVER_TRACE_CBID_cuVDPAUCtxCreate, 187) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsVDPAURegisterVideoSurface, 188) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsVDPAURegisterOutputSurface, 189) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleGetSurfRef, 190) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfRefCreate, 191) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfRefDestroy, 192) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfRefSetFormat, 193) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfRefSetArray, 194) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfRefGetFormat, 195) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfRefGetArray, 196) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64DeviceTotalMem, 197) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedPointer, 198) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedSize, 199) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedPitch, 200) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetSurfaceDimensions, 201) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetSurfaceDimensions, 202) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedPointer, 203) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedSize, 204) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedPitch, 205) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64D3D9MapVertexBuffer, 206) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64GLMapBufferObject, 207) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64GLMapBufferObjectAsync, 208) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDevices, 209) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreateOnDevice, 210) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDevices, 211) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreateOnDevice, 212) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDevices, 213) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreateOnDevice, 214) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemHostAlloc, 215) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, 216) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD8Async, 217) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async, 218) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD16Async, 219) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, 220) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD32Async, 221) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async, 222) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D8Async, 223) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async, 224) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D16Async, 225) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async, 226) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D32Async, 227) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64ArrayCreate, 228) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64ArrayGetDescriptor, 229) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64Array3DCreate, 230) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64Array3DGetDescriptor, 231) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2D, 232) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2DUnaligned, 233) \
    V(CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2DAsync, 234) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2, 235) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreate_v2, 236) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreate_v2, 237) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreate_v2, 238) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLCtxCreate_v2, 239) \
    V(CUPTI_DRIVER_TRACE_CBID_cuVDPAUCtxCreate_v2, 240) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2, 241) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo_v2, 242) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 243) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2, 244) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, 245) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetAddressRange_v2, 246) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostGetDevicePointer_v2, 247) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy_v2, 248) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2, 249) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2, 250) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2, 251) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2, 252) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2, 253) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2, 254) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress_v2, 255) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D_v2, 256) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddress_v2, 257) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer_v2, 258) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceTotalMem_v2, 259) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPointer_v2, 260) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedSize_v2, 261) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPitch_v2, 262) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetSurfaceDimensions_v2, 263) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetSurfaceDimensions_v2, 264) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPointer_v2, 265) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedSize_v2, 266) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPitch_v2, 267) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D9MapVertexBuffer_v2, 268) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject_v2, 269) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync_v2, 270) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc_v2, 271) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayCreate_v2, 272) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayGetDescriptor_v2, 273) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate_v2, 274) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArray3DGetDescriptor_v2, 275) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2, 276) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, 277) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2, 278) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2, 279) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2, 280) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2, 281) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2, 282) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2, 283) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2, 284) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2, 285) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2, 286) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2, 287) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2, 288) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2, 289) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2, 290) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2, 291) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2, 292) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2, 293) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2, 294) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent, 295) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetApiVersion, 296) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDirect3DDevice, 297) \
    V(CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDirect3DDevice, 298) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCacheConfig, 299) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCacheConfig, 300) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister, 301) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister, 302) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent, 303) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, 304) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy, 305) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync, 306) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 307) \
    V(CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, 308) \
    V(CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, 309) \
    V(CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute, 310) \
    V(CUPTI_DRIVER_TRACE_CBID_cuProfilerInitialize, 311) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceCanAccessPeer, 312) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess, 313) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxDisablePeerAccess, 314) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPeerRegister, 315) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPeerUnregister, 316) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPeerGetDevicePointer, 317) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer, 318) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync, 319) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer, 320) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync, 321) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2, 322) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent_v2, 323) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent_v2, 324) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2, 325) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2, 326) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D_v3, 327) \
    V(CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle, 328) \
    V(CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle, 329) \
    V(CUPTI_DRIVER_TRACE_CBID_cuIpcCloseMemHandle, 330) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetByPCIBusId, 331) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetPCIBusId, 332) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLGetDevices, 333) \
    V(CUPTI_DRIVER_TRACE_CBID_cuIpcGetEventHandle, 334) \
    V(CUPTI_DRIVER_TRACE_CBID_cuIpcOpenEventHandle, 335) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSetSharedMemConfig, 336) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetSharedMemConfig, 337) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedMemConfig, 338) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate, 339) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexObjectDestroy, 340) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetResourceDesc, 341) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetTextureDesc, 342) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfObjectCreate, 343) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfObjectDestroy, 344) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSurfObjectGetResourceDesc, 345) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback, 346) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayCreate, 347) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetLevel, 348) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayDestroy, 349) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmappedArray, 350) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapFilterMode, 351) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapLevelBias, 352) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapLevelClamp, 353) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMaxAnisotropy, 354) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmappedArray, 355) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapFilterMode, 356) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapLevelBias, 357) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapLevelClamp, 358) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMaxAnisotropy, 359) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedMipmappedArray, 360) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetResourceViewDesc, 361) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkCreate, 362) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkAddData, 363) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkAddFile, 364) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkComplete, 365) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkDestroy, 366) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority, 367) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority, 368) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags, 369) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetStreamPriorityRange, 370) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged, 371) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGetErrorString, 372) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGetErrorName, 373) \
    V(CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessor, 374) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCompilePtx, 375) \
    V(CUPTI_DRIVER_TRACE_CBID_cuBinaryFree, 376) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamAttachMemAsync, 377) \
    V(CUPTI_DRIVER_TRACE_CBID_cuPointerSetAttribute, 378) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2, 379) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceSetMapFlags_v2, 380) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkCreate_v2, 381) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkAddData_v2, 382) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLinkAddFile_v2, 383) \
    V(CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSize, 384) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLGetDevices_v2, 385) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain, 386) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease, 387) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxSetFlags, 388) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset, 389) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsEGLRegisterImage, 390) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetFlags, 391) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState, 392) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerConnect, 393) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerDisconnect, 394) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerAcquireFrame, 395) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerReleaseFrame, 396) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds, 397) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds, 398) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds, 399) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds, 400) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds, 401) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds, 402) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds, 403) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds, 404) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds, 405) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds, 406) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds, 407) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds, 408) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds, 409) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds, 410) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds, 411) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds, 412) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds, 413) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2_ptds, 414) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2_ptds, 415) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2_ptds, 416) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject_v2_ptds, 417) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz, 418) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2_ptsz, 419) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2_ptsz, 420) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz, 421) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz, 422) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz, 423) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz, 424) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2_ptsz, 425) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync_ptsz, 426) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync_ptsz, 427) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz, 428) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz, 429) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz, 430) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz, 431) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz, 432) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz, 433) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority_ptsz, 434) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags_ptsz, 435) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz, 436) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback_ptsz, 437) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamAttachMemAsync_ptsz, 438) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz, 439) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz, 440) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz, 441) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, 442) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsMapResources_ptsz, 443) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnmapResources_ptsz, 444) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync_v2_ptsz, 445) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerConnect, 446) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerDisconnect, 447) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerPresentFrame, 448) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedEglFrame, 449) \
    V(CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttributes, 450) \
    V(CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, 451) \
    V(CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSizeWithFlags, 452) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerReturnFrame, 453) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetP2PAttribute, 454) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefSetBorderColor, 455) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTexRefGetBorderColor, 456) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAdvise, 457) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32, 458) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_ptsz, 459) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32, 460) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_ptsz, 461) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp, 462) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_ptsz, 463) \
    V(CUPTI_DRIVER_TRACE_CBID_cuNVNbufferGetPointer, 464) \
    V(CUPTI_DRIVER_TRACE_CBID_cuNVNtextureGetArray, 465) \
    V(CUPTI_DRIVER_TRACE_CBID_cuNNSetAllocator, 466) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync, 467) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_ptsz, 468) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventCreateFromNVNSync, 469) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerConnectWithFlags, 470) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemRangeGetAttribute, 471) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemRangeGetAttributes, 472) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64, 473) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_ptsz, 474) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64, 475) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_ptsz, 476) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, 477) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, 478) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventCreateFromEGLSync, 479) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice, 480) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute, 481) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid, 482) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx, 483) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_ptsz, 484) \
    V(CUPTI_DRIVER_TRACE_CBID_cuImportExternalMemory, 485) \
    V(CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedBuffer, 486) \
    V(CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedMipmappedArray, 487) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDestroyExternalMemory, 488) \
    V(CUPTI_DRIVER_TRACE_CBID_cuImportExternalSemaphore, 489) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync, 490) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync_ptsz, 491) \
    V(CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync, 492) \
    V(CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync_ptsz, 493) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDestroyExternalSemaphore, 494) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, 495) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz, 496) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, 497) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz, 498) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing, 499) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing_ptsz, 500) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphCreate, 501) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode, 502) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetParams, 503) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemcpyNode, 504) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphMemcpyNodeGetParams, 505) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemsetNode, 506) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphMemsetNodeGetParams, 507) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphMemsetNodeSetParams, 508) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetType, 509) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphGetRootNodes, 510) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependencies, 511) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependentNodes, 512) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate, 513) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, 514) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, 515) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy, 516) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy, 517) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddDependencies, 518) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphRemoveDependencies, 519) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphMemcpyNodeSetParams, 520) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams, 521) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphDestroyNode, 522) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphClone, 523) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeFindInClone, 524) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddChildGraphNode, 525) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddEmptyNode, 526) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc, 527) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz, 528) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphChildGraphNodeGetGraph, 529) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddHostNode, 530) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphHostNodeGetParams, 531) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetLuid, 532) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphHostNodeSetParams, 533) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphGetNodes, 534) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphGetEdges, 535) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo, 536) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_ptsz, 537) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams, 538) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, 539) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz, 540) \
    V(CUPTI_DRIVER_TRACE_CBID_cuThreadExchangeStreamCaptureMode, 541) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetNvSciSyncAttributes, 542) \
    V(CUPTI_DRIVER_TRACE_CBID_cuOccupancyAvailableDynamicSMemPerBlock, 543) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease_v2, 544) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2, 545) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxSetFlags_v2, 546) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAddressReserve, 547) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAddressFree, 548) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemCreate, 549) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemRelease, 550) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemMap, 551) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemUnmap, 552) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemSetAccess, 553) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle, 554) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle, 555) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetAllocationGranularity, 556) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetAllocationPropertiesFromHandle, 557) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetAccess, 558) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamSetFlags, 559) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamSetFlags_ptsz, 560) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate, 561) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams, 562) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams, 563) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams, 564) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemRetainAllocationHandle, 565) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncGetModule, 566) \
    V(CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2, 567) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxResetPersistingL2Cache, 568) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeCopyAttributes, 569) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetAttribute, 570) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetAttribute, 571) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamCopyAttributes, 572) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamCopyAttributes_ptsz, 573) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetAttribute, 574) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetAttribute_ptsz, 575) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute, 576) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute_ptsz, 577) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2, 578) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetTexture1DLinearMaxWidth, 579) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphUpload, 580) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphUpload_ptsz, 581) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayGetSparseProperties, 582) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetSparseProperties, 583) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemMapArrayAsync, 584) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemMapArrayAsync_ptsz, 585) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams, 586) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags, 587) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz, 588) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddEventRecordNode, 589) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddEventWaitNode, 590) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphEventRecordNodeGetEvent, 591) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphEventWaitNodeGetEvent, 592) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphEventRecordNodeSetEvent, 593) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphEventWaitNodeSetEvent, 594) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent, 595) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent, 596) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayGetPlane, 597) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync, 598) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz, 599) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync, 600) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz, 601) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolTrimTo, 602) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAttribute, 603) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolGetAttribute, 604) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAccess, 605) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetDefaultMemPool, 606) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolCreate, 607) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolDestroy, 608) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceSetMemPool, 609) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetMemPool, 610) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync, 611) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz, 612) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportToShareableHandle, 613) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportFromShareableHandle, 614) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportPointer, 615) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportPointer, 616) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPoolGetAccess, 617) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddExternalSemaphoresSignalNode, 618) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresSignalNodeGetParams, 619) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresSignalNodeSetParams, 620) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddExternalSemaphoresWaitNode, 621) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresWaitNodeGetParams, 622) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresWaitNodeSetParams, 623) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresSignalNodeSetParams, 624) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresWaitNodeSetParams, 625) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress, 626) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFlushGPUDirectRDMAWrites, 627) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphDebugDotPrint, 628) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2, 629) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2_ptsz, 630) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies, 631) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_ptsz, 632) \
    V(CUPTI_DRIVER_TRACE_CBID_cuUserObjectCreate, 633) \
    V(CUPTI_DRIVER_TRACE_CBID_cuUserObjectRetain, 634) \
    V(CUPTI_DRIVER_TRACE_CBID_cuUserObjectRelease, 635) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphRetainUserObject, 636) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphReleaseUserObject, 637) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemAllocNode, 638) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemFreeNode, 639) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGraphMemTrim, 640) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetGraphMemAttribute, 641) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceSetGraphMemAttribute, 642) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, 643) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetExecAffinitySupport, 644) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v3, 645) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetExecAffinity, 646) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid_v2, 647) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphMemAllocNodeGetParams, 648) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphMemFreeNodeGetParams, 649) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled, 650) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetEnabled, 651) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, 652) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, 653) \
    V(CUPTI_DRIVER_TRACE_CBID_cuArrayGetMemoryRequirements, 654) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetMemoryRequirements, 655) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams, 656) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz, 657) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecGetFlags, 658) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2, 659) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2_ptsz, 660) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2, 661) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2_ptsz, 662) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2, 663) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2_ptsz, 664) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2, 665) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2_ptsz, 666) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2, 667) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2_ptsz, 668) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddBatchMemOpNode, 669) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphBatchMemOpNodeGetParams, 670) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphBatchMemOpNodeSetParams, 671) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecBatchMemOpNodeSetParams, 672) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleGetLoadingMode, 673) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetHandleForAddressRange, 674) \
    V(CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialClusterSize, 675) \
    V(CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveClusters, 676) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2, 677) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData, 678) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile, 679) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload, 680) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernel, 681) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryGetModule, 682) \
    V(CUPTI_DRIVER_TRACE_CBID_cuKernelGetFunction, 683) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal, 684) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryGetManaged, 685) \
    V(CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute, 686) \
    V(CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute, 687) \
    V(CUPTI_DRIVER_TRACE_CBID_cuKernelSetCacheConfig, 688) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode_v2, 689) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetParams_v2, 690) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams_v2, 691) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2, 692) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetId, 693) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetId_ptsz, 694) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetId, 695) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2, 696) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, 697) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col, 698) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress, 699) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryGetUnifiedFunction, 700) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCoredumpGetAttribute, 701) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCoredumpGetAttributeGlobal, 702) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCoredumpSetAttribute, 703) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCoredumpSetAttributeGlobal, 704) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSetFlags, 705) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMulticastCreate, 706) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMulticastAddDevice, 707) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMulticastBindMem, 708) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMulticastBindAddr, 709) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMulticastUnbind, 710) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMulticastGetGranularity, 711) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode, 712) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetParams, 713) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams, 714) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemAdvise_v2, 715) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2, 716) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2_ptsz, 717) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncGetName, 718) \
    V(CUPTI_DRIVER_TRACE_CBID_cuKernelGetName, 719) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph, 720) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz, 721) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphConditionalHandleCreate, 722) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode_v2, 723) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphGetEdges_v2, 724) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependencies_v2, 725) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependentNodes_v2, 726) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphAddDependencies_v2, 727) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGraphRemoveDependencies_v2, 728) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3, 729) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3_ptsz, 730) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_v2, 731) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_v2_ptsz, 732) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncGetParamInfo, 733) \
    V(CUPTI_DRIVER_TRACE_CBID_cuKernelGetParamInfo, 734) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceRegisterAsyncNotification, 735) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceUnregisterAsyncNotification, 736) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunctionCount, 737) \
    V(CUPTI_DRIVER_TRACE_CBID_cuModuleEnumerateFunctions, 738) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernelCount, 739) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLibraryEnumerateKernels, 740) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncIsLoaded, 741) \
    V(CUPTI_DRIVER_TRACE_CBID_cuFuncLoad, 742) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGreenCtxCreate, 743) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGreenCtxDestroy, 744) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetDevResource, 745) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevResource, 746) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGreenCtxGetDevResource, 747) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevResourceGenerateDesc, 748) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGreenCtxRecordEvent, 749) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGreenCtxWaitEvent, 750) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDevSmResourceSplitByCount, 751) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetGreenCtx, 752) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxFromGreenCtx, 753) \
    V(CUPTI_DRIVER_TRACE_CBID_cuKernelGetLibrary, 754) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxRecordEvent, 755) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxWaitEvent, 756) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4, 757) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGreenCtxStreamCreate, 758) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2, 759) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2_ptsz, 760) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync, 761) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync_ptsz, 762) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLogsRegisterCallback, 763) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLogsUnregisterCallback, 764) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLogsCurrent, 765) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLogsDumpToFile, 766) \
    V(CUPTI_DRIVER_TRACE_CBID_cuLogsDumpToMemory, 767) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessGetRestoreThreadId, 768) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessGetState, 769) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessLock, 770) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessCheckpoint, 771) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessRestore, 772) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessUnlock, 773) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetDevice, 774) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamGetDevice_ptsz, 775) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync, 776) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_ptsz, 777) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync, 778) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_ptsz, 779) \
    V(CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime_v2, 780) \
    V(CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2colWide, 781) \
    V(CUPTI_DRIVER_TRACE_CBID_cuGreenCtxGetId, 782) \
    V(CUPTI_DRIVER_TRACE_CBID_cuStreamCreateForCaptureToCig, 783) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync, 784) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync_ptsz, 785) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSemaphoreCreate, 786) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSemaphoreExport, 787) \
    V(CUPTI_DRIVER_TRACE_CBID_cuSemaphoreDestroy, 788) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync, 789) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync_ptsz, 790) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync, 791) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync_ptsz, 792) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMultiKernelCooperativeDomainCreate, 793) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMultiKernelCooperativeDomainDestroy, 794) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice_v2, 795) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2, 796) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2_ptsz, 797) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2, 798) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2_ptsz, 799) \
    V(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2, 800) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetDefaultMemPool, 801) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemGetMemPool, 802) \
    V(CUPTI_DRIVER_TRACE_CBID_cuMemSetMemPool, 803) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetP2PAtomicCapabilities, 804) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDeviceGetHostAtomicCapabilities, 805) \
    V(CUPTI_DRIVER_TRACE_CBID_cuDriverGetGpuCodeIsaVersion, 806) \
    V(CUPTI_DRIVER_TRACE_CBID_SIZE, 807)

#define VPROF_ENUM_CUpti_runtime_api_trace_cbid(V) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020, 1) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020, 2) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, 3) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v3020, 4) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaChooseDevice_v3020, 5) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetChannelDesc_v3020, 6) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaCreateChannelDesc_v3020, 7) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaConfigureCall_v3020, 8) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSetupArgument_v3020, 9) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, 10) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020, 11) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020, 12) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020, 13) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetCacheConfig_v3020, 14) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020, 15) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020, 16) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, 17) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSetValidDevices_v3020, 18) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSetDeviceFlags_v3020, 19) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 20) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocPitch_v3020, 21) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, 22) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocArray_v3020, 23) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFreeArray_v3020, 24) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020, 25) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020, 26) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020, 27) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaHostGetDevicePointer_v3020, 28) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaHostGetFlags_v3020, 29) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemGetInfo_v3020, 30) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 31) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020, 32) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_v3020, 33) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_v3020, 34) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_v3020, 35) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_v3020, 36) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_v3020, 37) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_v3020, 38) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020, 39) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020, 40) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 41) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_v3020, 42) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_v3020, 43) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020, 44) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_v3020, 45) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_v3020, 46) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020, 47) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_v3020, 48) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020, 49) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_v3020, 50) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, 51) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020, 52) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolAddress_v3020, 53) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolSize_v3020, 54) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaBindTexture_v3020, 55) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaBindTexture2D_v3020, 56) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaBindTextureToArray_v3020, 57) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaUnbindTexture_v3020, 58) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureAlignmentOffset_v3020, 59) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureReference_v3020, 60) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaBindSurfaceToArray_v3020, 61) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetSurfaceReference_v3020, 62) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLSetGLDevice_v3020, 63) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLRegisterBufferObject_v3020, 64) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLMapBufferObject_v3020, 65) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLUnmapBufferObject_v3020, 66) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLUnregisterBufferObject_v3020, 67) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLSetBufferObjectMapFlags_v3020, 68) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLMapBufferObjectAsync_v3020, 69) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLUnmapBufferObjectAsync_v3020, 70) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaWGLGetDevice_v3020, 71) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsGLRegisterImage_v3020, 72) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsGLRegisterBuffer_v3020, 73) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsUnregisterResource_v3020, 74) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceSetMapFlags_v3020, 75) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsMapResources_v3020, 76) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsUnmapResources_v3020, 77) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedPointer_v3020, 78) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsSubResourceGetMappedArray_v3020, 79) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaVDPAUGetDevice_v3020, 80) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaVDPAUSetVDPAUDevice_v3020, 81) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsVDPAURegisterVideoSurface_v3020, 82) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsVDPAURegisterOutputSurface_v3020, 83) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDevice_v3020, 84) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDevices_v3020, 85) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D11SetDirect3DDevice_v3020, 86) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D11RegisterResource_v3020, 87) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDevice_v3020, 88) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDevices_v3020, 89) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10SetDirect3DDevice_v3020, 90) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D10RegisterResource_v3020, 91) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10RegisterResource_v3020, 92) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10UnregisterResource_v3020, 93) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10MapResources_v3020, 94) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10UnmapResources_v3020, 95) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceSetMapFlags_v3020, 96) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetSurfaceDimensions_v3020, 97) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedArray_v3020, 98) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedPointer_v3020, 99) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedSize_v3020, 100) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedPitch_v3020, 101) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDevice_v3020, 102) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDevices_v3020, 103) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9SetDirect3DDevice_v3020, 104) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDirect3DDevice_v3020, 105) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D9RegisterResource_v3020, 106) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9RegisterResource_v3020, 107) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnregisterResource_v3020, 108) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9MapResources_v3020, 109) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnmapResources_v3020, 110) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceSetMapFlags_v3020, 111) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetSurfaceDimensions_v3020, 112) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedArray_v3020, 113) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedPointer_v3020, 114) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedSize_v3020, 115) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedPitch_v3020, 116) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9Begin_v3020, 117) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9End_v3020, 118) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9RegisterVertexBuffer_v3020, 119) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnregisterVertexBuffer_v3020, 120) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9MapVertexBuffer_v3020, 121) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnmapVertexBuffer_v3020, 122) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaThreadExit_v3020, 123) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSetDoubleForDevice_v3020, 124) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSetDoubleForHost_v3020, 125) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020, 126) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaThreadGetLimit_v3020, 127) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaThreadSetLimit_v3020, 128) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020, 129) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v3020, 130) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 131) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020, 132) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020, 133) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020, 134) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, 135) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020, 136) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, 137) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, 138) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020, 139) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc3D_v3020, 140) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc3DArray_v3020, 141) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_v3020, 142) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_v3020, 143) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020, 144) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020, 145) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaThreadSetCacheConfig_v3020, 146) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020, 147) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDirect3DDevice_v3020, 148) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDirect3DDevice_v3020, 149) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaThreadGetCacheConfig_v3020, 150) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000, 151) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000, 152) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaHostUnregister_v4000, 153) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceCanAccessPeer_v4000, 154) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceEnablePeerAccess_v4000, 155) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceDisablePeerAccess_v4000, 156) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaPeerRegister_v4000, 157) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaPeerUnregister_v4000, 158) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaPeerGetDevicePointer_v4000, 159) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000, 160) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000, 161) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_v4000, 162) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_v4000, 163) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, 164) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 165) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetLimit_v3020, 166) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetLimit_v3020, 167) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetCacheConfig_v3020, 168) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetCacheConfig_v3020, 169) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerInitialize_v4000, 170) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000, 171) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000, 172) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetByPCIBusId_v4010, 173) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetPCIBusId_v4010, 174) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGLGetDevices_v4010, 175) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaIpcGetEventHandle_v4010, 176) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaIpcOpenEventHandle_v4010, 177) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaIpcGetMemHandle_v4010, 178) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaIpcOpenMemHandle_v4010, 179) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaIpcCloseMemHandle_v4010, 180) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetInfo_v4010, 181) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetSharedMemConfig_v4020, 182) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetSharedMemConfig_v4020, 183) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetSharedMemConfig_v4020, 184) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaCreateTextureObject_v5000, 185) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDestroyTextureObject_v5000, 186) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectResourceDesc_v5000, 187) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectTextureDesc_v5000, 188) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaCreateSurfaceObject_v5000, 189) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDestroySurfaceObject_v5000, 190) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetSurfaceObjectResourceDesc_v5000, 191) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocMipmappedArray_v5000, 192) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetMipmappedArrayLevel_v5000, 193) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFreeMipmappedArray_v5000, 194) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaBindTextureToMipmappedArray_v5000, 195) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedMipmappedArray_v5000, 196) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_v5000, 197) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000, 198) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectResourceViewDesc_v5000, 199) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000, 200) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050, 201) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050, 202) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_v5050, 203) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_v5050, 204) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetStreamPriorityRange_v5050, 205) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000, 206) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000, 207) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamAttachMemAsync_v6000, 208) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050, 209) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050, 210) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 211) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceFlags_v7000, 212) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000, 213) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, 214) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000, 215) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000, 216) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_ptds_v7000, 217) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_ptds_v7000, 218) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_ptds_v7000, 219) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_ptds_v7000, 220) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_ptds_v7000, 221) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_ptds_v7000, 222) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000, 223) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000, 224) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000, 225) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_ptsz_v7000, 226) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_ptsz_v7000, 227) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_ptsz_v7000, 228) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_ptsz_v7000, 229) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_ptsz_v7000, 230) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000, 231) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_ptsz_v7000, 232) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000, 233) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000, 234) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000, 235) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000, 236) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_ptsz_v7000, 237) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_ptsz_v7000, 238) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000, 239) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000, 240) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamAttachMemAsync_ptsz_v7000, 241) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000, 242) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_ptds_v7000, 243) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_ptsz_v7000, 244) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000, 245) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000, 246) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000, 247) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_ptsz_v7000, 248) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_ptds_v7000, 249) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_ptsz_v7000, 250) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags_v7000, 251) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_v8000, 252) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_ptsz_v8000, 253) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemAdvise_v8000, 254) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetP2PAttribute_v8000, 255) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsEGLRegisterImage_v7000, 256) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerConnect_v7000, 257) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerDisconnect_v7000, 258) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerAcquireFrame_v7000, 259) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerReleaseFrame_v7000, 260) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerConnect_v7000, 261) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerDisconnect_v7000, 262) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerPresentFrame_v7000, 263) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerReturnFrame_v7000, 264) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedEglFrame_v7000, 265) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemRangeGetAttribute_v8000, 266) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemRangeGetAttributes_v8000, 267) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerConnectWithFlags_v7000, 268) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, 269) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000, 270) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateFromEGLSync_v9000, 271) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000, 272) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetAttribute_v9000, 273) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaImportExternalMemory_v10000, 274) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaExternalMemoryGetMappedBuffer_v10000, 275) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaExternalMemoryGetMappedMipmappedArray_v10000, 276) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDestroyExternalMemory_v10000, 277) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaImportExternalSemaphore_v10000, 278) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_v10000, 279) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_ptsz_v10000, 280) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v10000, 281) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v10000, 282) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDestroyExternalSemaphore_v10000, 283) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000, 284) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000, 285) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphCreate_v10000, 286) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeGetParams_v10000, 287) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetParams_v10000, 288) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddKernelNode_v10000, 289) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNode_v10000, 290) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeGetParams_v10000, 291) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParams_v10000, 292) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemsetNode_v10000, 293) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemsetNodeGetParams_v10000, 294) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemsetNodeSetParams_v10000, 295) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddHostNode_v10000, 296) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphHostNodeGetParams_v10000, 297) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddChildGraphNode_v10000, 298) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphChildGraphNodeGetGraph_v10000, 299) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEmptyNode_v10000, 300) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphClone_v10000, 301) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeFindInClone_v10000, 302) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetType_v10000, 303) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetRootNodes_v10000, 304) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependencies_v10000, 305) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependentNodes_v10000, 306) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddDependencies_v10000, 307) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphRemoveDependencies_v10000, 308) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroyNode_v10000, 309) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v10000, 310) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 311) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000, 312) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecDestroy_v10000, 313) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroy_v10000, 314) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000, 315) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000, 316) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000, 317) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000, 318) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000, 319) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000, 320) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphHostNodeSetParams_v10000, 321) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetNodes_v10000, 322) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetEdges_v10000, 323) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010, 324) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v10010, 325) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecKernelNodeSetParams_v10010, 326) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaThreadExchangeStreamCaptureMode_v10010, 327) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetNvSciSyncAttributes_v10020, 328) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyAvailableDynamicSMemPerBlock_v10200, 329) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetFlags_v10200, 330) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetFlags_ptsz_v10200, 331) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams_v10020, 332) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemsetNodeSetParams_v10020, 333) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecHostNodeSetParams_v10020, 334) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecUpdate_v10020, 335) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetFuncBySymbol_v11000, 336) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaCtxResetPersistingL2Cache_v11000, 337) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeCopyAttributes_v11000, 338) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeGetAttribute_v11000, 339) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetAttribute_v11000, 340) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCopyAttributes_v11000, 341) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamCopyAttributes_ptsz_v11000, 342) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetAttribute_v11000, 343) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetAttribute_ptsz_v11000, 344) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_v11000, 345) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_ptsz_v11000, 346) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetTexture1DLinearMaxWidth_v11010, 347) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphUpload_v10000, 348) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphUpload_ptsz_v10000, 349) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNodeToSymbol_v11010, 350) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNodeFromSymbol_v11010, 351) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNode1D_v11010, 352) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParamsToSymbol_v11010, 353) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParamsFromSymbol_v11010, 354) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParams1D_v11010, 355) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsToSymbol_v11010, 356) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsFromSymbol_v11010, 357) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams1D_v11010, 358) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetSparseProperties_v11010, 359) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMipmappedArrayGetSparseProperties_v11010, 360) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecChildGraphNodeSetParams_v11010, 361) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEventRecordNode_v11010, 362) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventRecordNodeGetEvent_v11010, 363) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventRecordNodeSetEvent_v11010, 364) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEventWaitNode_v11010, 365) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventWaitNodeGetEvent_v11010, 366) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventWaitNodeSetEvent_v11010, 367) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecEventRecordNodeSetEvent_v11010, 368) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecEventWaitNodeSetEvent_v11010, 369) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010, 370) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010, 371) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetDefaultMemPool_v11020, 372) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020, 373) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020, 374) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020, 375) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020, 376) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolTrimTo_v11020, 377) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolSetAttribute_v11020, 378) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolGetAttribute_v11020, 379) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolSetAccess_v11020, 380) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetPlane_v11020, 381) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolGetAccess_v11020, 382) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolCreate_v11020, 383) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolDestroy_v11020, 384) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetMemPool_v11020, 385) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetMemPool_v11020, 386) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportToShareableHandle_v11020, 387) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolImportFromShareableHandle_v11020, 388) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportPointer_v11020, 389) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolImportPointer_v11020, 390) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_v11020, 391) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_ptsz_v11020, 392) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_v11020, 393) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_ptsz_v11020, 394) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v11020, 395) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v11020, 396) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddExternalSemaphoresSignalNode_v11020, 397) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresSignalNodeGetParams_v11020, 398) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresSignalNodeSetParams_v11020, 399) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddExternalSemaphoresWaitNode_v11020, 400) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresWaitNodeGetParams_v11020, 401) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresWaitNodeSetParams_v11020, 402) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresSignalNodeSetParams_v11020, 403) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresWaitNodeSetParams_v11020, 404) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceFlushGPUDirectRDMAWrites_v11030, 405) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_v11030, 406) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_ptsz_v11030, 407) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphDebugDotPrint_v11030, 408) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030, 409) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030, 410) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_v11030, 411) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_ptsz_v11030, 412) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectCreate_v11030, 413) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectRetain_v11030, 414) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectRelease_v11030, 415) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphRetainUserObject_v11030, 416) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphReleaseUserObject_v11030, 417) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040, 418) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemAllocNode_v11040, 419) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemAllocNodeGetParams_v11040, 420) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemFreeNode_v11040, 421) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemFreeNodeGetParams_v11040, 422) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGraphMemTrim_v11040, 423) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetGraphMemAttribute_v11040, 424) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetGraphMemAttribute_v11040, 425) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeSetEnabled_v11060, 426) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetEnabled_v11060, 427) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetMemoryRequirements_v11060, 428) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMipmappedArrayGetMemoryRequirements_v11060, 429) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, 430) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060, 431) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxPotentialClusterSize_v11070, 432) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveClusters_v11070, 433) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaCreateTextureObject_v2_v11080, 434) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectTextureDesc_v2_v11080, 435) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000, 436) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_ptsz_v12000, 437) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecGetFlags_v12000, 438) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetKernel_v12000, 439) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000, 440) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_v12000, 441) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_ptsz_v12000, 442) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000, 443) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaInitDevice_v12000, 444) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddNode_v12020, 445) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeSetParams_v12020, 446) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecNodeSetParams_v12020, 447) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemAdvise_v12020, 448) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_v12020, 449) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_ptsz_v12020, 450) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetName_v12030, 451) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030, 452) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030, 453) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphConditionalHandleCreate_v12030, 454) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetEdges_v12030, 455) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependencies_v12030, 456) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependentNodes_v12030, 457) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddDependencies_v12030, 458) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphRemoveDependencies_v12030, 459) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddNode_v12030, 460) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030, 461) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030, 462) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_v12030, 463) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_ptsz_v12030, 464) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceRegisterAsyncNotification_v12040, 465) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceUnregisterAsyncNotification_v12040, 466) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetParamInfo_v12040, 467) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_v12050, 468) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_ptsz_v12050, 469) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryLoadData_v12060, 470) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryLoadFromFile_v12060, 471) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryUnload_v12060, 472) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetKernel_v12060, 473) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetGlobal_v12060, 474) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetManaged_v12060, 475) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetUnifiedFunction_v12060, 476) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetKernelCount_v12060, 477) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLibraryEnumerateKernels_v12060, 478) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaKernelSetAttributeForDevice_v12060, 479) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_v12080, 480) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_ptsz_v12080, 481) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v12080, 482) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v12080, 483) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v12080, 484) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v12080, 485) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080, 486) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchBatchAsync_v13000, 487) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchBatchAsync_ptsz_v13000, 488) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardBatchAsync_v13000, 489) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardBatchAsync_ptsz_v13000, 490) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardAndPrefetchBatchAsync_v13000, 491) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardAndPrefetchBatchAsync_ptsz_v13000, 492) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaGetExportTable_v13000, 493) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFatBinary_v13000, 494) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFatBinaryEnd_v13000, 495) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaUnregisterFatBinary_v13000, 496) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaRegisterVar_v13000, 497) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaRegisterHostVar_v13000, 498) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFunction_v13000, 499) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaRegisterManagedVar_v13000, 500) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaInitModule_v13000, 501) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000, 502) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000, 503) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaGetKernel_v13000, 504) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, 505) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000, 506) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaRegisterUnifiedTable_v13000, 507) \
    V(CUPTI_RUNTIME_TRACE_CBID___cudaGetProcAddress_v13000, 508) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v13000, 509) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v13000, 510) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v13000, 511) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v13000, 512) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLogsRegisterCallback_v13000, 513) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLogsUnregisterCallback_v13000, 514) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLogsCurrent_v13000, 515) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLogsDumpToFile_v13000, 516) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaLogsDumpToMemory_v13000, 517) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemGetDefaultMemPool_v13000, 518) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemGetMemPool_v13000, 519) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaMemSetMemPool_v13000, 520) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetHostAtomicCapabilities_v13000, 521) \
    V(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetP2PAtomicCapabilities_v13000, 522) \
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
