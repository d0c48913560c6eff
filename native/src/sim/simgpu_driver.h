/*
 * simgpu_driver.h: the "driver side" of the CUPTI test double.
 *
 * A synthetic GPU process (vprof-simgpu, the C tests) calls these functions
 * where a real program would call the CUDA runtime/driver. They are exported
 * from libvprof-cuptisim.so (soname libcupti.so.13), the same library that
 * answers the cupti* calls of an agent, so the agent sees one consistent
 * "CUDA": a single device 0, a single context, streams, a virtual GPU clock.
 *
 * Nothing here is a GPU figure: the GPU is simulated (DESIGN §6).
 *
 * Thread safety: every function may be called from any thread, concurrently.
 */
#ifndef VPROF_SIMGPU_DRIVER_H
#define VPROF_SIMGPU_DRIVER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SIMCUDA_API __attribute__((visibility("default")))

/* A stream handle. 0 is the legacy default stream; others come from
 * simcuda_stream_create(). The value is also the CUPTI streamId the records
 * carry, except the default stream, which CUPTI reports as streamId 7. */
typedef uint32_t simcuda_stream;

typedef struct { uint32_t x, y, z; } simcuda_dim3;

/* Copy directions, the same values as CUpti_ActivityMemcpyKind. */
enum simcuda_memcpy_kind {
    SIMCUDA_MEMCPY_HTOD = 1,
    SIMCUDA_MEMCPY_DTOH = 2,
    SIMCUDA_MEMCPY_DTOD = 8,
};

/* Like cuInit: the first call reads CUDA_INJECTION64_PATH and, when it is set,
 * dlopen()s that library and calls its `int InitializeInjection(void)` once,
 * exactly as libcuda does. Later calls do nothing. Returns 0, or -1 when the
 * injection library could not be loaded or its InitializeInjection failed
 * (a message on stderr says which; the simulated GPU still works). */
SIMCUDA_API int simcuda_init(void);

/* Creates a stream (like cudaStreamCreate). At most 62 streams per process;
 * returns 0 (the default stream) when none are left. */
SIMCUDA_API simcuda_stream simcuda_stream_create(void);

/* Like cudaLaunchKernel: the kernel runs on the stream's virtual clock,
 * start = max(now, stream busy-until), end = start + duration_ns, so work on
 * different streams overlaps. `name` is copied (interned): it may be freed
 * after the call. Cheap: a clock read, an atomic, and a record copy when
 * CUPTI's kernel kind is enabled. */
SIMCUDA_API void simcuda_launch_kernel(simcuda_stream stream, const char *name,
                                       simcuda_dim3 grid, simcuda_dim3 block,
                                       uint64_t duration_ns);

/* Like cudaMemcpyAsync of `bytes` bytes; the duration follows a PCIe/HBM-like
 * bandwidth for the direction. */
SIMCUDA_API void simcuda_memcpy(enum simcuda_memcpy_kind kind, uint64_t bytes,
                                simcuda_stream stream);

/* Like cudaMemsetAsync of `bytes` device bytes to `value`. */
SIMCUDA_API void simcuda_memset(uint64_t bytes, uint32_t value, simcuda_stream stream);

/* cudaProfilerStart / cudaProfilerStop along the runtime's own path: runtime
 * callback (171/172) ENTER, the nested driver call cuProfilerStart/Stop
 * (308/309) ENTER and EXIT, runtime EXIT. */
SIMCUDA_API void simcuda_profiler_start(void);
SIMCUDA_API void simcuda_profiler_stop(void);

/* NVTX: nvtxRangePushA / nvtxRangePop on the default domain, and
 * nvtxDomainRangePushEx / nvtxDomainRangePop on a named domain (created on
 * first use with nvtxDomainCreateA). Ranges nest per thread, per domain.
 * `name` is copied. */
SIMCUDA_API void simcuda_nvtx_push(const char *name);
SIMCUDA_API void simcuda_nvtx_pop(void);
SIMCUDA_API void simcuda_nvtx_domain_push(const char *domain, const char *name);
SIMCUDA_API void simcuda_nvtx_domain_pop(const char *domain);

/* Like cudaDeviceSynchronize: sleeps until every stream's virtual clock has
 * passed (the simulated GPU has finished all work issued so far). */
SIMCUDA_API void simcuda_synchronize(void);

/* What the driver does at process end: delivers every buffered activity
 * record to the subscriber (a forced flush on the calling thread) and stops
 * CUPTI's worker thread. It does not wait for the virtual GPU: the double's
 * records are complete when written. Idempotent. */
SIMCUDA_API void simcuda_shutdown(void);

/* The CUcontext handle the double reports (the only one), for callers of
 * cuptiActivityGetNumDroppedRecords(context, streamId, ...). */
SIMCUDA_API void *simcuda_context(void);

#ifdef __cplusplus
}
#endif
#endif
