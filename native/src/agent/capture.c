/*
 * capture.c: the agent's state machine and its CUPTI callbacks.
 *
 *   DORMANT --ARM--> ARMED --range begins--> CAPTURING --range ends--> ARMED
 *                      ^                                                 |
 *                      +------------- repeat not reached ----------------+
 *   DISARM, heartbeat loss, repeat reached: back to DORMANT. Any CUPTI
 *   failure: FAILED, for good, with CUPTI's own error string.
 *
 * A range begins at ARM (mode none), on cudaProfilerStart/cuProfilerStart
 * (mode profiler), or on the push of the named NVTX range (mode nvtx); it
 * ends on DISARM, the matching stop or pop, heartbeat loss, or exit.
 */
#include "agent/agent.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <generated_nvtx_meta.h>

#define STATE_OF(a) __atomic_load_n(&(a)->control->state, __ATOMIC_ACQUIRE)

void vprof_set_state(struct vprof_agent *a, uint32_t state)
{
    __atomic_store_n(&a->control->state, state, __ATOMIC_RELEASE);
}

void vprof_warn(struct vprof_agent *a, const char *reason)
{
    snprintf(a->control->reason, sizeof a->control->reason, "%s", reason);
}

static void set_hot(struct vprof_agent *a)
{
    __atomic_store_n(&a->hot_mode, a->armed ? (int)a->arm.mode : -1, __ATOMIC_RELEASE);
    __atomic_store_n(&a->hot_range_open, a->range_open, __ATOMIC_RELEASE);
}

static void disable_all_kinds(struct vprof_agent *a);

void vprof_fail(struct vprof_agent *a, const char *reason)
{
    if (a->cupti_state == 1) {
        disable_all_kinds(a);
        /* Leave CUPTI free for another tool rather than holding a broken subscription. */
        a->cupti.Unsubscribe(a->subscriber);
    }
    a->cupti_state = -1;
    a->armed = 0;
    a->range_open = 0;
    set_hot(a);
    vprof_warn(a, reason);
    vprof_set_state(a, VPROF_STATE_FAILED);
}

/* ---- records the state machine writes ------------------------------------- */

void vprof_write_clock_sync(struct vprof_agent *a)
{
    struct vprof_rec_clock_sync r;
    memset(&r, 0, sizeof r);
    uint64_t cupti_ns = 0;
    if (a->cupti_state == 1)
        a->cupti.GetTimestamp(&cupti_ns);
    r.cupti_ns = cupti_ns;
    r.realtime_ns = vprof_now_ns(CLOCK_REALTIME);
    r.monotonic_ns = vprof_now_ns(CLOCK_MONOTONIC);
    vprof_ring_write(&a->ring, VPROF_REC_CLOCK_SYNC, &r, sizeof r, VPROF_RING_CONTROL);
}

static void write_range(struct vprof_agent *a, uint32_t edge, uint32_t source)
{
    struct vprof_control *c = a->control;
    struct vprof_rec_range r;
    memset(&r, 0, sizeof r);
    r.edge = edge;
    r.source = source;
    r.index = a->range_index;
    r.capture_id = a->arm.capture_id;
    uint64_t cupti_ns = 0;
    if (a->cupti_state == 1)
        a->cupti.GetTimestamp(&cupti_ns);
    r.cupti_ns = cupti_ns;
    r.realtime_ns = vprof_now_ns(CLOCK_REALTIME);
    if (edge == VPROF_RANGE_END) {
        r.ring_drops = __atomic_load_n(&c->ring_drops, __ATOMIC_RELAXED) - a->range_ring_drops0;
        r.ring_drops_kernels =
            __atomic_load_n(&c->ring_drops_kernels, __ATOMIC_RELAXED) - a->range_ring_drops_kernels0;
        r.cupti_drops = __atomic_load_n(&c->cupti_drops, __ATOMIC_RELAXED) - a->range_cupti_drops0;
    }
    vprof_ring_write(&a->ring, VPROF_REC_RANGE, &r, sizeof r, VPROF_RING_CONTROL);
}

/* ---- activity kinds -------------------------------------------------------- */

