/*
 * simgpu_driver.h: the "driver side" of the CUPTI test double.
 *
 * A synthetic GPU process (vprof-simgpu, the C tests) calls these functions
 * where a real program would call the CUDA runtime/driver. They are exported
 * from libvprof-cuptisim.so (soname libcupti.so.13), the same library that
 * answers the cupti* calls of an agent, so the agent sees one consistent
 * "CUDA": simulated devices (one by default), one context per process,
 * streams, CUDA graphs, a virtual GPU clock.
 *
 * GPU work runs asynchronously: a launch returns at once and its work
 * completes later on the stream's virtual clock, so its activity record is
 * complete only then (VPROF_SIM_COMPLETION; docs/simulator.md lists every
 * VPROF_SIM_* switch and what the field reports behind its default).
 *
 * Nothing here is a GPU figure: the GPU is simulated (docs/design.md §6).
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
 * exactly as libcuda does. Later calls do nothing. It first re-reads the
 * VPROF_SIM_* switches (a forked worker's may differ from its parent's), and
 * last, with the context made, emits DEVICE records if that kind is on.
 * Returns 0, or -1 when the injection library could not be loaded or its
 * InitializeInjection failed (a message on stderr says which; the simulated
 * GPU still works). */
SIMCUDA_API int simcuda_init(void);

/* Creates a stream (like cudaStreamCreate). At most 62 streams per process;
 * returns 0 (the default stream) when none are left. */
SIMCUDA_API simcuda_stream simcuda_stream_create(void);

/* A stream whose records carry CUPTI streamId `cupti_id` instead of the next
 * number (a replayed trace's streams keep their ids); 7, the legacy default
 * stream's id, gives the default stream (0). Otherwise as simcuda_stream_create. */
SIMCUDA_API simcuda_stream simcuda_stream_create_with_id(uint32_t cupti_id);

/* The stream's next work starts no earlier than `t_ns` (the double's clock:
 * CLOCK_REALTIME ns), as if the host had issued it then or the stream waited on
 * an event recorded then: what a replayed trace uses to keep its gaps. Never
 * moves the stream's clock back. */
SIMCUDA_API void simcuda_stream_hold_until(simcuda_stream stream, uint64_t t_ns);

/* When the work issued to the stream so far ends on the double's clock
 * (CLOCK_REALTIME ns; 0 before any): where a replay's next pass may begin. */
SIMCUDA_API uint64_t simcuda_stream_done_at(simcuda_stream stream);

/* The double's own copy of a kernel name, kept for the life of the process. A
 * launch given this pointer finds its name without reading it, as a real launch
 * passes a function handle rather than a name; any other pointer still works
 * (and is read and copied at each launch). */
SIMCUDA_API const char *simcuda_intern_name(const char *name);

/* Like cudaLaunchKernel: the kernel runs on the stream's virtual clock,
 * start = max(now, stream busy-until), end = start + duration_ns, so work on
 * different streams overlaps; the call returns before the kernel has run.
 * `name` is copied (interned): it may be freed after the call. Cheap: a clock
 * read, an atomic, and a record copy when CUPTI's kernel kind is enabled.
 * On a stream that is capturing, the kernel becomes a node of the graph
 * being captured and does not run (as in CUDA). */
SIMCUDA_API void simcuda_launch_kernel(simcuda_stream stream, const char *name,
                                       simcuda_dim3 grid, simcuda_dim3 block,
                                       uint64_t duration_ns);

/* When work issued to the stream now would start: max(now, busy-until). */
SIMCUDA_API uint64_t simcuda_stream_ready_ns(simcuda_stream stream);

/* A kernel whose times another party decided (a collective that ends when
 * its peers' data arrives): as simcuda_launch_kernel, but it runs from
 * start_ns to end_ns on the double's clock, and the stream is busy until
 * end_ns. Not for a capturing stream (it runs eagerly). */
SIMCUDA_API void simcuda_launch_kernel_at(simcuda_stream stream, const char *name, simcuda_dim3 grid,
                                          simcuda_dim3 block, uint64_t start_ns, uint64_t end_ns);

/* Like cudaMemcpyAsync of `bytes` bytes; the duration follows a PCIe/HBM-like
 * bandwidth for the direction. Captured like a kernel. */
SIMCUDA_API void simcuda_memcpy(enum simcuda_memcpy_kind kind, uint64_t bytes,
                                simcuda_stream stream);

/* Like cudaMemsetAsync of `bytes` device bytes to `value`. Captured like a kernel. */
SIMCUDA_API void simcuda_memset(uint64_t bytes, uint32_t value, simcuda_stream stream);

/* The same, taking `duration_ns` on the GPU instead of the bandwidth model's
 * (a replayed trace's copies and sets keep their durations). `kind` may be any
 * CUpti_ActivityMemcpyKind (1..10). */
SIMCUDA_API void simcuda_memcpy_timed(enum simcuda_memcpy_kind kind, uint64_t bytes, simcuda_stream stream,
                                      uint64_t duration_ns);
SIMCUDA_API void simcuda_memset_timed(uint64_t bytes, uint32_t value, simcuda_stream stream, uint64_t duration_ns);

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

/* Sleeps until every stream's virtual clock has passed (the simulated GPU has
 * finished all work issued so far): the wait of cudaDeviceSynchronize, without
 * the call (no callbacks, API or synchronization records), for a test or
 * schedule that only needs the GPU done. */
