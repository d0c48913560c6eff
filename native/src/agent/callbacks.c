/*
 * callbacks.c: what CUPTI calls into the agent.
 *
 *   buffer requested  application thread: a buffer from the pool
 *   buffer completed  CUPTI's worker thread, or inside a flush: convert, judge, publish
 *   API callbacks     application threads: profiler start/stop (range edges),
 *                     NVTX push/pop (range edges), stream capture begin/end
 *                     (always), and, while a range is open or draining, every
 *                     driver API call (ids and launch counts)
 *
 * LOCK RULES: buffer completed takes convert_lock and the pool spinlock, never
 * state_lock (a forced flush holding state_lock may wait for it). A range's
 * begin and end take convert_lock inside state_lock, without flushing. The edge
 * callbacks take state_lock and make no CUPTI call that flushes or disables.
 * The counting callback takes no lock.
 */
#include "agent/agent.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cupti_abi.h" /* with the NVTX parameter structs */

/* ---- buffers ------------------------------------------------------------------ */

void CUPTIAPI vprof_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* On the application thread: a pop, never a malloc unless a refusal could crash CUPTI. */
    struct vprof_agent *a = &vprof_agent;
    uint8_t *b = vprof_pool_take(&a->pool);
    *buffer = b;
    *size = b != NULL ? a->pool.size : 0u;
    *max_records = 0;
    if (b != NULL)
        __atomic_fetch_add(&a->window.counts.buffers, 1u, __ATOMIC_RELAXED);
}

/*
 * One buffer's records, judged against the range window as it stood when its
 * conversion began; its tallies (kept, arrived, dropped by the full ring,
 * rejected) are that range's, added once per buffer. The DROPS records of its
 * rejections are written by vprof_convert_end_buffer.
 */
static void convert_buffer(struct vprof_agent *a, uint8_t *buffer, size_t valid_size)
{
    struct vprof_window_snap w;
    uint64_t now = 0;
    a->cupti.GetTimestamp(&now);
    struct vprof_capture *c = &a->capture;
    struct vprof_range_counts *n = &a->window.counts;

    /*
     * Judged and added up under the lock: a range edge takes it too
     * (vprof_begin_range, vprof_finish_range), so a buffer is wholly the range
     * it was judged against, in the ring and in the counts its END writes.
     */
    pthread_mutex_lock(&a->convert_lock);
    vprof_window_read(&a->window, &w);
    vprof_convert_begin_buffer(c, &w, now, __atomic_load_n(&n->last_graph_corr, __ATOMIC_RELAXED));
    CUpti_Activity *record = NULL;
    while (a->cupti.ActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS)
        vprof_convert_activity(c, record);
    vprof_convert_end_buffer(c);
    __atomic_fetch_add(&n->kernels, c->kept_kernels, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->graph_kernels, c->kept_graph_kernels, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->records, c->kept_records, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->last_graph_seen, c->last_graph_seen, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->plain_kernels_arrived, c->arrived_plain_kernels, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->graph_kernels_arrived, c->arrived_graph_kernels, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->late, c->kept_late, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->ring_drops, c->ring_dropped, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n->ring_drops_kernels, c->ring_dropped_kernels, __ATOMIC_RELAXED);
    uint64_t invalid = 0;
    for (uint32_t k = 0; k < VPROF_TALLY_KINDS; k++) {
        for (uint32_t why = 1; why <= VPROF_DROPS_REASON_MAX; why++) {
            const uint64_t count = c->rejected[k][why];
            if (count == 0u)
                continue;
            __atomic_fetch_add(&n->rejected[why], count, __ATOMIC_RELAXED);
            if (why != VPROF_DROPS_CLIPPED)
                invalid += count;
        }
    }
    __atomic_fetch_add(&n->arrived_rejected, invalid, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&a->convert_lock);
}