static const struct { uint32_t vprof; CUpti_ActivityKind cupti; } KINDS[] = {
    { VPROF_KIND_KERNEL, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL },
    { VPROF_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY },
    { VPROF_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMSET },
    { VPROF_KIND_NVTX, CUPTI_ACTIVITY_KIND_MARKER },
    { VPROF_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_RUNTIME },
    { VPROF_KIND_DRIVER, CUPTI_ACTIVITY_KIND_DRIVER },
};
#define N_KINDS (sizeof KINDS / sizeof KINDS[0])

static void disable_all_kinds(struct vprof_agent *a)
{
    for (size_t i = 0; i < N_KINDS; i++)
        if (a->enabled_kinds & KINDS[i].vprof)
            a->cupti.ActivityDisable(KINDS[i].cupti);
    a->enabled_kinds = 0;
}

static int enable_kinds(struct vprof_agent *a, uint32_t kinds)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        if (!(kinds & KINDS[i].vprof))
            continue;
        CUptiResult r = a->cupti.ActivityEnable(KINDS[i].cupti);
        if (r != CUPTI_SUCCESS) {
            char why[VPROF_REASON_MAX];
            char call[64];
            snprintf(call, sizeof call, "cuptiActivityEnable(kind %d)", (int)KINDS[i].cupti);
            vprof_cupti_describe(&a->cupti, call, r, why, sizeof why);
            vprof_fail(a, why);
            return -1;
        }
        a->enabled_kinds |= KINDS[i].vprof;
    }
    return 0;
}

/* ---- ranges ----------------------------------------------------------------- */

static void begin_range(struct vprof_agent *a, uint32_t source)
{
    if (a->range_open || !a->armed)
        return;
    struct vprof_control *c = a->control;
    a->range_ring_drops0 = __atomic_load_n(&c->ring_drops, __ATOMIC_RELAXED);
    a->range_ring_drops_kernels0 = __atomic_load_n(&c->ring_drops_kernels, __ATOMIC_RELAXED);
    a->range_cupti_drops0 = __atomic_load_n(&c->cupti_drops, __ATOMIC_RELAXED);
    a->range_index++;
    __atomic_fetch_add(&c->ranges, 1u, __ATOMIC_RELAXED);
    vprof_write_clock_sync(a);
    write_range(a, VPROF_RANGE_BEGIN, source);
    if (enable_kinds(a, a->arm.kinds) != 0)
        return;
    a->range_open = 1;
    a->last_clock_sync_ns = vprof_now_ns(CLOCK_MONOTONIC);
    set_hot(a);
    vprof_set_state(a, VPROF_STATE_CAPTURING);
}

static void enable_nvtx_callbacks(struct vprof_agent *a, int on)
{
    if (a->nvtx_domain_enabled == on || a->cupti_state != 1)
        return;
    CUptiResult r = a->cupti.EnableDomain((uint32_t)on, a->subscriber, CUPTI_CB_DOMAIN_NVTX);
    if (r != CUPTI_SUCCESS) {
        char why[VPROF_REASON_MAX];
        vprof_cupti_describe(&a->cupti, "cuptiEnableDomain(NVTX)", r, why, sizeof why);
        vprof_fail(a, why);
        return;
    }
    a->nvtx_domain_enabled = on;
    if (!on) /* keep learning domain names while dormant (see vprof_cupti_start) */
        a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_NVTX,
                                CUPTI_CBID_NVTX_nvtxDomainCreateA);
}

static void to_dormant(struct vprof_agent *a)
{
    enable_nvtx_callbacks(a, 0);
    a->armed = 0;
    a->holder_pid = 0;
    set_hot(a);
    if (a->cupti_state != -1)
        vprof_set_state(a, VPROF_STATE_DORMANT);
}

void vprof_end_range(struct vprof_agent *a, uint32_t source)
{
    if (!a->range_open)
        return;
    vprof_set_state(a, VPROF_STATE_STOPPING);
    /*
     * Disable first, so nothing launched after the end lands in this range,
     * then flush what CUPTI already holds.
     * LOCK RULE: state_lock is held across this flush; buffer_completed,
     * which the flush may run on this thread or wait for on CUPTI's worker,
     * takes only convert_lock and the pool spinlock, never state_lock.
     */
    disable_all_kinds(a);
    a->cupti.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    vprof_write_clock_sync(a);
    write_range(a, VPROF_RANGE_END, source);
    a->range_open = 0;
    set_hot(a);
    if (a->cupti_state == -1)
        return;
    if (a->arm.repeat != 0u && a->range_index >= a->arm.repeat)
        to_dormant(a);
    else
        vprof_set_state(a, VPROF_STATE_ARMED);
}