SIMCUDA_API void simcuda_synchronize(void);

/* cudaDeviceSynchronize as CUDA makes it: the runtime call with driver
 * cuCtxSynchronize nested (callbacks, API records), the wait, and with
 * CUPTI_ACTIVITY_KIND_SYNCHRONIZATION on one Synchronization2 record of type
 * CONTEXT_SYNCHRONIZE (no stream, no event) from the wait's start to its end. */
SIMCUDA_API void simcuda_device_synchronize(void);

/* cudaStreamSynchronize: as simcuda_device_synchronize, with runtime
 * cudaStreamSynchronize, driver cuStreamSynchronize, a wait for that stream
 * only, and a STREAM_SYNCHRONIZE record naming the stream. */
SIMCUDA_API void simcuda_stream_synchronize(simcuda_stream stream);

/* What the driver does at process end: the context's destruction waits for
 * the GPU (the double declares all issued work complete instead of sleeping
 * through a virtual clock that may be far ahead), then every buffered
 * activity record is delivered to the subscriber (a forced flush on the
 * calling thread) and CUPTI's worker thread stops. Idempotent. */
SIMCUDA_API void simcuda_shutdown(void);

/* The CUcontext handle the double reports (one per process), for callers of
 * cuptiActivityGetNumDroppedRecords(context, streamId, ...). */
SIMCUDA_API void *simcuda_context(void);

/* ---- devices ---- */

/* Like cudaSetDevice: records of work launched afterwards carry this device id.
 * Devices are 0 .. simcuda_device_count()-1 (VPROF_SIM_DEVICE_COUNT, default 1).
 * Returns 0, or -1 for a device that does not exist. */
SIMCUDA_API int simcuda_set_device(uint32_t device);
SIMCUDA_API uint32_t simcuda_device_count(void);

/* Like cudaMemGetInfo on the current device: 141 GB in all, less what CUPTI's
 * device buffers hold (the only device memory the double tracks). */
SIMCUDA_API void simcuda_mem_get_info(uint64_t *free_bytes, uint64_t *total_bytes);

/* ---- CUDA graphs ----
 * Capture (cudaStreamBeginCapture / cudaStreamEndCapture) records the kernels,
 * copies and sets issued to a stream as nodes of a graph instead of running
 * them; instantiation (cudaGraphInstantiate) makes an executable graph with
 * its own graph id and node ids; a launch (cudaGraphLaunch) runs its nodes in
 * order on a stream. A launch is one API call: runtime cudaGraphLaunch and
 * driver cuGraphLaunch callbacks and records, one correlation id, and one
 * activity record per node carrying that correlation id, the executable
 * graph's id and the node's id; no launch callback per node (tracy#1318,
 * #1330). With CUPTI_ACTIVITY_KIND_GRAPH_TRACE on, one graph-trace record per
 * launch replaces the node records. Whether nodes of a graph instantiated
 * while the kernel kind was off are delivered: VPROF_SIM_GRAPH_NODES. */

typedef struct simcuda_graph_st *simcuda_graph;
typedef struct simcuda_graph_exec_st *simcuda_graph_exec;

/* Starts capturing `stream` (global capture mode). Returns 0, or -1 if the
 * stream is already capturing. */
SIMCUDA_API int simcuda_graph_begin_capture(simcuda_stream stream);
/* Ends the capture: the graph of what was issued, or NULL if the stream was
 * not capturing. */
SIMCUDA_API simcuda_graph simcuda_graph_end_capture(simcuda_stream stream);
/* Instantiates a graph; NULL for a NULL graph or without memory. */
SIMCUDA_API simcuda_graph_exec simcuda_graph_instantiate(simcuda_graph graph);
/* Launches an executable graph on a stream (recorded as a node if the stream
 * is capturing: not supported, the launch is ignored with a message). */
SIMCUDA_API void simcuda_graph_launch(simcuda_graph_exec exec, simcuda_stream stream);
/* What CUPTI's graphId says for this executable graph's records, and its node count. */
SIMCUDA_API uint32_t simcuda_graph_exec_id(simcuda_graph_exec exec);
SIMCUDA_API uint32_t simcuda_graph_node_count(simcuda_graph_exec exec);
SIMCUDA_API void simcuda_graph_destroy(simcuda_graph graph);
SIMCUDA_API void simcuda_graph_exec_destroy(simcuda_graph_exec exec);

/* ---- what the double did that a test may assert ---- */

struct simcuda_stats {
    /* VPROF_SIM_INVALID_TS_RATE: records delivered with each invalid shape */
    uint64_t invalid_end_before_start, invalid_start_zero, invalid_end_zero, invalid_both_zero;
    /* the device-buffer model: records whose timestamps were torn or dropped */
    uint64_t device_timestamps_torn, device_timestamps_dropped;
    uint64_t device_buffer_bytes;  /* device memory CUPTI's buffers hold now */
    /* VPROF_SIM_POST_CAPTURE_COST_NS: launches that paid the post-capture cost */
    uint64_t launches_taxed;
};
SIMCUDA_API void simcuda_get_stats(struct simcuda_stats *out);

/* Re-reads the VPROF_SIM_* switches from the environment (tests; also done by
 * simcuda_init). Not safe against concurrent launches. */
SIMCUDA_API void simcuda_config_reload(void);

#ifdef __cplusplus
}
#endif
#endif