void CUPTIAPI vprof_buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer, size_t size,
                                     size_t valid_size)
{
    (void)size;
    struct vprof_agent *a = &vprof_agent;
    if (!a->ready) { /* a forked child's inherited CUPTI completing a parent's buffer */
        vprof_pool_give(&a->pool, buffer);
        return;
    }
    if (valid_size > 0u && a->capture.intern.strings != NULL)
        convert_buffer(a, buffer, valid_size);
    size_t dropped = 0;
    if (a->cupti.ActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS &&
        dropped != 0u) {
        __atomic_fetch_add(&a->control->cupti_drops, (uint64_t)dropped, __ATOMIC_RELAXED);
        vprof_write_drops(&a->ring, VPROF_DROPS_CUPTI, 0, stream_id, dropped);
    }
    vprof_pool_give(&a->pool, buffer);
    /* The pool's tallies, for the front end (cold: once per buffer). */
    __atomic_store_n(&a->control->pool_emergency_buffers, __atomic_load_n(&a->pool.emergency, __ATOMIC_RELAXED),
                     __ATOMIC_RELAXED);
    __atomic_store_n(&a->control->pool_refusals, __atomic_load_n(&a->pool.refusals, __ATOMIC_RELAXED),
                     __ATOMIC_RELAXED);
}

/* ---- range edges: cudaProfilerStart/Stop ------------------------------------------ */

static void profiler_edge(struct vprof_agent *a, int start, uint32_t corr)
{
    if (__atomic_load_n(&a->hot_mode, __ATOMIC_ACQUIRE) != VPROF_RANGE_PROFILER)
        return;
    /* cudaProfilerStart fires runtime 171 and driver 308: the state makes the second a no-op. */
    pthread_mutex_lock(&a->state_lock);
    if (a->armed && a->arm.mode == VPROF_RANGE_PROFILER) {
        if (start)
            vprof_begin_range(a, VPROF_SOURCE_PROFILER, corr);
        else
            vprof_stamp_end(a, VPROF_SOURCE_PROFILER, corr); /* the control thread drains and closes */
    }
    pthread_mutex_unlock(&a->state_lock);
}

/* ---- launches: counted while a range is open or draining --------------------------- */

/* 1 for a kernel launch, 2 for a graph launch, 0 for any other driver call. */
static int launch_kind(CUpti_CallbackId cbid)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
        return 2;
    default:
        return 0;
    }
}

/* 1 for a call that begins a stream capture, -1 for one that ends it, 0 for any other. */
static int capture_edge(CUpti_CallbackId cbid)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
        return -1;
    default:
        return 0;
    }
}

/*
 * A launch into a capturing stream returns success but runs nothing: it becomes a node
 * of the graph, whose replays deliver its records. Counted, it would be a launch whose
 * record never comes (a false records_missing, a drain waiting its whole window). Which
 * streams capture is not in the launch's callback, so while any capture is in progress
 * in the process no launch is counted: an eager launch on another stream meanwhile is
 * then not waited for by the drain (rare; captures run at start-up).
 */