void vprof_disarm(struct vprof_agent *a, uint32_t source)
{
    if (!a->armed)
        return;
    vprof_end_range(a, source);
    if (a->armed)
        to_dormant(a);
}

/* ---- CUPTI callbacks ---------------------------------------------------------- */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* On the application thread: a pop, never a malloc. No buffer = CUPTI drops and counts. */
    struct vprof_agent *a = &vprof_agent;
    uint8_t *b = vprof_pool_take(&a->pool);
    *buffer = b;
    *size = b != NULL ? a->pool.size : 0u;
    *max_records = 0;
}

static void write_drops(struct vprof_agent *a, uint32_t reason, uint32_t stream_id, uint64_t count)
{
    struct vprof_rec_drops r;
    memset(&r, 0, sizeof r);
    r.reason = reason;
    r.stream_id = stream_id;
    r.count = count;
    vprof_ring_write(&a->ring, VPROF_REC_DROPS, &r, sizeof r, VPROF_RING_CONTROL);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer,
                                      size_t size, size_t valid_size)
{
    (void)size;
    struct vprof_agent *a = &vprof_agent;
    if (!a->ready) { /* a forked child's inherited CUPTI completing a parent's buffer */
        vprof_pool_give(&a->pool, buffer);
        return;
    }
    uint64_t zero_ts = 0;
    if (valid_size > 0u && a->capture.intern.strings != NULL) {
        pthread_mutex_lock(&a->convert_lock);
        CUpti_Activity *record = NULL;
        while (a->cupti.ActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS)
            vprof_convert_activity(&a->capture, record);
        zero_ts = a->capture.zero_ts_kernels;
        a->capture.zero_ts_kernels = 0;
        pthread_mutex_unlock(&a->convert_lock);
    }
    if (zero_ts != 0u)
        write_drops(a, VPROF_DROPS_ZERO_TS, stream_id, zero_ts);
    size_t dropped = 0;
    if (a->cupti.ActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS &&
        dropped != 0u) {
        __atomic_fetch_add(&a->control->cupti_drops, (uint64_t)dropped, __ATOMIC_RELAXED);
        write_drops(a, VPROF_DROPS_CUPTI, stream_id, dropped);
    }
    vprof_pool_give(&a->pool, buffer);
}

static void profiler_edge(struct vprof_agent *a, int start)
{
    if (__atomic_load_n(&a->hot_mode, __ATOMIC_ACQUIRE) != VPROF_RANGE_PROFILER)
        return;
    /* cudaProfilerStart fires runtime 171 and driver 308: the state makes the second a no-op. */
    pthread_mutex_lock(&a->state_lock);
    if (a->armed && a->arm.mode == VPROF_RANGE_PROFILER) {
        if (start)
            begin_range(a, VPROF_SOURCE_PROFILER);
        else
            vprof_end_range(a, VPROF_SOURCE_PROFILER);
    }
    pthread_mutex_unlock(&a->state_lock);
}

/* Per-thread NVTX nesting depth per domain, for "the pop that matches the push". */
#define NVTX_TRACKED_DOMAINS 8
static __thread struct { const void *domain; uint32_t depth; } nvtx_depth[NVTX_TRACKED_DOMAINS];

static uint32_t *depth_of(const void *domain)
{
    for (int i = 0; i < NVTX_TRACKED_DOMAINS; i++)
        if (nvtx_depth[i].domain == domain && (domain != NULL || i == 0))
            return &nvtx_depth[i].depth;
    if (domain == NULL)
        return &nvtx_depth[0].depth; /* slot 0 is the default domain */
    for (int i = 1; i < NVTX_TRACKED_DOMAINS; i++) {
        if (nvtx_depth[i].domain == NULL) {
            nvtx_depth[i].domain = domain;
            return &nvtx_depth[i].depth;
        }
    }
    return NULL; /* too many domains on one thread: not tracked */
}

