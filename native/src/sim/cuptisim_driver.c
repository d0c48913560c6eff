/*
 * cuptisim_driver.c: the simulated GPU behind the CUPTI test double (the
 * simcuda_* API of simgpu_driver.h): init and injection, streams with their
 * own virtual clocks, kernels, copies, sets, profiler start/stop,
 * synchronize and shutdown. Each simulated API call does what CUPTI would
 * observe of the real one: callbacks on the calling thread for enabled
 * (domain, cbid), an activity record for each enabled kind.
 *
 * A record's timestamps come from the stream's virtual clock at launch, but
 * the record is complete only once the double's clock has passed its end
 * (cuptisim_buffers.c decides what a flush may return before that).
 */
#include "sim/cuptisim_helpers.h"
#include "sim/cuptisim_internal.h"
#include "sim/simgpu_driver.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct CUctx_st { int unused; };
static struct CUctx_st the_context;

CUcontext sim_context(void) { return &the_context; }
void *simcuda_context(void) { return &the_context; }

/* ---- streams and their virtual clocks ---- */

struct sim_stream {
    _Atomic uint64_t busy_until;
    _Atomic(struct sim_graph *) capture; /* non-NULL while capturing */
};
static struct sim_stream streams[SIM_MAX_STREAMS];
/* A stream made by simcuda_stream_create_with_id: the CUPTI streamId its records carry; 0: numbered. */
static _Atomic uint32_t stream_ids[SIM_MAX_STREAMS];
static _Atomic uint32_t streams_created;
static _Atomic uint32_t next_correlation = 1;
static _Atomic int64_t next_grid_id = 1;
/* Work up to here counts as complete whatever the clock says (context teardown). */
static _Atomic uint64_t done_until;

unsigned sim_stream_slot(uint32_t s) {
    if (s >= SIM_FIRST_STREAM_HANDLE && s - SIM_FIRST_STREAM_HANDLE + 1 <= atomic_load(&streams_created))
        return s - SIM_FIRST_STREAM_HANDLE + 1;
    return 0;
}

uint32_t sim_cupti_stream_id(unsigned slot) {
    if (slot == 0) return SIM_DEFAULT_STREAM_CUPTI_ID;
    uint32_t id = atomic_load_explicit(&stream_ids[slot], memory_order_relaxed);
    return id != 0 ? id : SIM_FIRST_STREAM_HANDLE + slot - 1;
}

struct sim_graph *sim_stream_capture(unsigned slot) {
    return atomic_load_explicit(&streams[slot].capture, memory_order_acquire);
}

int sim_stream_set_capture(unsigned slot, struct sim_graph *expected, struct sim_graph *g) {
    if (!atomic_compare_exchange_strong(&streams[slot].capture, &expected, g)) return 0;
    if (g != NULL) atomic_fetch_add(&sim_launch_unusual, SIM_UNUSUAL_CAPTURE);
    else atomic_fetch_sub(&sim_launch_unusual, SIM_UNUSUAL_CAPTURE);
    return 1;
}

simcuda_stream simcuda_stream_create(void) {
    uint32_t n = atomic_load(&streams_created);
    do {
        if (n + 1 >= SIM_MAX_STREAMS) return 0;
    } while (!atomic_compare_exchange_weak(&streams_created, &n, n + 1));
    return SIM_FIRST_STREAM_HANDLE + n;
}

simcuda_stream simcuda_stream_create_with_id(uint32_t cupti_id) {
    if (cupti_id == SIM_DEFAULT_STREAM_CUPTI_ID) return 0;
    simcuda_stream s = simcuda_stream_create();
    if (s != 0 && cupti_id != 0) atomic_store(&stream_ids[s - SIM_FIRST_STREAM_HANDLE + 1], cupti_id);
    return s;
}

void simcuda_stream_hold_until(simcuda_stream stream, uint64_t t_ns) {
    _Atomic uint64_t *busy = &streams[sim_stream_slot(stream)].busy_until;
    uint64_t b = atomic_load_explicit(busy, memory_order_relaxed);
    while (b < t_ns && !atomic_compare_exchange_weak_explicit(busy, &b, t_ns, memory_order_relaxed, memory_order_relaxed)) {
    }
}

uint64_t simcuda_stream_done_at(simcuda_stream stream) {
    return atomic_load_explicit(&streams[sim_stream_slot(stream)].busy_until, memory_order_relaxed);
}

/* Places `duration` of work on the stream: it starts when both the host has
 * issued it and the stream's earlier work is done. */