static void track_capture(struct vprof_agent *a, int edge, const CUpti_CallbackData *cd)
{
    if (cd->callbackSite != CUPTI_API_EXIT)
        return;
    const int result = cd->functionReturnValue != NULL ? *(const int *)cd->functionReturnValue : 0;
    if (edge > 0) {
        if (result == 0)
            __atomic_fetch_add(&a->captures, 1, __ATOMIC_RELEASE);
        return;
    }
    /* Ended: successfully, or invalidated or unjoined (the capture is over either way). */
    if (result != 0 && result != 901 /* CUDA_ERROR_STREAM_CAPTURE_INVALIDATED */ &&
        result != 904 /* CUDA_ERROR_STREAM_CAPTURE_UNJOINED */)
        return;
    int n = __atomic_load_n(&a->captures, __ATOMIC_ACQUIRE);
    while (n > 0 && !__atomic_compare_exchange_n(&a->captures, &n, n - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ; /* never below 0: a capture begun while CUPTI was finalized was not counted */
}

static void count_call(struct vprof_agent *a, CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
    struct vprof_range_counts *n = &a->window.counts;
    const uint32_t corr = cd->correlationId;
    if (cd->callbackSite == CUPTI_API_ENTER) {
        vprof_atomic_max32(&n->max_corr, corr);
        return;
    }
    const int kind = launch_kind(cbid);
    if (kind == 0)
        return;
    if (cd->functionReturnValue != NULL && *(const int *)cd->functionReturnValue != 0)
        return; /* a failed launch runs nothing */
    if (__atomic_load_n(&a->captures, __ATOMIC_ACQUIRE) > 0)
        return; /* most likely into the capturing stream: a node, not work (track_capture) */
    /* A relaxed look at the window: a launch racing an edge is decided by its id either way. */
    const struct vprof_window_snap *w = &a->window.snap;
    const uint32_t state = __atomic_load_n(&w->state, __ATOMIC_RELAXED);
    const uint32_t begin = __atomic_load_n(&w->begin_corr, __ATOMIC_RELAXED);
    const uint32_t end = __atomic_load_n(&w->end_corr, __ATOMIC_RELAXED);
    if (state == VPROF_WINDOW_NONE || (begin != 0u && corr <= begin) || (end != 0u && corr >= end))
        return;
    if (kind == 1) {
        __atomic_fetch_add(&n->kernel_launches, 1u, __ATOMIC_RELAXED);
    } else {
        __atomic_fetch_add(&n->graph_launches, 1u, __ATOMIC_RELAXED);
        vprof_atomic_max32(&n->last_graph_corr, corr);
    }
}

/* ---- NVTX ------------------------------------------------------------------------ */

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
            (__atomic_load_n(&a->hot_range_open, __ATOMIC_ACQUIRE) &&
             !__atomic_load_n(&a->hot_stopping, __ATOMIC_ACQUIRE)) || message == NULL)
            return;
        pthread_mutex_lock(&a->state_lock);
        if (a->armed && a->arm.mode == VPROF_RANGE_NVTX && (!a->range_open || a->stopping) &&
            strcmp(message, a->arm.name) == 0 && domain_matches(a, domain)) {
            vprof_begin_range(a, VPROF_SOURCE_NVTX, 0);
            a->nvtx_range_tid = gettid();
            a->nvtx_range_domain = domain;
            a->nvtx_range_depth = before;
        }
        pthread_mutex_unlock(&a->state_lock);
    } else if (pop) {
        if (*depth > 0u)
            (*depth)--;
        if (!__atomic_load_n(&a->hot_range_open, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&a->hot_stopping, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&a->hot_mode, __ATOMIC_ACQUIRE) != VPROF_RANGE_NVTX)
            return;
        pthread_mutex_lock(&a->state_lock);
        if (a->range_open && !a->stopping && a->arm.mode == VPROF_RANGE_NVTX && a->nvtx_range_domain == domain &&
            a->nvtx_range_depth == *depth && a->nvtx_range_tid == gettid())
            vprof_stamp_end(a, VPROF_SOURCE_NVTX, 0);
        pthread_mutex_unlock(&a->state_lock);
    }
}

void CUPTIAPI vprof_on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
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
        const int capture = capture_edge(cbid);
        if (capture != 0)
            track_capture(a, capture, cd);
        if (__atomic_load_n(&a->hot_counting, __ATOMIC_ACQUIRE))
            count_call(a, cbid, cd);
        else if (cd->callbackSite == CUPTI_API_EXIT && __atomic_load_n(&a->finalize_pending, __ATOMIC_ACQUIRE))
            vprof_finalize_if_pending(a); /* the capture is over: detach from the launch's exit (R7) */
    }
    /* Start once the call is done, stop as it begins: the range holds exactly the work between. */
    if (start && cd->callbackSite == CUPTI_API_EXIT)
        profiler_edge(a, 1, cd->correlationId);
    else if (stop && cd->callbackSite == CUPTI_API_ENTER)
        profiler_edge(a, 0, cd->correlationId);
}