static void domains_lock(struct vprof_agent *a)
{
    while (__atomic_exchange_n(&a->domains_lock, 1, __ATOMIC_ACQUIRE) != 0)
        ;
}

static void domains_unlock(struct vprof_agent *a)
{
    __atomic_store_n(&a->domains_lock, 0, __ATOMIC_RELEASE);
}

static int domain_matches(struct vprof_agent *a, const void *domain)
{
    if (a->arm.domain[0] == '\0')
        return 1;
    if (domain == NULL)
        return 0;
    int match = 0;
    domains_lock(a);
    for (uint32_t i = 0; i < a->n_domains; i++)
        if (a->domains[i].handle == domain)
            match = strcmp(a->domains[i].name, a->arm.domain) == 0;
    domains_unlock(a);
    return match;
}

static const char *push_message(const nvtxEventAttributes_t *attr)
{
    if (attr == NULL || attr->messageType != NVTX_MESSAGE_TYPE_ASCII)
        return NULL; /* registered and wide strings cannot name the capture range */
    return attr->message.ascii;
}

static void nvtx_callback(struct vprof_agent *a, CUpti_CallbackId cbid, const CUpti_NvtxData *d)
{
    const void *domain = NULL;
    const char *message = NULL;
    int push = 0, pop = 0;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
        const nvtxDomainCreateA_params *p = d->functionParams;
        const nvtxDomainHandle_t *h = d->functionReturnValue;
        if (p == NULL || p->name == NULL || h == NULL || *h == NULL)
            return;
        domains_lock(a);
        if (a->n_domains < VPROF_MAX_NVTX_DOMAINS) {
            a->domains[a->n_domains].handle = *h;
            snprintf(a->domains[a->n_domains].name, VPROF_NAME_MAX, "%s", p->name);
            a->n_domains++;
        }
        domains_unlock(a);
        return;
    }
    case CUPTI_CBID_NVTX_nvtxRangePushA:
        push = 1;
        message = ((const nvtxRangePushA_params *)d->functionParams)->message;
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
        push = 1;
        message = push_message(((const nvtxRangePushEx_params *)d->functionParams)->eventAttrib);
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
        const nvtxDomainRangePushEx_params *p = d->functionParams;
        push = 1;
        domain = p->domain;
        message = push_message(p->core.eventAttrib);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePop:
        pop = 1;
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        pop = 1;
        domain = ((const nvtxDomainRangePop_params *)d->functionParams)->domain;
        break;
    default:
        return;
    }
    uint32_t *depth = depth_of(domain);
    if (depth == NULL)
        return;
    if (push) {
        const uint32_t before = (*depth)++;
        if (__atomic_load_n(&a->hot_mode, __ATOMIC_ACQUIRE) != VPROF_RANGE_NVTX ||
            __atomic_load_n(&a->hot_range_open, __ATOMIC_ACQUIRE) || message == NULL)
            return;
        pthread_mutex_lock(&a->state_lock);
        if (a->armed && a->arm.mode == VPROF_RANGE_NVTX && !a->range_open &&
            strcmp(message, a->arm.name) == 0 && domain_matches(a, domain)) {
            begin_range(a, VPROF_SOURCE_NVTX);
            a->nvtx_range_tid = gettid();
            a->nvtx_range_domain = domain;
            a->nvtx_range_depth = before;
        }
        pthread_mutex_unlock(&a->state_lock);
    } else if (pop) {
        if (*depth > 0u)
            (*depth)--;
        if (!__atomic_load_n(&a->hot_range_open, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&a->hot_mode, __ATOMIC_ACQUIRE) != VPROF_RANGE_NVTX)
            return;
        pthread_mutex_lock(&a->state_lock);
        if (a->range_open && a->arm.mode == VPROF_RANGE_NVTX && a->nvtx_range_domain == domain &&
            a->nvtx_range_depth == *depth && a->nvtx_range_tid == gettid())
            vprof_end_range(a, VPROF_SOURCE_NVTX);
        pthread_mutex_unlock(&a->state_lock);
    }
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)userdata;
    struct vprof_agent *a = &vprof_agent;
    if (!a->ready || data == NULL)
        return;
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        nvtx_callback(a, cbid, data);
        return;
    }
    const CUpti_CallbackData *cd = data;
    int start = 0, stop = 0;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        start = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000;
        stop = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000;
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        start = cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
        stop = cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
    }
    /* Start once the call is done, stop as it begins: the range holds exactly the work between. */
    if (start && cd->callbackSite == CUPTI_API_EXIT)
        profiler_edge(a, 1);
    else if (stop && cd->callbackSite == CUPTI_API_ENTER)
        profiler_edge(a, 0);
}