void sim_schedule(unsigned slot, uint64_t duration, uint64_t *start, uint64_t *end) {
    uint64_t now = sim_now_ns();
    _Atomic uint64_t *busy = &streams[slot].busy_until;
    uint64_t b = atomic_load_explicit(busy, memory_order_relaxed);
    uint64_t s, e;
    do {
        s = b > now ? b : now;
        e = s + duration;
    } while (!atomic_compare_exchange_weak_explicit(busy, &b, e, memory_order_relaxed, memory_order_relaxed));
    *start = s;
    *end = e;
}

uint64_t sim_gpu_now(void) {
    uint64_t now = sim_now_ns(), done = atomic_load_explicit(&done_until, memory_order_relaxed);
    return done > now ? done : now;
}

uint32_t sim_new_correlation(void) {
    return atomic_fetch_add_explicit(&next_correlation, 1, memory_order_relaxed);
}

/* ---- API calls as CUPTI sees them: callbacks and API records ---- */

/* Only the runtime and driver domains make API records (a table: no branch on the launch path). */
static const uint8_t API_KIND[CUPTI_CB_DOMAIN_SIZE] = {
    [CUPTI_CB_DOMAIN_RUNTIME_API] = CUPTI_ACTIVITY_KIND_RUNTIME,
    [CUPTI_CB_DOMAIN_DRIVER_API] = CUPTI_ACTIVITY_KIND_DRIVER,
};

static CUpti_ActivityKind api_kind(CUpti_CallbackDomain d) { return (CUpti_ActivityKind)API_KIND[d]; }

static void api_callback(struct sim_api_frame *f, CUpti_ApiCallbackSite site) {
    if (!sim_callback_enabled(f->domain, f->cbid)) return;
    CUpti_CallbackData data = {
        .callbackSite = site,
        .functionName = f->function,
        .functionParams = NULL,
        .functionReturnValue = site == CUPTI_API_EXIT ? &f->result : NULL,
        .symbolName = f->symbol,
        .context = &the_context,
        .contextUid = SIM_CONTEXT_ID,
        .correlationData = &f->correlation_data,
        .correlationId = f->correlation,
    };
    sim_callback_invoke(f->domain, f->cbid, &data);
}

void sim_api_enter(struct sim_api_frame *f, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                   const char *function, const char *symbol, uint32_t correlation) {
    f->domain = domain;
    f->cbid = cbid;
    f->function = function;
    f->symbol = symbol;
    f->correlation = correlation;
    f->correlation_data = 0;
    f->result = 0;
    f->start = sim_kind_on(api_kind(domain)) ? sim_now_ns() : 0;
    api_callback(f, CUPTI_API_ENTER);
}

void sim_api_exit(struct sim_api_frame *f) {
    api_callback(f, CUPTI_API_EXIT);
    CUpti_ActivityKind kind = api_kind(f->domain);
    if (!sim_kind_on(kind)) return;
    CUpti_ActivityAPI r = {
        .kind = kind,
        .cbid = f->cbid,
        .start = f->start ? f->start : sim_now_ns(),
        .end = sim_now_ns(),
        .processId = (uint32_t)getpid(),
        .threadId = sim_thread_id(),
        .correlationId = f->correlation,
        .returnValue = (uint32_t)f->result,
    };
    sim_emit(&r, sizeof r, SIM_GLOBAL_DROP_SLOT, 0);
}

/* The runtime call with its driver call nested, as CUDA's runtime makes them. */
void sim_api_pair_enter(struct sim_api_frame f[2], CUpti_CallbackId rt_cbid, const char *rt_name,
                        CUpti_CallbackId drv_cbid, const char *drv_name, const char *symbol, uint32_t correlation) {
    sim_api_enter(&f[0], CUPTI_CB_DOMAIN_RUNTIME_API, rt_cbid, rt_name, symbol, correlation);
    sim_api_enter(&f[1], CUPTI_CB_DOMAIN_DRIVER_API, drv_cbid, drv_name, symbol, correlation);
}

void sim_api_pair_exit(struct sim_api_frame f[2]) {
    sim_api_exit(&f[1]);
    sim_api_exit(&f[0]);
}

/* ---- init: what cuInit does with CUDA_INJECTION64_PATH ---- */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result;

/* A real CUDA process maps /dev/nvidia* once the driver is up; a process
 * tree's non-GPU processes (vLLM's API server) do not. The stand-in is a
 * named mapping that shows in /proc/PID/maps as "/memfd:simcuda-context",
 * so a tool can tell which processes "initialized CUDA". */
