/*
 * cuptisim_activity.c: the activity API of the CUPTI test double, except its
 * buffers (cuptisim_buffers.c): kinds, attributes, record sizes and walking,
 * dropped-record counts, and what enabling and disabling a kind sets off.
 */
#include "sim/cuptisim_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

_Atomic uint8_t sim_kind_enabled[CUPTI_ACTIVITY_KIND_COUNT];
_Atomic int sim_kernel_session_ended;
_Atomic uint32_t sim_launch_unusual;

static _Atomic uint64_t drops[SIM_MAX_STREAMS + 1];
/* A GPU kind was enabled since the last cuptiFinalize (the tax outlives the capture). */
static _Atomic int traced_since_finalize;
static void device_buffers_free(void);

/* ---- attributes (H13 CUpti_ActivityAttribute defaults) ---- */

static pthread_mutex_t attr_mu = PTHREAD_MUTEX_INITIALIZER;
static size_t device_buffer_size = 3200000;   /* ~100,000 records of 32 bytes */
static size_t device_buffer_pool_limit = 250; /* per context */
static size_t device_buffer_pre_allocate = 3;
static size_t device_buffer_size_cdp = 8388608;
static size_t device_buffer_size_graphs = 16777216;
static uint8_t zeroed_out_buffer;
static uint8_t host_pinned;
static int per_thread_buffers = -1;           /* -1: the version's default */

void sim_count_drop(unsigned drop_slot) {
    atomic_fetch_add_explicit(&drops[drop_slot], 1, memory_order_relaxed);
}

size_t sim_record_size(CUpti_ActivityKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_MARKER: return sizeof(CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_DEVICE: return sizeof(CUpti_ActivityDevice5);
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE: return sizeof(CUpti_ActivityGraphTrace2);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return sizeof(CUpti_ActivitySynchronization2);
    default: return 0;
    }
}