/* ---- starting CUPTI and arming ---------------------------------------------------- */

static int check(struct vprof_agent *a, const char *call, CUptiResult r)
{
    if (r == CUPTI_SUCCESS)
        return 0;
    char why[VPROF_REASON_MAX];
    vprof_cupti_describe(&a->cupti, call, r, why, sizeof why);
    vprof_fail(a, why);
    return -1;
}

int vprof_cupti_start(struct vprof_agent *a)
{
    if (a->cupti_state != 0)
        return a->cupti_state == 1 ? 0 : -1;
    char why[VPROF_REASON_MAX] = "";
    if (vprof_cupti_load(&a->cupti, why, sizeof why) != 0) {
        vprof_fail(a, why);
        return -1;
    }
    struct vprof_control *c = a->control;
    c->cupti_version = a->cupti.version;
    __atomic_fetch_or(&c->agent_flags, VPROF_AGENT_CUPTI_LOADED, __ATOMIC_RELEASE);
    if (a->cupti.version != 0u && a->cupti.version < VPROF_CUPTI_MIN_VERSION) {
        snprintf(why, sizeof why,
                 "%.80s is CUPTI API version %u, older than CUDA 12.0 (version %u); its kernel "
                 "records are not supported: use a newer libcupti via VPROF_CUPTI_LIB",
                 a->cupti.path, a->cupti.version, VPROF_CUPTI_MIN_VERSION);
        vprof_fail(a, why);
        return -1;
    }
    /* NVTX reaches CUPTI only if NVTX_INJECTION64_PATH names it before NVTX initializes. */
    if (a->cupti.version == VPROF_CUPTI_NVTX_BROKEN_VERSION) {
        a->nvtx_injection_refused = 1;
        vprof_warn(a, "NVTX not captured: CUPTI 13.0.0 crashes as the NVTX injection library "
                      "(NVIDIA/NVTX#125); use the CUPTI of CUDA 13.0 Update 1 or later");
    } else if (getenv("NVTX_INJECTION64_PATH") == NULL) {
        setenv("NVTX_INJECTION64_PATH", a->cupti.path, 0);
    }
    if (check(a, "cuptiSubscribe", a->cupti.Subscribe(&a->subscriber, on_callback, NULL)) != 0)
        return -1;
    a->cupti_state = 1; /* subscribed: vprof_fail unsubscribes from here on */
    if (check(a, "cuptiSetThreadIdType",
              a->cupti.SetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)) != 0 ||
        check(a, "cuptiActivityRegisterCallbacks",
              a->cupti.ActivityRegisterCallbacks(buffer_requested, buffer_completed)) != 0 ||
        check(a, "cuptiEnableCallback(cudaProfilerStart)",
              a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                      CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000)) != 0 ||
        check(a, "cuptiEnableCallback(cudaProfilerStop)",
              a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                      CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000)) != 0 ||
        check(a, "cuptiEnableCallback(cuProfilerStart)",
              a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                                      CUPTI_DRIVER_TRACE_CBID_cuProfilerStart)) != 0 ||
        check(a, "cuptiEnableCallback(cuProfilerStop)",
              a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                                      CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)) != 0)
        return -1;
    /*
     * One NVTX callback while dormant: domain creation, which happens once per
     * domain at start-up, so that a later nvtx:NAME@DOMAIN capture can tell
     * domains apart. Launches pay nothing for it. Not fatal if refused.
     */
    if (!a->nvtx_injection_refused)
        a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_NVTX,
                                CUPTI_CBID_NVTX_nvtxDomainCreateA);
    if (!a->launch_injected && !a->injection_called) {
        char late[VPROF_REASON_MAX];
        snprintf(late, sizeof late,
                 "agent loaded into a running process: CUDA work and NVTX ranges before "
                 "CUPTI attached at %.3f s after agent start were not seen",
                 (double)(vprof_now_ns(CLOCK_REALTIME) - c->start_realtime_ns) / 1e9);
        vprof_warn(a, late);
    }
    return 0;
}