static void map_context_marker(void) {
    int fd = memfd_create("simcuda-context", MFD_CLOEXEC);
    if (fd < 0) return;
    if (ftruncate(fd, 4096) == 0) (void)mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
}

static void load_injection(void) {
    sim_config_read(); /* a forked worker's parent may have set switches after the load */
    map_context_marker();
    const char *path = getenv("CUDA_INJECTION64_PATH");
    if (path != NULL && *path != '\0') {
        void *lib = dlopen(path, RTLD_NOW);
        int (*initialize)(void) = lib ? (int (*)(void))dlsym(lib, "InitializeInjection") : NULL;
        if (lib == NULL) {
            fprintf(stderr, "simcuda: cannot load CUDA_INJECTION64_PATH=%s: %s; running without it\n", path, dlerror());
            init_result = -1;
        } else if (initialize == NULL) {
            fprintf(stderr, "simcuda: %s has no InitializeInjection symbol; running without it\n", path);
            init_result = -1;
        } else if (initialize() != 1) {
            fprintf(stderr, "simcuda: InitializeInjection of %s reported failure\n", path);
            init_result = -1;
        }
    }
    sim_device_cuda_initialized(); /* the context exists: DEVICE records if that kind is on */
}

int simcuda_init(void) {
    pthread_once(&init_once, load_injection);
    sim_helpers_start(); /* libcuda's helper threads (cuptisim_helpers.c) */
    return init_result;
}

/* ---- records of GPU work ---- */

