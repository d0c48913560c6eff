/*
 * cuptisim_driver.c: the simulated GPU behind the CUPTI test double (the
 * simcuda_* API of simgpu_driver.h). One device, one context, streams with
 * their own virtual clocks. Each simulated API call does what CUPTI would
 * observe of the real one: callbacks on the calling thread for enabled
 * (domain, cbid), an activity record for each enabled kind.
 *
 * Records are complete when written: a kernel's start and end come from the
 * stream's virtual clock at launch, so the double never hands out a kernel
 * with start = end = 0.
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

/* ---- interned strings ---- */

struct intern_entry { uint64_t hash; const char *str; };
static pthread_mutex_t intern_mu = PTHREAD_MUTEX_INITIALIZER;
static struct intern_entry *intern_tab;
static size_t intern_cap, intern_len;

static uint64_t fnv1a(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static int intern_grow(void) { /* under intern_mu */
    size_t cap = intern_cap ? intern_cap * 2 : 1024;
    struct intern_entry *tab = calloc(cap, sizeof *tab);
    if (tab == NULL) return -1;
    for (size_t i = 0; i < intern_cap; i++) {
        if (intern_tab[i].str == NULL) continue;
        size_t j = intern_tab[i].hash & (cap - 1);
        while (tab[j].str != NULL) j = (j + 1) & (cap - 1);
        tab[j] = intern_tab[i];
    }
    free(intern_tab);
    intern_tab = tab;
    intern_cap = cap;
    return 0;
}

const char *sim_intern(const char *s) {
    if (s == NULL) return NULL;
    uint64_t h = fnv1a(s);
    const char *out = "<out of memory>";
    pthread_mutex_lock(&intern_mu);
    if ((intern_len + 1) * 2 > intern_cap && intern_grow() != 0) goto done;
    size_t j = h & (intern_cap - 1);
    while (intern_tab[j].str != NULL) {
        if (intern_tab[j].hash == h && strcmp(intern_tab[j].str, s) == 0) {
            out = intern_tab[j].str;
            goto done;
        }
        j = (j + 1) & (intern_cap - 1);
    }
    char *copy = strdup(s);
    if (copy == NULL) goto done;
    intern_tab[j].hash = h;
    intern_tab[j].str = copy;
    intern_len++;
    out = copy;
done:
    pthread_mutex_unlock(&intern_mu);
    return out;
}

/* ---- streams and their virtual clocks ---- */

struct sim_stream { _Atomic uint64_t busy_until; };
static struct sim_stream streams[SIM_MAX_STREAMS];
static _Atomic uint32_t streams_created;
static _Atomic uint32_t next_correlation = 1;
static _Atomic int64_t next_grid_id = 1;

static unsigned stream_slot(simcuda_stream s) {
    if (s >= SIM_FIRST_STREAM_HANDLE && s - SIM_FIRST_STREAM_HANDLE + 1 <= atomic_load(&streams_created))
        return s - SIM_FIRST_STREAM_HANDLE + 1;
    return 0;
}

static uint32_t cupti_stream_id(unsigned slot) {
    return slot == 0 ? SIM_DEFAULT_STREAM_CUPTI_ID : SIM_FIRST_STREAM_HANDLE + slot - 1;
}

simcuda_stream simcuda_stream_create(void) {
    uint32_t n = atomic_load(&streams_created);
    do {
        if (n + 1 >= SIM_MAX_STREAMS) return 0;
    } while (!atomic_compare_exchange_weak(&streams_created, &n, n + 1));
    return SIM_FIRST_STREAM_HANDLE + n;
}

/* Places `duration` of work on the stream: it starts when both the host has
 * issued it and the stream's earlier work is done. */
static void schedule(unsigned slot, uint64_t now, uint64_t duration, uint64_t *start, uint64_t *end) {
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

/* ---- API calls as CUPTI sees them: callbacks and API records ---- */

struct api_frame {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    const char *function;
    const char *symbol;
    uint32_t correlation;
    uint64_t start;
    uint64_t correlation_data; /* shared by ENTER and EXIT, as in CUPTI */
    int result;
};

static CUpti_ActivityKind api_kind(CUpti_CallbackDomain d) {
    return d == CUPTI_CB_DOMAIN_RUNTIME_API ? CUPTI_ACTIVITY_KIND_RUNTIME : CUPTI_ACTIVITY_KIND_DRIVER;
}

static void api_callback(struct api_frame *f, CUpti_ApiCallbackSite site) {
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

static void api_enter(struct api_frame *f, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
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

static void api_exit(struct api_frame *f) {
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
    sim_emit(&r, sizeof r, SIM_GLOBAL_DROP_SLOT);
}

static uint32_t new_correlation(void) {
    return atomic_fetch_add_explicit(&next_correlation, 1, memory_order_relaxed);
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
    map_context_marker();
    const char *path = getenv("CUDA_INJECTION64_PATH");
    if (path == NULL || *path == '\0') return;
    void *lib = dlopen(path, RTLD_NOW);
    if (lib == NULL) {
        fprintf(stderr, "simcuda: cannot load CUDA_INJECTION64_PATH=%s: %s; running without it\n", path, dlerror());
        init_result = -1;
        return;
    }
    int (*initialize)(void) = (int (*)(void))dlsym(lib, "InitializeInjection");
    if (initialize == NULL) {
        fprintf(stderr, "simcuda: %s has no InitializeInjection symbol; running without it\n", path);
        init_result = -1;
        return;
    }
    if (initialize() != 1) {
        fprintf(stderr, "simcuda: InitializeInjection of %s reported failure\n", path);
        init_result = -1;
    }
}

int simcuda_init(void) {
    pthread_once(&init_once, load_injection);
    sim_helpers_start(); /* libcuda's helper threads (cuptisim_helpers.c) */
    return init_result;
}

/* ---- kernels, copies, sets ---- */

void simcuda_launch_kernel(simcuda_stream stream, const char *name, simcuda_dim3 grid,
                           simcuda_dim3 block, uint64_t duration_ns) {
    uint32_t corr = new_correlation();
    unsigned slot = stream_slot(stream);
    struct api_frame rt, drv;
    api_enter(&rt, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
              "cudaLaunchKernel", name, corr);
    api_enter(&drv, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel", name, corr);
    uint64_t start, end;
    schedule(slot, sim_now_ns(), duration_ns, &start, &end);
    CUpti_ActivityKind kind = sim_kind_on(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                            : sim_kind_on(CUPTI_ACTIVITY_KIND_KERNEL)          ? CUPTI_ACTIVITY_KIND_KERNEL
                                                                                : CUPTI_ACTIVITY_KIND_INVALID;
    if (kind != CUPTI_ACTIVITY_KIND_INVALID) {
        const char *interned = sim_intern(name ? name : "<unnamed>");
        uint64_t h = fnv1a(interned);
        CUpti_ActivityKernel10 k;
        memset(&k, 0, sizeof k);
        k.kind = kind;
        k.sharedMemoryConfig = 1;
        k.registersPerThread = (uint16_t)(32 + (h % 8) * 16); /* stable per kernel name */
        k.partitionedGlobalCacheRequested = CUPTI_ACTIVITY_PARTITIONED_GLOBAL_CACHE_CONFIG_NOT_SUPPORTED;
        k.partitionedGlobalCacheExecuted = CUPTI_ACTIVITY_PARTITIONED_GLOBAL_CACHE_CONFIG_NOT_SUPPORTED;
        k.start = start;
        k.end = end;
        k.completed = end;
        k.deviceId = SIM_DEVICE_ID;
        k.contextId = SIM_CONTEXT_ID;
        k.streamId = cupti_stream_id(slot);
        k.gridX = (int32_t)grid.x;
        k.gridY = (int32_t)grid.y;
        k.gridZ = (int32_t)grid.z;
        k.blockX = (int32_t)block.x;
        k.blockY = (int32_t)block.y;
        k.blockZ = (int32_t)block.z;
        k.staticSharedMemory = (int32_t)(((h >> 8) % 4) * 4096);
        k.dynamicSharedMemory = (int32_t)(((h >> 16) % 8) * 16384);
        k.correlationId = corr;
        k.gridId = atomic_fetch_add_explicit(&next_grid_id, 1, memory_order_relaxed);
        k.name = interned;
        k.queued = CUPTI_TIMESTAMP_UNKNOWN;
        k.submitted = CUPTI_TIMESTAMP_UNKNOWN;
        k.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
        k.sharedMemoryExecuted = (uint32_t)(k.staticSharedMemory + k.dynamicSharedMemory);
        k.shmemLimitConfig = CUPTI_FUNC_SHMEM_LIMIT_DEFAULT;
        k.channelID = slot;
        k.channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
        sim_emit(&k, sizeof k, slot);
    }
    api_exit(&drv);
    api_exit(&rt);
}

/* Bytes per ns: PCIe Gen5 x16 for host copies, HBM for device copies. */
static uint64_t copy_duration(enum simcuda_memcpy_kind kind, uint64_t bytes) {
    if (kind == SIMCUDA_MEMCPY_DTOD) return 1000 + bytes / 1500;
    return 2000 + bytes / 25;
}

void simcuda_memcpy(enum simcuda_memcpy_kind kind, uint64_t bytes, simcuda_stream stream) {
    uint32_t corr = new_correlation();
    unsigned slot = stream_slot(stream);
    CUpti_CallbackId drv_cbid = kind == SIMCUDA_MEMCPY_HTOD   ? CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2
                              : kind == SIMCUDA_MEMCPY_DTOH   ? CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2
                                                              : CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2;
    const char *drv_name = kind == SIMCUDA_MEMCPY_HTOD ? "cuMemcpyHtoDAsync_v2"
                         : kind == SIMCUDA_MEMCPY_DTOH ? "cuMemcpyDtoHAsync_v2" : "cuMemcpyDtoDAsync_v2";
    struct api_frame rt, drv;
    api_enter(&rt, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync", NULL, corr);
    api_enter(&drv, CUPTI_CB_DOMAIN_DRIVER_API, drv_cbid, drv_name, NULL, corr);
    uint64_t start, end;
    schedule(slot, sim_now_ns(), copy_duration(kind, bytes), &start, &end);
    if (sim_kind_on(CUPTI_ACTIVITY_KIND_MEMCPY)) {
        CUpti_ActivityMemcpy6 m;
        memset(&m, 0, sizeof m);
        m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        m.copyKind = (uint8_t)kind;
        m.srcKind = kind == SIMCUDA_MEMCPY_HTOD ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.dstKind = kind == SIMCUDA_MEMCPY_DTOH ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
        m.bytes = bytes;
        m.start = start;
        m.end = end;
        m.deviceId = SIM_DEVICE_ID;
        m.contextId = SIM_CONTEXT_ID;
        m.streamId = cupti_stream_id(slot);
        m.correlationId = corr;
        m.runtimeCorrelationId = corr;
        m.channelID = slot;
        m.channelType = CUPTI_CHANNEL_TYPE_ASYNC_MEMCPY;
        m.copyCount = 1;
        sim_emit(&m, sizeof m, slot);
    }
    api_exit(&drv);
    api_exit(&rt);
}

void simcuda_memset(uint64_t bytes, uint32_t value, simcuda_stream stream) {
    uint32_t corr = new_correlation();
    unsigned slot = stream_slot(stream);
    struct api_frame rt, drv;
    api_enter(&rt, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, "cudaMemsetAsync", NULL, corr);
    api_enter(&drv, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, "cuMemsetD8Async", NULL, corr);
    uint64_t start, end;
    schedule(slot, sim_now_ns(), 1000 + bytes / 2000, &start, &end);
    if (sim_kind_on(CUPTI_ACTIVITY_KIND_MEMSET)) {
        CUpti_ActivityMemset4 m;
        memset(&m, 0, sizeof m);
        m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
        m.value = value;
        m.bytes = bytes;
        m.start = start;
        m.end = end;
        m.deviceId = SIM_DEVICE_ID;
        m.contextId = SIM_CONTEXT_ID;
        m.streamId = cupti_stream_id(slot);
        m.correlationId = corr;
        m.flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC;
        m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.channelID = slot;
        m.channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
        sim_emit(&m, sizeof m, slot);
    }
    api_exit(&drv);
    api_exit(&rt);
}

/* ---- cudaProfilerStart/Stop: runtime call with the driver call nested ---- */

static void profiler_call(CUpti_CallbackId rt_cbid, const char *rt_name, CUpti_CallbackId drv_cbid, const char *drv_name) {
    uint32_t corr = new_correlation();
    struct api_frame rt, drv;
    api_enter(&rt, CUPTI_CB_DOMAIN_RUNTIME_API, rt_cbid, rt_name, NULL, corr);
    api_enter(&drv, CUPTI_CB_DOMAIN_DRIVER_API, drv_cbid, drv_name, NULL, corr);
    api_exit(&drv);
    api_exit(&rt);
}

void simcuda_profiler_start(void) {
    profiler_call(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000, "cudaProfilerStart",
                  CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, "cuProfilerStart");
}

void simcuda_profiler_stop(void) {
    profiler_call(CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000, "cudaProfilerStop",
                  CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, "cuProfilerStop");
}

/* ---- NVTX ---- */

#define SIM_MAX_DOMAINS 16
#define SIM_NVTX_DEPTH 64

/* The handle NVTX gives out for a domain; opaque to clients. */
struct nvtxDomainRegistration_st { const char *name; };
static struct nvtxDomainRegistration_st domains[SIM_MAX_DOMAINS];
static _Atomic int domain_count;
static pthread_mutex_t domain_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint32_t next_marker_id = 1;

/* Per thread, per domain (0 = the default domain): the marker ids of the
 * open ranges, so a pop can name the range it ends. */
static __thread struct { uint32_t ids[SIM_NVTX_DEPTH]; int depth; } nvtx_stacks[SIM_MAX_DOMAINS + 1];

static void nvtx_callback(CUpti_CallbackId cbid, const char *function, const void *params, const void *ret) {
    if (!sim_callback_enabled(CUPTI_CB_DOMAIN_NVTX, cbid)) return;
    CUpti_NvtxData data = { .functionName = function, .functionParams = params, .functionReturnValue = ret };
    sim_callback_invoke(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
}

/* Finds or creates a domain; creation reports nvtxDomainCreateA. */
static int domain_index(const char *name) {
    int n = atomic_load_explicit(&domain_count, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (strcmp(domains[i].name, name) == 0) return i;
    pthread_mutex_lock(&domain_mu);
    n = atomic_load(&domain_count);
    for (int i = 0; i < n; i++)
        if (strcmp(domains[i].name, name) == 0) { pthread_mutex_unlock(&domain_mu); return i; }
    if (n == SIM_MAX_DOMAINS) { pthread_mutex_unlock(&domain_mu); return -1; }
    domains[n].name = sim_intern(name);
    atomic_store_explicit(&domain_count, n + 1, memory_order_release);
    pthread_mutex_unlock(&domain_mu);
    nvtxDomainCreateA_params p = { .name = domains[n].name };
    nvtxDomainHandle_t handle = &domains[n];
    nvtx_callback(CUPTI_CBID_NVTX_nvtxDomainCreateA, "nvtxDomainCreateA", &p, &handle);
    return n;
}

static void emit_marker(uint32_t flags, uint32_t id, const char *name, const char *domain) {
    if (!sim_kind_on(CUPTI_ACTIVITY_KIND_MARKER)) return;
    CUpti_ActivityMarker2 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = (CUpti_ActivityFlag)flags;
    m.timestamp = sim_now_ns();
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = (uint32_t)getpid();
    m.objectId.pt.threadId = sim_thread_id();
    m.name = name;     /* NULL for an end marker, as in CUPTI */
    m.domain = domain; /* NULL for the default domain */
    sim_emit(&m, sizeof m, SIM_GLOBAL_DROP_SLOT);
}

static int push_id(int stack, uint32_t id) {
    int depth = nvtx_stacks[stack].depth++;
    if (depth < SIM_NVTX_DEPTH) nvtx_stacks[stack].ids[depth] = id;
    return depth;
}

/* Returns the id of the innermost open range, or 0 if none. */
static uint32_t pop_id(int stack, int *depth_out) {
    if (nvtx_stacks[stack].depth == 0) { *depth_out = -1; return 0; }
    int depth = --nvtx_stacks[stack].depth;
    *depth_out = depth;
    return depth < SIM_NVTX_DEPTH ? nvtx_stacks[stack].ids[depth] : 0;
}

void simcuda_nvtx_push(const char *name) {
    const char *interned = sim_intern(name ? name : "");
    uint32_t id = atomic_fetch_add_explicit(&next_marker_id, 1, memory_order_relaxed);
    int depth = push_id(0, id);
    nvtxRangePushA_params p = { .message = interned };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxRangePushA, "nvtxRangePushA", &p, &depth);
    emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_START, id, interned, NULL);
}

void simcuda_nvtx_pop(void) {
    int depth;
    uint32_t id = pop_id(0, &depth);
    nvtxRangePop_params p = { .dummy = NULL };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxRangePop, "nvtxRangePop", &p, &depth);
    if (id != 0) emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_END, id, NULL, NULL);
}

void simcuda_nvtx_domain_push(const char *domain, const char *name) {
    int d = domain_index(domain ? domain : "");
    if (d < 0) return; /* more domains than the double tracks: ignored, as NVTX does without a tool */
    const char *interned = sim_intern(name ? name : "");
    uint32_t id = atomic_fetch_add_explicit(&next_marker_id, 1, memory_order_relaxed);
    int depth = push_id(d + 1, id);
    nvtxEventAttributes_t attr;
    memset(&attr, 0, sizeof attr);
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = interned;
    nvtxDomainRangePushEx_params p = { .domain = &domains[d], .core = { .eventAttrib = &attr } };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, "nvtxDomainRangePushEx", &p, &depth);
    emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_START, id, interned, domains[d].name);
}

void simcuda_nvtx_domain_pop(const char *domain) {
    int d = domain_index(domain ? domain : "");
    if (d < 0) return;
    int depth;
    uint32_t id = pop_id(d + 1, &depth);
    nvtxDomainRangePop_params p = { .domain = &domains[d] };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxDomainRangePop, "nvtxDomainRangePop", &p, &depth);
    if (id != 0) emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_END, id, NULL, domains[d].name);
}

/* ---- synchronize and shutdown ---- */

void simcuda_synchronize(void) {
    uint64_t until = 0;
    for (int i = 0; i < SIM_MAX_STREAMS; i++) {
        uint64_t b = atomic_load_explicit(&streams[i].busy_until, memory_order_relaxed);
        if (b > until) until = b;
    }
    if (until <= sim_now_ns()) return;
    struct timespec ts = { .tv_sec = (time_t)(until / 1000000000u), .tv_nsec = (long)(until % 1000000000u) };
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

static _Atomic int shut_down;

void simcuda_shutdown(void) {
    if (atomic_exchange(&shut_down, 1)) return;
    /* The double's records are complete when written, so there is no GPU
     * work to wait for (an unpaced run's virtual clock may be far ahead). */
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    sim_activity_stop_worker();
}