int sim_gpu_record_times(CUpti_Activity *r, uint64_t **start, uint64_t **end) {
    /* Every kind with a GPU span names its fields start and end, at an offset of its own. */
#define SPAN_OF(type) do { type *t_ = (type *)r; *start = &t_->start; *end = &t_->end; return 1; } while (0)
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: SPAN_OF(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: SPAN_OF(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMSET: SPAN_OF(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE: SPAN_OF(CUpti_ActivityGraphTrace2);
    default: return 0;
    }
#undef SPAN_OF
}

void sim_activity_reset(void) {
    for (int k = 0; k < CUPTI_ACTIVITY_KIND_COUNT; k++) atomic_store(&sim_kind_enabled[k], 0);
    for (int i = 0; i <= SIM_MAX_STREAMS; i++) atomic_store(&drops[i], 0);
    atomic_store(&traced_since_finalize, 0);
    atomic_fetch_and(&sim_launch_unusual, ~SIM_UNUSUAL_TAX);
    device_buffers_free();
    pthread_mutex_lock(&attr_mu);
    per_thread_buffers = -1;
    pthread_mutex_unlock(&attr_mu);
}

static int buffers_per_thread(void) {
    pthread_mutex_lock(&attr_mu);
    int v = per_thread_buffers < 0 ? sim_version_per_thread_buffers_default() : per_thread_buffers;
    pthread_mutex_unlock(&attr_mu);
    return v;
}

CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested,
                                           CUpti_BuffersCallbackCompleteFunc completed) {
    if (requested == NULL || completed == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    sim_buffers_register(requested, completed, buffers_per_thread());
    return CUPTI_SUCCESS;
}

static int producible(CUpti_ActivityKind kind) { return kind > CUPTI_ACTIVITY_KIND_INVALID && kind < CUPTI_ACTIVITY_KIND_COUNT; }

static int gpu_kind(CUpti_ActivityKind kind) {
    return kind == CUPTI_ACTIVITY_KIND_KERNEL || kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
           kind == CUPTI_ACTIVITY_KIND_MEMCPY || kind == CUPTI_ACTIVITY_KIND_MEMSET;
}

static int any_gpu_kind_on(void) {
    return sim_kind_on(CUPTI_ACTIVITY_KIND_KERNEL) || sim_kind_on(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ||
           sim_kind_on(CUPTI_ACTIVITY_KIND_MEMCPY) || sim_kind_on(CUPTI_ACTIVITY_KIND_MEMSET);
}

/* The post-capture cost applies while no GPU kind is on after one was: the
 * capture's own cost is the records the double writes. */
static void update_launch_tax(void) {
    int on = sim_cfg.post_capture_cost_ns > 0 && atomic_load(&traced_since_finalize) && !any_gpu_kind_on();
    if (on) atomic_fetch_or(&sim_launch_unusual, SIM_UNUSUAL_TAX);
    else atomic_fetch_and(&sim_launch_unusual, ~SIM_UNUSUAL_TAX);
}

CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
    if (!producible(kind)) return CUPTI_ERROR_INVALID_KIND;
    int was_on = atomic_exchange(&sim_kind_enabled[kind], 1);
    if (gpu_kind(kind)) atomic_store(&traced_since_finalize, 1);
    update_launch_tax();
    if (kind == CUPTI_ACTIVITY_KIND_DEVICE && !was_on) sim_device_emit_records();
    return CUPTI_SUCCESS;
}

/* CUPTI 13.0 GA could deadlock here when the kernel kind was disabled from an
 * API callback (fixed in 13.0 Update 1, forums post 341320). The double waits
 * a bounded time and aborts with a message instead of hanging a test forever. */
static void model_13_0_disable_deadlock(CUpti_ActivityKind kind) {
    if (kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || !sim_in_api_callback() || !sim_version_deadlocks_on_disable())
        return;
    fprintf(stderr, "cuptisim: cuptiActivityDisable(CONCURRENT_KERNEL) inside an API callback: modelling the "
                    "CUPTI 13.0 GA deadlock (fixed in 13.0 Update 1) for version %u; hanging %llu ms, then aborting\n",
            sim_cfg.version, (unsigned long long)sim_cfg.deadlock_ms);
    struct timespec ts = { .tv_sec = (time_t)(sim_cfg.deadlock_ms / 1000), .tv_nsec = (long)(sim_cfg.deadlock_ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0) {
    }
    fprintf(stderr, "cuptisim: deadlocked in cuptiActivityDisable (modelled CUPTI 13.0 GA bug); aborting\n");
    abort();
}

CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
    if (!producible(kind)) return CUPTI_ERROR_INVALID_KIND;
    model_13_0_disable_deadlock(kind);
    int was_on = atomic_exchange(&sim_kind_enabled[kind], 0);
    if (was_on && (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || kind == CUPTI_ACTIVITY_KIND_KERNEL))
        atomic_store(&sim_kernel_session_ended, 1);
    update_launch_tax();
    if (was_on) sim_buffers_kind_disabled(kind);
    return CUPTI_SUCCESS;
}

/* ---- the post-capture launch cost ---- */

static uint64_t spins_per_us; /* calibrated once, on the first taxed launch */
/* Counted so that a test can tell which launches paid, without timing them on a loaded machine. */
static _Atomic uint64_t launches_taxed;
static pthread_once_t calibrate_once = PTHREAD_ONCE_INIT;

static void spin(uint64_t n) {
    for (uint64_t i = 0; i < n; i++) __asm__ volatile("" ::: "memory");
}

/* On the thread's CPU clock, not the wall clock: a loaded machine (or an emulator) that takes the
 * thread off the CPU during calibration would otherwise make a microsecond of spinning come out
 * short, and the cost is meant as CPU work in the launch path. */
static void calibrate(void) {
    struct timespec a, b;
    uint64_t n = 2000000;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    spin(n);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    uint64_t ns = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)(b.tv_nsec - a.tv_nsec);
    spins_per_us = ns > 0 ? n * 1000u / ns : 1000u;
    if (spins_per_us == 0) spins_per_us = 1;
}

/* A fixed amount of work (not a clock wait), so a ratio of launch loops stays stable under load. */
void sim_launch_tax(void) {
    pthread_once(&calibrate_once, calibrate);
    spin(sim_cfg.post_capture_cost_ns * spins_per_us / 1000u + 1u);
    atomic_fetch_add_explicit(&launches_taxed, 1, memory_order_relaxed);
}

uint64_t sim_launches_taxed(void) {
    return atomic_load(&launches_taxed);
}

/* ---- attributes ---- */

static CUptiResult size_attr(size_t *valueSize, void *value, size_t *field, int set) {
    if (*valueSize < sizeof(size_t)) return CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT;
    if (set) memcpy(field, value, sizeof(size_t));
    else memcpy(value, field, sizeof(size_t));
    *valueSize = sizeof(size_t);
    return CUPTI_SUCCESS;
}

static CUptiResult byte_attr(size_t *valueSize, void *value, uint8_t *field, int set) {
    if (*valueSize < sizeof(uint8_t)) return CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT;
    if (set) memcpy(field, value, 1);
    else memcpy(value, field, 1);
    *valueSize = sizeof(uint8_t);
    return CUPTI_SUCCESS;
}

static CUptiResult attribute(CUpti_ActivityAttribute attr, size_t *valueSize, void *value, int set) {
    if (valueSize == NULL || value == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    CUptiResult r;
    pthread_mutex_lock(&attr_mu);
    switch (attr) {
    case CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE: r = size_attr(valueSize, value, &device_buffer_size, set); break;
    case CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE_CDP: r = size_attr(valueSize, value, &device_buffer_size_cdp, set); break;
    case CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT: r = size_attr(valueSize, value, &device_buffer_pool_limit, set); break;
    case CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE:
        r = size_attr(valueSize, value, &device_buffer_pre_allocate, set);
        break;
    case CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE_DEVICE_GRAPHS:
        r = size_attr(valueSize, value, &device_buffer_size_graphs, set);
        break;
    case CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER: r = byte_attr(valueSize, value, &zeroed_out_buffer, set); break;
    case CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED: r = byte_attr(valueSize, value, &host_pinned, set); break;
    case CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER: {
        /* Latched by cuptiActivityRegisterCallbacks: set it before registering (H13). */
        uint8_t v = (uint8_t)(per_thread_buffers < 0 ? sim_version_per_thread_buffers_default() : per_thread_buffers);
        r = byte_attr(valueSize, value, &v, set);
        if (set && r == CUPTI_SUCCESS) per_thread_buffers = v != 0;
        break;
    }
    case CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_POOL_SIZE:
    case CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_POOL_LIMIT:
    case CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_PRE_ALLOCATE_VALUE:
        r = CUPTI_ERROR_NOT_SUPPORTED; /* "not supported starting with CUDA 12.3" */
        break;
    default: r = CUPTI_ERROR_INVALID_PARAMETER;
    }
    pthread_mutex_unlock(&attr_mu);
    return r;
}

CUptiResult cuptiActivityGetAttribute(CUpti_ActivityAttribute attr, size_t *valueSize, void *value) {
    return attribute(attr, valueSize, value, 0);
}

CUptiResult cuptiActivitySetAttribute(CUpti_ActivityAttribute attr, size_t *valueSize, void *value) {
    return attribute(attr, valueSize, value, 1);
}

/* ---- the device-buffer model ----
 *
 * CUPTI keeps each GPU record's timestamps in device buffers of
 * DEVICE_BUFFER_SIZE bytes (about 32 bytes a record), at most POOL_LIMIT per
 * context. In parcagpu#23 (CUDA graphs, CUPTI 13.0.85) the buffers of graph
 * records never came back: GPU memory grew about 1 GiB, and once the pool was
 * spent every record's timestamps were invalid (the first one end < start,
 * the rest start = end = 0). VPROF_SIM_DEVICE_BUFFER_LEAK=graph (the default)
 * reproduces that; none recycles them.
 */
static _Atomic uint64_t leaked_records;
static _Atomic uint64_t timestamps_lost[2]; /* torn, dropped */
static _Atomic int pool_spent;

static uint64_t per_buffer(void) { return device_buffer_size / 32u ? device_buffer_size / 32u : 1u; } /* attr_mu */

int sim_device_buffer_take(int graph_node) {
    if (graph_node && sim_cfg.device_buffer_leak == SIM_LEAK_GRAPH) {
        pthread_mutex_lock(&attr_mu);
        uint64_t capacity = per_buffer() * device_buffer_pool_limit;
        pthread_mutex_unlock(&attr_mu);
        uint64_t n = atomic_fetch_add_explicit(&leaked_records, 1, memory_order_relaxed) + 1;
        if (n <= capacity) return SIM_TS_OK;
        atomic_store_explicit(&pool_spent, 1, memory_order_relaxed);
        int what = n == capacity + 1 ? SIM_TS_TORN : SIM_TS_DROPPED;
        atomic_fetch_add_explicit(&timestamps_lost[what - 1], 1, memory_order_relaxed);
        return what;
    }
    if (!atomic_load_explicit(&pool_spent, memory_order_relaxed)) return SIM_TS_OK;
    atomic_fetch_add_explicit(&timestamps_lost[SIM_TS_DROPPED - 1], 1, memory_order_relaxed);
    return SIM_TS_DROPPED;
}

uint64_t sim_device_timestamps_lost(int what) { return atomic_load(&timestamps_lost[what - 1]); }

/* Device memory CUPTI holds: the pre-allocated buffers once tracing started, more as graph
 * records pin them, never more than the pool limit. */
uint64_t sim_device_buffer_bytes(void) {
    if (!atomic_load(&traced_since_finalize) && atomic_load(&leaked_records) == 0) return 0;
    pthread_mutex_lock(&attr_mu);
    uint64_t pinned = (atomic_load(&leaked_records) + per_buffer() - 1) / per_buffer();
    uint64_t buffers = pinned > device_buffer_pre_allocate ? pinned : device_buffer_pre_allocate;
    if (buffers > device_buffer_pool_limit) buffers = device_buffer_pool_limit;
    uint64_t bytes = buffers * device_buffer_size;
    pthread_mutex_unlock(&attr_mu);
    return bytes;
}

static void device_buffers_free(void) {
    atomic_store(&leaked_records, 0);
    atomic_store(&pool_spent, 0);
}

/* ---- walking and drops ---- */

CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record) {
    if (buffer == NULL || record == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    size_t offset = 0;
    if (*record != NULL) {
        uint8_t *prev = (uint8_t *)*record;
        size_t size = sim_record_size((*record)->kind);
        if (prev < buffer || size == 0) return CUPTI_ERROR_INVALID_KIND;
        offset = (size_t)(prev - buffer) + ((size + 7u) & ~(size_t)7u);
    }
    if (offset + sizeof(CUpti_ActivityKind) > valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    CUpti_Activity *next = (CUpti_Activity *)(buffer + offset);
    size_t size = sim_record_size(next->kind);
    if (size == 0 || offset + size > valid) return CUPTI_ERROR_INVALID_KIND;
    *record = next;
    return CUPTI_SUCCESS;
}

/*
 * Drops are kept per (context, stream); records without a stream (markers,
 * API records) count under (NULL, 0). Reading resets what was read:
 *   (NULL, 0)   every drop in the process (all buffers are global since
 *               CUDA 6, so this is the total an agent wants),
 *   (ctx, 0)    every stream of the context,
 *   (ctx, s)    stream s only.
 */
CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext context, uint32_t stream_id, size_t *dropped) {
    if (dropped == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    if (context != NULL && context != sim_context()) return CUPTI_ERROR_INVALID_CONTEXT;
    uint64_t total = 0;
    if (stream_id == 0) {
        for (int i = 0; i < SIM_MAX_STREAMS; i++) total += atomic_exchange(&drops[i], 0);
        if (context == NULL) total += atomic_exchange(&drops[SIM_GLOBAL_DROP_SLOT], 0);
    } else {
        unsigned slot;
        if (stream_id == SIM_DEFAULT_STREAM_CUPTI_ID) slot = 0;
        else if (stream_id >= SIM_FIRST_STREAM_HANDLE && stream_id < SIM_FIRST_STREAM_HANDLE + SIM_MAX_STREAMS - 1)
            slot = stream_id - SIM_FIRST_STREAM_HANDLE + 1;
        else return CUPTI_ERROR_INVALID_STREAM;
        total = atomic_exchange(&drops[slot], 0);
    }
    *dropped = (size_t)total;
    return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityFlushAll(uint32_t flag) {
    if (!sim_buffers_registered()) return CUPTI_ERROR_INVALID_OPERATION;
    sim_buffers_flush((flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0, 0);
    return CUPTI_SUCCESS;
}