/* The kernel kind a launch's record takes, or INVALID when none is on. */
CUpti_ActivityKind sim_kernel_kind(void) {
    return sim_kind_on(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
         : sim_kind_on(CUPTI_ACTIVITY_KIND_KERNEL)            ? CUPTI_ACTIVITY_KIND_KERNEL
                                                               : CUPTI_ACTIVITY_KIND_INVALID;
}

/* The device-buffer model's verdict on a record's timestamps (see cuptisim_activity.c). */
static void device_buffer_timestamps(int graph_node, uint64_t *start, uint64_t *end) {
    switch (sim_device_buffer_take(graph_node)) {
    case SIM_TS_TORN: *end = *start - 1; break;
    case SIM_TS_DROPPED: *start = *end = 0; break;
    default: break;
    }
}

/* The fields every GPU record has, by the same names in Kernel10, Memcpy6 and Memset4. */
#define FILL_GPU_FIELDS(r, w, slot, start, end, corr) \
    do {                                              \
        (r).start = (start);                          \
        (r).end = (end);                              \
        (r).deviceId = sim_device();                  \
        (r).contextId = SIM_CONTEXT_ID;               \
        (r).streamId = sim_cupti_stream_id(slot);     \
        (r).correlationId = (corr);                   \
        (r).graphNodeId = (w)->node_id;               \
        (r).graphId = (w)->graph_id;                  \
        (r).channelID = (slot);                       \
    } while (0)

void sim_emit_kernel(CUpti_ActivityKind kind, const struct sim_work *w, unsigned slot, uint64_t start, uint64_t end,
                     uint32_t corr) {
    const char *name = sim_kernel_name(w->name ? w->name : "<unnamed>");
    uint64_t h = sim_name_hash(name);
    uint64_t due = sim_due(end);
    device_buffer_timestamps(w->graph_id != 0, &start, &end);
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    k.sharedMemoryConfig = 1;
    k.registersPerThread = (uint16_t)(32 + (h % 8) * 16); /* stable per kernel name */
    k.partitionedGlobalCacheRequested = CUPTI_ACTIVITY_PARTITIONED_GLOBAL_CACHE_CONFIG_NOT_SUPPORTED;
    k.partitionedGlobalCacheExecuted = CUPTI_ACTIVITY_PARTITIONED_GLOBAL_CACHE_CONFIG_NOT_SUPPORTED;
    FILL_GPU_FIELDS(k, w, slot, start, end, corr);
    k.completed = end;
    k.gridX = (int32_t)w->grid.x;
    k.gridY = (int32_t)w->grid.y;
    k.gridZ = (int32_t)w->grid.z;
    k.blockX = (int32_t)w->block.x;
    k.blockY = (int32_t)w->block.y;
    k.blockZ = (int32_t)w->block.z;
    k.staticSharedMemory = (int32_t)(((h >> 8) % 4) * 4096);
    k.dynamicSharedMemory = (int32_t)(((h >> 16) % 8) * 16384);
    k.gridId = atomic_fetch_add_explicit(&next_grid_id, 1, memory_order_relaxed);
    k.name = name;
    k.queued = CUPTI_TIMESTAMP_UNKNOWN;
    k.submitted = CUPTI_TIMESTAMP_UNKNOWN;
    k.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
    k.sharedMemoryExecuted = (uint32_t)(k.staticSharedMemory + k.dynamicSharedMemory);
    k.shmemLimitConfig = CUPTI_FUNC_SHMEM_LIMIT_DEFAULT;
    k.channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
    sim_emit(&k, sizeof k, slot, due);
}

void sim_emit_memcpy(const struct sim_work *w, unsigned slot, uint64_t start, uint64_t end, uint32_t corr) {
    uint64_t due = sim_due(end);
    device_buffer_timestamps(w->graph_id != 0, &start, &end);
    enum simcuda_memcpy_kind kind = (enum simcuda_memcpy_kind)w->copy_kind;
    CUpti_ActivityMemcpy6 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = (uint8_t)kind;
    /* host memory (pinned) on the host side of HtoD, HtoA, HtoH (1, 3, 9) and DtoH, AtoH, HtoH (2, 4, 9) */
    int host_src = kind == SIMCUDA_MEMCPY_HTOD || (int)kind == 3 || (int)kind == 9;
    int host_dst = kind == SIMCUDA_MEMCPY_DTOH || (int)kind == 4 || (int)kind == 9;
    m.srcKind = host_src ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.dstKind = host_dst ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    m.bytes = w->bytes;
    FILL_GPU_FIELDS(m, w, slot, start, end, corr);
    m.runtimeCorrelationId = corr;
    m.channelType = CUPTI_CHANNEL_TYPE_ASYNC_MEMCPY;
    m.copyCount = 1;
    sim_emit(&m, sizeof m, slot, due);
}

void sim_emit_memset(const struct sim_work *w, unsigned slot, uint64_t start, uint64_t end, uint32_t corr) {
    uint64_t due = sim_due(end);
    device_buffer_timestamps(w->graph_id != 0, &start, &end);
    CUpti_ActivityMemset4 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    m.value = w->value;
    m.bytes = w->bytes;
    FILL_GPU_FIELDS(m, w, slot, start, end, corr);
    m.flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
    sim_emit(&m, sizeof m, slot, due);
}

/* Bytes per ns: PCIe Gen5 x16 for host copies, HBM for device copies. */
uint64_t sim_copy_duration(int kind, uint64_t bytes) {
    if (kind == SIMCUDA_MEMCPY_DTOD) return 1000 + bytes / 1500;
    return 2000 + bytes / 25;
}

uint64_t sim_set_duration(uint64_t bytes) { return 1000 + bytes / 2000; }

/* ---- kernels, copies, sets ---- */

/* The runtime call of a kernel launch with its driver call nested, as CUDA makes them. */
static void launch_enter(struct sim_api_frame api[2], const char *name, uint32_t corr) {
    sim_api_pair_enter(api, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cudaLaunchKernel",
                       CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel", name, corr);
}

/* A kernel that ran on `slot` from `start` to `end`: recorded when someone records kernels (the
 * work is described only then). */
static void record_kernel(const char *name, simcuda_dim3 grid, simcuda_dim3 block, uint64_t duration_ns,
                          unsigned slot, uint64_t start, uint64_t end, uint32_t corr) {
    CUpti_ActivityKind kind = sim_kernel_kind();
    if (kind != CUPTI_ACTIVITY_KIND_INVALID) {
        struct sim_work w = { .type = SIM_WORK_KERNEL, .name = name, .grid = grid, .block = block, .duration = duration_ns };
        sim_emit_kernel(kind, &w, slot, start, end, corr);
    }
}

void simcuda_launch_kernel(simcuda_stream stream, const char *name, simcuda_dim3 grid,
                           simcuda_dim3 block, uint64_t duration_ns) {
    uint32_t corr = sim_new_correlation();
    unsigned slot = sim_stream_slot(stream);
    struct sim_api_frame api[2];
    launch_enter(api, name, corr);
    struct sim_graph *capturing = sim_launch_checks(slot);
    if (__builtin_expect(capturing != NULL, 0)) {
        struct sim_work w = { .type = SIM_WORK_KERNEL, .name = name, .grid = grid, .block = block, .duration = duration_ns };
        sim_graph_add(capturing, &w);
    } else {
        uint64_t start, end;
        sim_schedule(slot, duration_ns, &start, &end);
        record_kernel(name, grid, block, duration_ns, slot, start, end, corr);
    }
    sim_api_pair_exit(api);
}

uint64_t simcuda_stream_ready_ns(simcuda_stream stream) {
    uint64_t now = sim_now_ns();
    uint64_t b = atomic_load_explicit(&streams[sim_stream_slot(stream)].busy_until, memory_order_relaxed);
    return b > now ? b : now;
}

void simcuda_launch_kernel_at(simcuda_stream stream, const char *name, simcuda_dim3 grid, simcuda_dim3 block,
                              uint64_t start_ns, uint64_t end_ns) {
    uint32_t corr = sim_new_correlation();
    unsigned slot = sim_stream_slot(stream);
    struct sim_api_frame api[2];
    launch_enter(api, name, corr);
    (void)sim_launch_checks(slot);
    _Atomic uint64_t *busy = &streams[slot].busy_until;
    uint64_t b = atomic_load_explicit(busy, memory_order_relaxed);
    while (b < end_ns && !atomic_compare_exchange_weak_explicit(busy, &b, end_ns, memory_order_relaxed,
                                                                memory_order_relaxed)) {
    }
    record_kernel(name, grid, block, end_ns - start_ns, slot, start_ns, end_ns, corr);
    sim_api_pair_exit(api);
}

/* A copy or set issued to a stream: a node of the graph it captures, or work
 * on its clock, recorded when `kind` is on. */
static void issue(unsigned slot, const struct sim_work *w, CUpti_ActivityKind kind, uint32_t corr,
                  void (*emit)(const struct sim_work *, unsigned, uint64_t, uint64_t, uint32_t)) {
    struct sim_graph *capturing = sim_launch_checks(slot);
    if (__builtin_expect(capturing != NULL, 0)) {
        sim_graph_add(capturing, w);
        return;
    }
    uint64_t start, end;
    sim_schedule(slot, w->duration, &start, &end);
    if (sim_kind_on(kind)) emit(w, slot, start, end, corr);
}

void simcuda_memcpy(enum simcuda_memcpy_kind kind, uint64_t bytes, simcuda_stream stream) {
    simcuda_memcpy_timed(kind, bytes, stream, sim_copy_duration((int)kind, bytes));
}

void simcuda_memcpy_timed(enum simcuda_memcpy_kind kind, uint64_t bytes, simcuda_stream stream, uint64_t duration_ns) {
    uint32_t corr = sim_new_correlation();
    unsigned slot = sim_stream_slot(stream);
    CUpti_CallbackId drv_cbid = kind == SIMCUDA_MEMCPY_HTOD   ? CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2
                              : kind == SIMCUDA_MEMCPY_DTOH   ? CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2
                                                              : CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2;
    const char *drv_name = kind == SIMCUDA_MEMCPY_HTOD ? "cuMemcpyHtoDAsync_v2"
                         : kind == SIMCUDA_MEMCPY_DTOH ? "cuMemcpyDtoHAsync_v2" : "cuMemcpyDtoDAsync_v2";
    struct sim_api_frame api[2];
    sim_api_pair_enter(api, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync", drv_cbid, drv_name,
                       NULL, corr);
    struct sim_work w = { .type = SIM_WORK_MEMCPY, .copy_kind = (int)kind, .bytes = bytes, .duration = duration_ns };
    issue(slot, &w, CUPTI_ACTIVITY_KIND_MEMCPY, corr, sim_emit_memcpy);
    sim_api_pair_exit(api);
}

void simcuda_memset(uint64_t bytes, uint32_t value, simcuda_stream stream) {
    simcuda_memset_timed(bytes, value, stream, sim_set_duration(bytes));
}

void simcuda_memset_timed(uint64_t bytes, uint32_t value, simcuda_stream stream, uint64_t duration_ns) {
    uint32_t corr = sim_new_correlation();
    unsigned slot = sim_stream_slot(stream);
    struct sim_api_frame api[2];
    sim_api_pair_enter(api, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, "cudaMemsetAsync",
                       CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, "cuMemsetD8Async", NULL, corr);
    struct sim_work w = { .type = SIM_WORK_MEMSET, .bytes = bytes, .value = value, .duration = duration_ns };
    issue(slot, &w, CUPTI_ACTIVITY_KIND_MEMSET, corr, sim_emit_memset);
    sim_api_pair_exit(api);
}

/* ---- cudaProfilerStart/Stop: runtime call with the driver call nested ---- */

static void profiler_call(CUpti_CallbackId rt_cbid, const char *rt_name, CUpti_CallbackId drv_cbid, const char *drv_name) {
    struct sim_api_frame api[2];
    sim_api_pair_enter(api, rt_cbid, rt_name, drv_cbid, drv_name, NULL, sim_new_correlation());
    sim_api_pair_exit(api);
}

void simcuda_profiler_start(void) {
    profiler_call(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000, "cudaProfilerStart",
                  CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, "cuProfilerStart");
}

void simcuda_profiler_stop(void) {
    profiler_call(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000, "cudaProfilerStop",
                  CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, "cuProfilerStop");
}

/* ---- synchronize and shutdown ---- */

static uint64_t gpu_busy_until(void) {
    uint64_t until = 0;
    for (int i = 0; i < SIM_MAX_STREAMS; i++) {
        uint64_t b = atomic_load_explicit(&streams[i].busy_until, memory_order_relaxed);
        if (b > until) until = b;
    }
    return until;
}

static void sleep_until(uint64_t until) {
    if (until <= sim_now_ns()) return;
    struct timespec ts = { .tv_sec = (time_t)(until / 1000000000u), .tv_nsec = (long)(until % 1000000000u) };
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

/* A synchronize call as CUPTI sees it: the API pair around the wait, and the synchronization
 * record (emitted before the API records, at the call's exit, complete at once: host time). */
static void synchronize_call(CUpti_CallbackId rt_cbid, const char *rt_name, CUpti_CallbackId drv_cbid,
                             const char *drv_name, CUpti_ActivitySynchronizationType type, int slot) {
    struct sim_api_frame api[2];
    uint32_t corr = sim_new_correlation();
    sim_api_pair_enter(api, rt_cbid, rt_name, drv_cbid, drv_name, NULL, corr);
    int on = sim_kind_on(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    uint64_t start = on ? sim_now_ns() : 0;
    sleep_until(slot < 0 ? gpu_busy_until()
                         : atomic_load_explicit(&streams[slot].busy_until, memory_order_relaxed));
    if (on) {
        CUpti_ActivitySynchronization2 r = {
            .kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
            .type = type,
            .start = start,
            .end = sim_now_ns(),
            .correlationId = corr,
            .contextId = SIM_CONTEXT_ID,
            .streamId = slot < 0 ? CUPTI_SYNCHRONIZATION_INVALID_VALUE : sim_cupti_stream_id((unsigned)slot),
            .cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE,
            .cudaEventSyncId = CUPTI_SYNCHRONIZATION_INVALID_VALUE,
            .returnValue = 0,
        };
        sim_emit(&r, sizeof r, slot < 0 ? SIM_GLOBAL_DROP_SLOT : (unsigned)slot, 0);
    }
    sim_api_pair_exit(api);
}

void simcuda_synchronize(void) { sleep_until(gpu_busy_until()); }

void simcuda_device_synchronize(void) {
    synchronize_call(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, "cudaDeviceSynchronize",
                     CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize",
                     CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, -1);
}

void simcuda_stream_synchronize(simcuda_stream stream) {
    synchronize_call(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, "cudaStreamSynchronize",
                     CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, "cuStreamSynchronize",
                     CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, (int)sim_stream_slot(stream));
}

static _Atomic int shut_down;

void simcuda_shutdown(void) {
    if (atomic_exchange(&shut_down, 1)) return;
    /* Destroying the context waits for the GPU; an unpaced run's virtual
     * clock may be minutes ahead, so the work is declared done, not slept for. */
    atomic_store(&done_until, gpu_busy_until());
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    sim_buffers_stop_worker();
}

void simcuda_get_stats(struct simcuda_stats *out) {
    memset(out, 0, sizeof *out);
    out->invalid_end_before_start = sim_invalid_count(SIM_INVALID_END_BEFORE_START);
    out->invalid_start_zero = sim_invalid_count(SIM_INVALID_START_ZERO);
    out->invalid_end_zero = sim_invalid_count(SIM_INVALID_END_ZERO);
    out->invalid_both_zero = sim_invalid_count(SIM_INVALID_BOTH_ZERO);
    out->device_timestamps_torn = sim_device_timestamps_lost(SIM_TS_TORN);
    out->device_timestamps_dropped = sim_device_timestamps_lost(SIM_TS_DROPPED);
    out->device_buffer_bytes = sim_device_buffer_bytes();
    out->launches_taxed = sim_launches_taxed();
}