static int alive(int32_t pid)
{
    return pid > 0 && kill(pid, 0) == 0;
}

uint32_t vprof_arm(struct vprof_agent *a, const struct vprof_arming *req, char *why, size_t why_size)
{
    if (STATE_OF(a) == VPROF_STATE_FAILED) {
        snprintf(why, why_size, "%s", a->control->reason);
        return VPROF_RESULT_FAILED;
    }
    if (req->mode > VPROF_RANGE_NVTX ||
        (req->mode == VPROF_RANGE_NVTX && req->name[0] == '\0')) {
        snprintf(why, why_size, "ARM: range mode %u%s is not valid", req->mode,
                 req->mode == VPROF_RANGE_NVTX ? " without a range name" : "");
        return VPROF_RESULT_BAD_COMMAND;
    }
    if (req->mode == VPROF_RANGE_NVTX && a->nvtx_injection_refused) {
        snprintf(why, why_size, "ARM: nvtx capture ranges need NVTX through CUPTI, refused for "
                                "CUPTI 13.0.0 (NVIDIA/NVTX#125); use cudaProfilerApi or none");
        return VPROF_RESULT_BAD_COMMAND;
    }
    if (a->armed) {
        if (a->holder_pid != 0 && a->holder_pid != req->frontend_pid && alive(a->holder_pid)) {
            snprintf(why, why_size, "front end pid %d already holds this agent", (int)a->holder_pid);
            return VPROF_RESULT_BUSY;
        }
        vprof_disarm(a, VPROF_SOURCE_COMMAND);
    }
    if (vprof_cupti_start(a) != 0) {
        snprintf(why, why_size, "%s", a->control->reason);
        return VPROF_RESULT_FAILED;
    }
    if (vprof_pool_prepare(&a->pool, req->buffer_size) != 0) {
        snprintf(why, why_size, "out of memory for %u CUPTI buffers of %zu bytes",
                 VPROF_POOL_BUFFERS, vprof_pool_clamp_size(req->buffer_size));
        return VPROF_RESULT_FAILED;
    }
    pthread_mutex_lock(&a->convert_lock);
    int tables = vprof_intern_alloc(&a->capture.intern);
    if (tables == 0)
        vprof_intern_reset(&a->capture.intern); /* ids restart at 1 at every ARM, only here */
    pthread_mutex_unlock(&a->convert_lock);
    if (tables != 0) {
        snprintf(why, why_size, "out of memory for the name tables");
        return VPROF_RESULT_FAILED;
    }
    a->arm = *req;
    if (a->arm.kinds == 0u)
        a->arm.kinds = VPROF_KINDS_DEFAULT;
    if (a->nvtx_injection_refused)
        a->arm.kinds &= ~(uint32_t)VPROF_KIND_NVTX;
    a->armed = 1;
    a->holder_pid = req->frontend_pid;
    __atomic_store_n(&a->control->frontend_pid, req->frontend_pid, __ATOMIC_RELEASE);
    a->range_index = 0;
    /* The front end gets a full timeout to start its heartbeat. */
    __atomic_store_n(&a->control->heartbeat_ns, vprof_now_ns(CLOCK_MONOTONIC), __ATOMIC_RELEASE);
    if (req->mode == VPROF_RANGE_NVTX) {
        enable_nvtx_callbacks(a, 1);
        if (a->cupti_state != 1) {
            snprintf(why, why_size, "%s", a->control->reason);
            return VPROF_RESULT_FAILED;
        }
    }
    set_hot(a);
    vprof_set_state(a, VPROF_STATE_ARMED);
    if (req->mode == VPROF_RANGE_NONE)
        begin_range(a, VPROF_SOURCE_COMMAND);
    if (a->cupti_state != 1) {
        snprintf(why, why_size, "%s", a->control->reason);
        return VPROF_RESULT_FAILED;
    }
    return VPROF_RESULT_OK;
}
