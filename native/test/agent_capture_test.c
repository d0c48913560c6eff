/*
 * agent_capture_test.c: the agent's state machine (capture.c, callbacks.c,
 * drain.c) against a scripted fake CUPTI, one scenario per forked child.
 *
 * The fake keeps what CUPTI would: the subscriber's callback, the registered
 * buffer callbacks (which another client may replace), the enabled kinds, and
 * activity records that are complete or still running on the "GPU". A flush
 * without FORCED hands over complete records only; a forced flush hands over
 * the rest with zero timestamps, as CUPTI documents. The test plays the
 * application (profiler and launch callbacks, on its own thread) and the
 * agent's control thread (drain ticks). Each test names the handling it would
 * catch being removed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"
#include "test.h"
#include "agent_ring_fill.h"

/* ---- the fake CUPTI -------------------------------------------------------- */

#define MAX_RECORDS 256
#define REC_BYTES 256

struct pending {
    uint8_t bytes[REC_BYTES];
    size_t size;
    int complete;
    int delivered;
};

static struct {
    CUpti_CallbackFunc callback;
    CUpti_BuffersCallbackRequestFunc requested;
    CUpti_BuffersCallbackCompleteFunc completed;
    int registrations;
    int per_thread_off_before_register; /* SetAttribute(PER_THREAD, 0) seen since the last registration */
    int registrations_after_per_thread_off;
    int kind_on[CUPTI_ACTIVITY_KIND_COUNT];
    int kernel_disables;
    int driver_domain;
    int in_app;                         /* the test is inside an application callback */
    int disabled_in_app, forced_in_app;
    int64_t clock_offset;               /* added to CLOCK_REALTIME by GetTimestamp */
    size_t device_buffer_size, device_buffer_pool_limit; /* as set, 0 if never */
    int refuse_device_buffers;
    struct pending rec[MAX_RECORDS];
    int n;
    void (*after_first_record)(void);   /* runs once, while a buffer's conversion is under way */
} F;

static struct CUpti_Subscriber_st { int unused; } the_subscriber;

static uint64_t realtime(void) { return vprof_now_ns(CLOCK_REALTIME); }

static CUptiResult f_get_version(uint32_t *v) { *v = vprof_agent.cupti.version; return CUPTI_SUCCESS; }
static CUptiResult f_result_string(CUptiResult r, const char **s) { (void)r; *s = "CUPTI_ERROR_FAKE"; return CUPTI_SUCCESS; }
static CUptiResult f_subscribe(CUpti_SubscriberHandle *h, CUpti_CallbackFunc cb, void *u)
{
    (void)u;
    F.callback = cb;
    *h = &the_subscriber;
    return CUPTI_SUCCESS;
}
static CUptiResult f_unsubscribe(CUpti_SubscriberHandle h) { (void)h; F.callback = NULL; return CUPTI_SUCCESS; }
static CUptiResult f_enable_callback(uint32_t on, CUpti_SubscriberHandle h, CUpti_CallbackDomain d, CUpti_CallbackId id)
{
    (void)on; (void)h; (void)d; (void)id;
    return CUPTI_SUCCESS;
}
static CUptiResult f_enable_domain(uint32_t on, CUpti_SubscriberHandle h, CUpti_CallbackDomain d)
{
    (void)h;
    if (d == CUPTI_CB_DOMAIN_DRIVER_API)
        F.driver_domain = (int)on;
    return CUPTI_SUCCESS;
}
static CUptiResult f_register(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done)
{
    F.requested = req;
    F.completed = done;
    F.registrations++;
    if (F.per_thread_off_before_register)
        F.registrations_after_per_thread_off++;
    F.per_thread_off_before_register = 0;
    return CUPTI_SUCCESS;
}
static CUptiResult f_enable(CUpti_ActivityKind k) { F.kind_on[k] = 1; return CUPTI_SUCCESS; }
static CUptiResult f_disable(CUpti_ActivityKind k)
{
    F.kind_on[k] = 0;
    if (k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
        F.kernel_disables++;
    F.disabled_in_app |= F.in_app;
    return CUPTI_SUCCESS;
}

static size_t size_of(CUpti_ActivityKind k)
{
    switch (k) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    default: return 0;
    }
}

/* Hands over what a flush would, in one buffer asked of whoever is registered now. */
static CUptiResult f_flush(uint32_t flag)
{
    const int forced = (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0;
    F.forced_in_app |= forced && F.in_app;
    if (F.requested == NULL)
        return CUPTI_ERROR_INVALID_OPERATION;
    int any = 0;
    for (int i = 0; i < F.n; i++)
        any |= !F.rec[i].delivered && (F.rec[i].complete || forced);
    if (!any)
        return CUPTI_SUCCESS;
    uint8_t *buf = NULL;
    size_t size = 0, max = 0;
    F.requested(&buf, &size, &max);
    if (buf == NULL)
        return CUPTI_SUCCESS;
    size_t used = 0;
    for (int i = 0; i < F.n; i++) {
        struct pending *p = &F.rec[i];
        if (p->delivered || !(p->complete || forced) || used + p->size > size)
            continue;
        if (!p->complete) { /* "timestamp information could not be collected" */
            CUpti_ActivityKernel10 *k = (void *)p->bytes;
            k->start = 0;
            k->end = 0;
        }
        memcpy(buf + used, p->bytes, p->size);
        used += (p->size + 7u) & ~(size_t)7u;
        p->delivered = 1;
    }
    F.completed(NULL, 0, buf, size, used);
    return CUPTI_SUCCESS;
}

static CUptiResult f_next(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
    size_t offset = 0;
    if (*record != NULL)
        offset = (size_t)((uint8_t *)*record - buffer) + ((size_of((*record)->kind) + 7u) & ~(size_t)7u);
    if (offset + sizeof(CUpti_ActivityKind) > valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    if (offset != 0u && F.after_first_record != NULL) {
        void (*hook)(void) = F.after_first_record;
        F.after_first_record = NULL;
        hook();
    }
    *record = (CUpti_Activity *)(buffer + offset);
    return CUPTI_SUCCESS;
}
static CUptiResult f_dropped(CUcontext c, uint32_t s, size_t *d) { (void)c; (void)s; *d = 0; return CUPTI_SUCCESS; }
static CUptiResult f_timestamp(uint64_t *t) { *t = realtime() + (uint64_t)F.clock_offset; return CUPTI_SUCCESS; }
static CUptiResult f_thread_id_type(CUpti_ActivityThreadIdType t) { (void)t; return CUPTI_SUCCESS; }
static CUptiResult f_finalize(void) { return CUPTI_SUCCESS; }
static CUptiResult f_set_attribute(CUpti_ActivityAttribute attr, size_t *size, void *value)
{
    if (attr == CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER && *size == 1 && *(uint8_t *)value == 0)
        F.per_thread_off_before_register = 1;
    if (attr == CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE || attr == CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT) {
        if (F.refuse_device_buffers || *size != sizeof(size_t))
            return CUPTI_ERROR_INVALID_PARAMETER;
        *(attr == CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE ? &F.device_buffer_size : &F.device_buffer_pool_limit) =
            *(size_t *)value;
    }
    return CUPTI_SUCCESS;
}

/* Another CUPTI client (Kineto) registering its own buffer callbacks, without subscribing. */
static uint8_t foreign_buffer[1 << 16];
static int foreign_records;
static void CUPTIAPI foreign_requested(uint8_t **b, size_t *s, size_t *m)
{
    *b = foreign_buffer;
    *s = sizeof foreign_buffer;
    *m = 0;
}
static void CUPTIAPI foreign_completed(CUcontext c, uint32_t s, uint8_t *b, size_t size, size_t valid)
{
    (void)c; (void)s; (void)b; (void)size;
    foreign_records += (int)(valid / sizeof(CUpti_ActivityKernel10));
}

/* ---- the agent over a private region ----------------------------------------- */

static void setup_ring(uint32_t version, uint64_t capacity)
{
    struct vprof_agent *a = &vprof_agent;
    memset(&F, 0, sizeof F);
    void *region = mmap(NULL, VPROF_CONTROL_SIZE + capacity, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    a->region = region;
    a->control = region;
    a->control->magic = VPROF_MAGIC;
    a->control->ring_capacity = capacity;
    a->control->state = VPROF_STATE_DORMANT;
    vprof_ring_init(&a->ring, region, capacity);
    a->capture.ring = &a->ring;
    a->pid = getpid();
    a->ready = 1;
    a->launch_injected = 1;
    struct vprof_cupti *c = &a->cupti;
    c->handle = (void *)1; /* vprof_cupti_load: already loaded */
    snprintf(c->path, sizeof c->path, "fake-cupti");
    c->version = version;
    c->GetVersion = f_get_version;
    c->GetResultString = f_result_string;
    c->Subscribe = f_subscribe;
    c->Unsubscribe = f_unsubscribe;
    c->EnableCallback = f_enable_callback;
    c->EnableDomain = f_enable_domain;
    c->ActivityRegisterCallbacks = f_register;
    c->ActivityEnable = f_enable;
    c->ActivityDisable = f_disable;
    c->ActivityFlushAll = f_flush;
    c->ActivityGetNextRecord = f_next;
    c->ActivityGetNumDroppedRecords = f_dropped;
    c->GetTimestamp = f_timestamp;
    c->SetThreadIdType = f_thread_id_type;
    c->Finalize = f_finalize;
    c->ActivitySetAttribute = f_set_attribute;
}

static void setup(uint32_t version)
{
    setup_ring(version, 1u << 20);
}

static uint32_t arm(uint32_t mode, uint32_t repeat)
{
    struct vprof_arming req;
    memset(&req, 0, sizeof req);
    req.mode = mode;
    req.repeat = repeat;
    req.kinds = VPROF_KIND_KERNEL | VPROF_KIND_MEMCPY;
    char why[VPROF_REASON_MAX] = "";
    pthread_mutex_lock(&vprof_agent.state_lock);
    uint32_t r = vprof_arm(&vprof_agent, &req, why, sizeof why);
    pthread_mutex_unlock(&vprof_agent.state_lock);
    return r;
}

/* ---- the application ---------------------------------------------------------- */

static void api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, uint32_t corr, CUpti_ApiCallbackSite site)
{
    static int ok = 0;
    CUpti_CallbackData d;
    memset(&d, 0, sizeof d);
    d.callbackSite = site;
    d.correlationId = corr;
    d.functionReturnValue = site == CUPTI_API_EXIT ? &ok : NULL;
    F.in_app = 1;
    if (F.callback != NULL)
        F.callback(NULL, domain, cbid, &d);
    F.in_app = 0;
}

/* cudaProfilerStart/Stop as the runtime makes them: runtime and driver, nested. */
static void profiler(int start, uint32_t corr)
{
    const CUpti_CallbackId rt = start ? CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000
                                      : CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000;
    const CUpti_CallbackId drv = start ? CUPTI_DRIVER_TRACE_CBID_cuProfilerStart : CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
    api(CUPTI_CB_DOMAIN_RUNTIME_API, rt, corr, CUPTI_API_ENTER);
    api(CUPTI_CB_DOMAIN_DRIVER_API, drv, corr, CUPTI_API_ENTER);
    api(CUPTI_CB_DOMAIN_DRIVER_API, drv, corr, CUPTI_API_EXIT);
    api(CUPTI_CB_DOMAIN_RUNTIME_API, rt, corr, CUPTI_API_EXIT);
}

/* A kernel record the GPU will complete later (gpu_done), if kernel tracing is on. */
static void add_kernel(uint32_t corr, uint32_t graph_id, uint64_t node)
{
    if (!F.kind_on[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] || F.n >= MAX_RECORDS)
        return;
    struct pending *p = &F.rec[F.n++];
    memset(p, 0, sizeof *p);
    CUpti_ActivityKernel10 *k = (void *)p->bytes;
    k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k->name = graph_id != 0u ? "graph_node_kernel" : "decode_kernel";
    k->correlationId = corr;
    k->graphId = graph_id;
    k->graphNodeId = node;
    k->streamId = 7;
    k->contextId = 1;
    k->gridX = k->gridY = k->gridZ = 1;
    k->blockX = 128; k->blockY = k->blockZ = 1;
    p->size = sizeof *k;
}

static void launch(uint32_t corr)
{
    api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, corr, CUPTI_API_ENTER);
    add_kernel(corr, 0, 0);
    api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, corr, CUPTI_API_EXIT);
}

/* A graph launch: one callback, `nodes` node kernels with the launch's id (0 = CUPTI sends none). */
static void graph_launch(uint32_t corr, uint32_t graph_id, int nodes)
{
    api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, corr, CUPTI_API_ENTER);
    for (int i = 0; i < nodes; i++)
        add_kernel(corr, graph_id, 0x100000000ull + (uint64_t)i);
    api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, corr, CUPTI_API_EXIT);
}

/* The GPU finishes the work launched with this id: its records get timestamps. */
static void gpu_done(uint32_t corr)
{
    for (int i = 0; i < F.n; i++) {
        CUpti_ActivityKernel10 *k = (void *)F.rec[i].bytes;
        if (k->correlationId == corr && !F.rec[i].complete) {
            k->start = realtime();
            k->end = k->start + 1000;
            F.rec[i].complete = 1;
        }
    }
}

/* One tick of the agent's control thread while a range drains. */
static int tick(void)
{
    struct vprof_agent *a = &vprof_agent;
    if (!__atomic_load_n(&a->hot_stopping, __ATOMIC_ACQUIRE))
        return 0;
    a->cupti.ActivityFlushAll(0);
    pthread_mutex_lock(&a->state_lock);
    int done = vprof_drain_step(a, vprof_now_ns(CLOCK_MONOTONIC));
    pthread_mutex_unlock(&a->state_lock);
    return done;
}

/* Ticks until the range is closed, at most 5 s. */
static int drain_until_closed(void)
{
    for (int i = 0; i < 500; i++) {
        if (tick())
            return 1;
        usleep(10000);
    }
    return 0;
}

/* ---- what the ring says ------------------------------------------------------------ */

struct ring_view {
    int begins, ends;
    struct vprof_rec_range end[4];
    int late_ends;
    struct vprof_rec_range late_end[4];
    int kernels_between; /* KERNEL records between a BEGIN and its END */
    int kernels_in[4];   /* of them, between the first, second, ... BEGIN and its END */
    int kernels_outside;
    int graph_descs;
    int in_range;
    int in_late, late_kernels;
    uint32_t late_index;
    int clock_syncs;
    struct vprof_rec_clock_sync last_sync;
};

static void view(const struct vprof_record_header *h, void *arg)
{
    struct ring_view *v = arg;
    if (h->type == VPROF_REC_RANGE) {
        const struct vprof_rec_range *r = (const void *)h;
        if (r->edge == VPROF_RANGE_LATE_BEGIN) {
            v->in_late = 1;
            v->late_index = r->index;
        } else if (r->edge == VPROF_RANGE_LATE_END) {
            if (v->late_ends < 4)
                v->late_end[v->late_ends] = *r;
            v->late_ends++;
            v->in_late = 0;
        } else if (r->edge == VPROF_RANGE_BEGIN) {
            v->begins++;
            v->in_range = 1;
        } else {
            if (v->ends < 4)
                v->end[v->ends] = *r;
            v->ends++;
            v->in_range = 0;
        }
    } else if (h->type == VPROF_REC_KERNEL) {
        if (v->in_late)
            v->late_kernels++;
        else if (v->in_range) {
            v->kernels_between++;
            if (v->begins <= 4)
                v->kernels_in[v->begins - 1]++;
        }
        else
            v->kernels_outside++;
    } else if (h->type == VPROF_REC_KERNEL_DESC) {
        const struct vprof_rec_kernel_desc *d = (const void *)h;
        v->graph_descs += d->graph_id != 0u;
    } else if (h->type == VPROF_REC_CLOCK_SYNC) {
        v->clock_syncs++;
        memcpy(&v->last_sync, h, sizeof v->last_sync);
    }
}

static void read_ring(struct ring_view *v)
{
    vprof_ring_read(&vprof_agent.ring, view, v, SIZE_MAX);
}

/* The scenarios end by letting the control thread close the range, then read what it
   published: a range that never closes fails the case there and then. */
static void read_ring_once_closed(struct ring_view *v)
{
    ASSERT(drain_until_closed());
    read_ring(v);
}

static uint32_t state(void) { return __atomic_load_n(&vprof_agent.control->state, __ATOMIC_ACQUIRE); }

/* ---- scenarios ------------------------------------------------------------------------ */

/* Handling under test: the end is stamped in the stop callback and the control thread drains,
   disables and flushes (capture.c vprof_stamp_end, drain.c); nothing of that inside the app. */
TEST(stopStampsTheEndAndTheControlThreadDrainsAfterTheWorkCompletes)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 100);
    ASSERT_EQ(state(), VPROF_STATE_CAPTURING);
    launch(101);
    launch(102);
    launch(103);
    profiler(0, 104); /* no synchronize: all three still running */
    ASSERT_EQ(state(), VPROF_STATE_STOPPING);
    ASSERT(!F.disabled_in_app);
    ASSERT(!F.forced_in_app);
    ASSERT_EQ(F.kernel_disables, 0);
    ASSERT(F.kind_on[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    struct ring_view v = { 0 };
    read_ring(&v);
    ASSERT_EQ(v.begins, 1);
    ASSERT_EQ(v.ends, 0); /* the END waits for the drain */
    ASSERT_EQ(tick(), 0);
    ASSERT_EQ(tick(), 0);
    gpu_done(101);
    gpu_done(102);
    ASSERT_EQ(tick(), 0); /* one still running */
    gpu_done(103);
    ASSERT(drain_until_closed());
    ASSERT_EQ(state(), VPROF_STATE_ARMED);
    ASSERT_EQ(F.kernel_disables, 1);
    ASSERT(!F.kind_on[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    read_ring(&v);
    ASSERT_EQ(v.ends, 1);
    ASSERT_EQ(v.kernels_between, 3);
    ASSERT_EQ(v.kernels_outside, 0);
    const struct vprof_rec_range *e = &v.end[0];
    ASSERT_EQ(e->source, VPROF_SOURCE_PROFILER);
    ASSERT_EQ(e->correlation_id, 104);
    ASSERT_EQ(e->kernel_launches, 3);
    ASSERT_EQ(e->kernels, 3);
    ASSERT_EQ(e->kernels_missing, 0);
    ASSERT_EQ(e->flags, 0);
    ASSERT_GE(e->drained_cupti_ns, e->cupti_ns);
}

/* Handling under test: membership by launch order (callbacks.c/convert.c), not by when it ran. */
TEST(workLaunchedAfterTheStopIsClippedEvenWhenItFinishesFirst)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 10);
    launch(11);
    launch(12);
    profiler(0, 13);
    launch(14); /* the server goes on launching */
    launch(15);
    gpu_done(14);
    gpu_done(15);
    gpu_done(11);
    gpu_done(12);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    ASSERT_EQ(v.kernels_between, 2);
    ASSERT_EQ(v.kernels_outside, 0);
    ASSERT_EQ(v.end[0].kernel_launches, 2);
    ASSERT_EQ(v.end[0].kernels, 2);
    ASSERT_EQ(v.end[0].clipped, 2);
}

/* Handling under test: the drain's limit (drain.c) and what the END says it could not wait for. */
TEST(drainClosesAtItsLimitAndTheEndSaysWhatWasStillRunning)
{
    setup(130001);
    vprof_agent.drain_max_ns = 50000000ull; /* 50 ms */
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 20);
    launch(21);
    launch(22);
    profiler(0, 23);
    gpu_done(21); /* 22 never finishes in time */
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    const struct vprof_rec_range *e = &v.end[0];
    ASSERT(e->flags & VPROF_WARN_DRAIN_TIMEOUT);
    ASSERT_EQ(e->kernels, 1);
    ASSERT_EQ(e->rejected_zero_ts, 1); /* the forced flush's zero-stamped record */
    ASSERT_EQ(v.kernels_between, 1);
    ASSERT_GE(e->drained_cupti_ns - e->cupti_ns, 50000000ull);
}

/* Handling under test: graph launches are counted (callbacks.c count_call) and a range whose graph
   launches brought no node kernel says so (capture.c judge_range): never a silent 0. */
TEST(graphLaunchesWhoseNodesNeverArriveAreReportedLoudly)
{
    setup(130001);
    vprof_agent.drain_max_ns = 50000000ull;
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 30);
    graph_launch(31, 9, 0); /* instantiated while dormant: CUPTI delivers no node */
    graph_launch(32, 9, 0);
    profiler(0, 33);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    const struct vprof_rec_range *e = &v.end[0];
    ASSERT_EQ(e->graph_launches, 2);
    ASSERT_EQ(e->graph_kernels, 0);
    ASSERT_EQ(e->kernels, 0);
    ASSERT(e->flags & VPROF_WARN_GRAPH_NOT_DELIVERED);
    ASSERT(vprof_agent.control->warning_flags & VPROF_WARN_GRAPH_NOT_DELIVERED);
    ASSERT_CONTAINS(vprof_agent.control->reason, "delivered no graph kernel for 2 graph launches");
}

/* Handling under test: node kernels are kept by their launch's id and end the drain at once. */
TEST(graphNodeKernelsCountAsTheirLaunchAndCarryTheGraphId)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 40);
    graph_launch(41, 9, 3);
    graph_launch(42, 9, 3);
    profiler(0, 43);
    gpu_done(41);
    gpu_done(42);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    const struct vprof_rec_range *e = &v.end[0];
    ASSERT_EQ(e->graph_launches, 2);
    ASSERT_EQ(e->graph_kernels, 6);
    ASSERT_EQ(e->kernels, 6);
    ASSERT(!(e->flags & (VPROF_WARN_DRAIN_TIMEOUT | VPROF_WARN_GRAPH_NOT_DELIVERED)));
    ASSERT_EQ(v.graph_descs, 3); /* one desc per node */
}

/* A launch into a capturing stream: the call succeeds, runs nothing, leaves no record. */
static void captured_launch(uint32_t corr)
{
    api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, corr, CUPTI_API_ENTER);
    api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, corr, CUPTI_API_EXIT);
}

/* cudaStreamBeginCapture / cudaStreamEndCapture as the runtime makes them, seen by the driver callbacks. */
static void stream_capture(int begin, uint32_t corr)
{
    const CUpti_CallbackId drv = begin ? CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2
                                       : CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture;
    api(CUPTI_CB_DOMAIN_DRIVER_API, drv, corr, CUPTI_API_ENTER);
    api(CUPTI_CB_DOMAIN_DRIVER_API, drv, corr, CUPTI_API_EXIT);
}

/* Handling under test: launches into a capturing stream are not counted as work (they become graph
   nodes, with no record of their own), even when the capture began before the range. */
TEST(launchesIntoACapturingStreamAreNotCountedAsWork)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    stream_capture(1, 60); /* a capture begun before the range: its edges are seen while no range is open */
    profiler(1, 61);
    captured_launch(62);
    captured_launch(63);
    stream_capture(0, 64);
    launch(65);
    stream_capture(1, 66); /* and one inside it */
    captured_launch(67);
    stream_capture(0, 68);
    graph_launch(69, 4, 2);
    gpu_done(65);
    gpu_done(69);
    profiler(0, 70);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    const struct vprof_rec_range *e = &v.end[0];
    ASSERT_EQ(e->kernel_launches, 1);
    ASSERT_EQ(e->graph_launches, 1);
    ASSERT_EQ(e->kernels, 3);
    ASSERT_EQ(e->kernels_missing, 0);
    ASSERT(!(e->flags & (VPROF_WARN_RECORDS_MISSING | VPROF_WARN_DRAIN_TIMEOUT)));
}

/* Handling under test: buffer callbacks re-registered at every ARM and range begin, and a range
   whose records went to another client named as such (R1). */
TEST(anotherClientTakingTheBufferCallbacksIsNamedAndTakenBackAtTheNextRange)
{
    setup(130001);
    vprof_agent.drain_max_ns = 50000000ull;
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 50);
    const int ours = F.registrations;
    /* torch.profiler starts inside the range: registers its callbacks, no subscribe */
    F.requested = foreign_requested;
    F.completed = foreign_completed;
    launch(51);
    launch(52);
    gpu_done(51);
    gpu_done(52);
    profiler(0, 53);
    ASSERT(drain_until_closed());
    ASSERT_EQ(foreign_records, 2);
    struct ring_view v = { 0 };
    read_ring(&v);
    const struct vprof_rec_range *e = &v.end[0];
    ASSERT_EQ(e->kernels, 0);
    ASSERT_EQ(e->kernel_launches, 2);
    ASSERT(e->flags & VPROF_WARN_NO_RECORDS);
    ASSERT(e->flags & VPROF_WARN_BUFFERS_TAKEN);
    ASSERT_CONTAINS(vprof_agent.control->reason, "another CUPTI client (torch.profiler/Kineto) registered");
    /* The next range takes the callbacks back. */
    profiler(1, 60);
    ASSERT_EQ(F.registrations, ours + 1);
    ASSERT_EQ(F.completed, vprof_buffer_completed);
    launch(61);
    gpu_done(61);
    profiler(0, 62);
    read_ring_once_closed(&v);
    ASSERT_EQ(v.ends, 2);
    ASSERT_EQ(v.end[1].kernels, 1);
    ASSERT_EQ(v.end[1].flags, 0);
}

/* Handling under test: per-thread buffers turned off before every registration (buffer pool sizing). */
TEST(perThreadBuffersAreTurnedOffBeforeEveryRegistration)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 70);
    ASSERT_GE(F.registrations, 3);
    ASSERT_EQ(F.registrations_after_per_thread_off, F.registrations);
    ASSERT(vprof_agent.control->cupti_facts & VPROF_CUPTI_PER_THREAD_OFF);
    ASSERT_EQ(vprof_agent.pool.total, VPROF_POOL_BUFFERS);
}

/* Handling under test: where per-thread buffers stay on, the pool is sized for them and it is said. */
TEST(perThreadBuffersThatStayOnGetALargerPoolAndAWarning)
{
    setup(130001);
    vprof_agent.cupti.ActivitySetAttribute = NULL;
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    ASSERT_EQ(vprof_agent.pool.total, VPROF_POOL_PER_THREAD_BUFFERS);
    ASSERT(vprof_agent.control->warning_flags & VPROF_WARN_PER_THREAD_BUFFERS);
}

/* Handling under test: CUPTI's device buffers are sized as the environment asks, or it says why not (R4). */
TEST(deviceBufferSizeAndPoolLimitComeFromTheEnvironment)
{
    setup(130001);
    vprof_agent.injection_called = 1;
    setenv("VPROF_CUPTI_DEVICE_BUFFER_SIZE", "8m", 1);
    setenv("VPROF_CUPTI_DEVICE_BUFFER_POOL_LIMIT", "16", 1);
    vprof_set_device_buffers(&vprof_agent);
    EXPECT_EQ(F.device_buffer_size, (size_t)8 << 20);
    EXPECT_EQ(F.device_buffer_pool_limit, 16u);
    EXPECT_EQ(vprof_agent.control->reason[0], '\0');

    /* Not a number of buffers: CUPTI's default stays, and the reason says which variable. */
    F.device_buffer_pool_limit = 0;
    setenv("VPROF_CUPTI_DEVICE_BUFFER_POOL_LIMIT", "16k", 1);
    vprof_set_device_buffers(&vprof_agent);
    EXPECT_EQ(F.device_buffer_pool_limit, 0u);
    EXPECT_CONTAINS(vprof_agent.control->reason, "VPROF_CUPTI_DEVICE_BUFFER_POOL_LIMIT=16k");

    /* Refused by CUPTI: said, and the agent goes on. */
    F.refuse_device_buffers = 1;
    unsetenv("VPROF_CUPTI_DEVICE_BUFFER_POOL_LIMIT");
    vprof_set_device_buffers(&vprof_agent);
    EXPECT_CONTAINS(vprof_agent.control->reason, "cuptiActivitySetAttribute(VPROF_CUPTI_DEVICE_BUFFER_SIZE) failed");
    EXPECT_CONTAINS(vprof_agent.control->reason, "default is kept");

    /* CUPTI loaded after CUDA started (attach): only new contexts get it, and the person is told. */
    F.refuse_device_buffers = 0;
    vprof_agent.injection_called = 0;
    vprof_set_device_buffers(&vprof_agent);
    EXPECT_CONTAINS(vprof_agent.control->reason, "contexts created from now on");
    unsetenv("VPROF_CUPTI_DEVICE_BUFFER_SIZE");
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
}

/* Handling under test: CUPTI 13.0 GA never gets cuptiActivityDisable(CONCURRENT_KERNEL) (R9). */
TEST(kernelTracingIsNeverDisabledOnCupti13GA)
{
    setup(130000);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    ASSERT(vprof_agent.control->warning_flags & VPROF_WARN_KERNEL_KIND_KEPT);
    for (uint32_t r = 0; r < 2; r++) {
        profiler(1, 80 + 10 * r);
        launch(81 + 10 * r);
        gpu_done(81 + 10 * r);
        profiler(0, 82 + 10 * r);
        ASSERT(drain_until_closed());
    }
    ASSERT_EQ(F.kernel_disables, 0);
    ASSERT(!F.kind_on[CUPTI_ACTIVITY_KIND_MEMCPY]); /* the others are disabled as usual */
    launch(99); /* between ranges: recorded by CUPTI, clipped by vprof */
    gpu_done(99);
    f_flush(0);
    struct ring_view v = { 0 };
    read_ring(&v);
    ASSERT_EQ(v.ends, 2);
    ASSERT_EQ(v.kernels_between, 2);
    ASSERT_EQ(v.kernels_outside, 0);
}

/* Handling under test: a CUPTI outside the verified-layout list warns and checks every record. */
TEST(unverifiedCuptiVersionIsSaidAndEveryRecordChecked)
{
    setup(130500);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 100);
    ASSERT(vprof_agent.control->warning_flags & VPROF_WARN_UNVERIFIED_LAYOUT);
    ASSERT_CONTAINS(vprof_agent.control->reason, "130500");
    launch(101);
    launch(102);
    ((CUpti_ActivityKernel10 *)F.rec[1].bytes)->name = NULL; /* a field that moved */
    gpu_done(101);
    gpu_done(102);
    profiler(0, 103);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    ASSERT_EQ(v.end[0].kernels, 1);
    ASSERT_EQ(v.end[0].rejected_bad_record, 1);
    ASSERT(v.end[0].flags & VPROF_WARN_UNVERIFIED_LAYOUT);
    ASSERT(!(vprof_agent.control->cupti_facts & VPROF_CUPTI_LAYOUT_VERIFIED));
}

/* Handling under test: the CLOCK_SYNC slope check (capture.c check_clock). */
TEST(cuptiClockThatStopsFollowingRealtimeIsFlagged)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 110);
    struct vprof_agent *a = &vprof_agent;
    pthread_mutex_lock(&a->state_lock);
    vprof_write_clock_sync(a);
    pthread_mutex_unlock(&a->state_lock);
    ASSERT(!(a->control->warning_flags & VPROF_WARN_CLOCK_CHANGED));
    F.clock_offset = -5000000000ll; /* a timestamp callback on another clock */
    usleep(2000);
    pthread_mutex_lock(&a->state_lock);
    vprof_write_clock_sync(a);
    pthread_mutex_unlock(&a->state_lock);
    ASSERT(a->control->warning_flags & VPROF_WARN_CLOCK_CHANGED);
    ASSERT_CONTAINS(a->control->reason, "timestamp callback");
}

/* Handling under test: CLOCK_SYNC carries CLOCK_BOOTTIME beside CLOCK_REALTIME (capture.c
   vprof_write_clock_sync), read by this test around it as the oracle. */
TEST(clockSyncRecordsTheHostsBootClockBesideItsWallClock)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    struct vprof_agent *a = &vprof_agent;
    struct ring_view before = { 0 };
    read_ring(&before); /* what arming wrote */
    const uint64_t r0 = vprof_now_ns(CLOCK_REALTIME), b0 = vprof_now_ns(CLOCK_BOOTTIME);
    pthread_mutex_lock(&a->state_lock);
    vprof_write_clock_sync(a);
    pthread_mutex_unlock(&a->state_lock);
    const uint64_t b1 = vprof_now_ns(CLOCK_BOOTTIME);
    struct ring_view v = { 0 };
    read_ring(&v);
    ASSERT_EQ(v.clock_syncs, 1);
    const struct vprof_rec_clock_sync *s = &v.last_sync;
    ASSERT_EQ(s->h.length, (int32_t)sizeof *s);
    ASSERT_GE(s->boottime_ns, b0);
    ASSERT_LE(s->boottime_ns, b1);
    /* Where the boot lies on the wall clock, as the test read it: within 1 ms (two pairs of reads). */
    const int64_t agent_boot = (int64_t)(s->realtime_ns - s->boottime_ns), test_boot = (int64_t)(r0 - b0);
    ASSERT_LE(agent_boot - test_boot < 0 ? test_boot - agent_boot : agent_boot - test_boot, 1000000);
}

/* Handling under test: RANGE_BEGIN/RANGE_END commands (--range-scope tree, capture.c vprof_tree_edge). */
TEST(treeCommandsOpenARangeAndCloseOnlyTheOneTheyOpened)
{
    setup(130001);
    struct vprof_agent *a = &vprof_agent;
    char why[VPROF_REASON_MAX];
    ASSERT_EQ(vprof_tree_edge(a, 1, why, sizeof why), VPROF_RESULT_BAD_COMMAND); /* not armed */
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    pthread_mutex_lock(&a->state_lock);
    ASSERT_EQ(vprof_tree_edge(a, 1, why, sizeof why), VPROF_RESULT_OK);
    pthread_mutex_unlock(&a->state_lock);
    ASSERT_EQ(state(), VPROF_STATE_CAPTURING);
    launch(121);
    gpu_done(121);
    pthread_mutex_lock(&a->state_lock);
    ASSERT_EQ(vprof_tree_edge(a, 0, why, sizeof why), VPROF_RESULT_OK);
    pthread_mutex_unlock(&a->state_lock);
    ASSERT(drain_until_closed());
    /* A range this process began itself is not ended by a relayed END. */
    profiler(1, 130);
    pthread_mutex_lock(&a->state_lock);
    ASSERT_EQ(vprof_tree_edge(a, 0, why, sizeof why), VPROF_RESULT_OK);
    pthread_mutex_unlock(&a->state_lock);
    ASSERT_EQ(state(), VPROF_STATE_CAPTURING);
    profiler(0, 131);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    ASSERT_EQ(v.ends, 2);
    ASSERT_EQ(v.end[0].source, VPROF_SOURCE_TREE);
    ASSERT_EQ(v.end[0].kernels, 1);
    ASSERT_EQ(v.end[1].source, VPROF_SOURCE_PROFILER);
    ASSERT_EQ(a->control->local_range_begins, 1);
    ASSERT_EQ(a->control->local_range_ends, 1);
}

/* Handling under test: a begin during the drain cuts the old range short; its work that completes
   afterwards is kept in a LATE run naming it, not lost and not counted in the new range. */
TEST(rangeBegunDuringTheDrainCutsTheOldOneShortAndCountsItsLateWork)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 140);
    launch(141);
    launch(142);
    profiler(0, 143);
    profiler(1, 144); /* back to back: the first range's work still runs */
    ASSERT(!F.disabled_in_app);
    ASSERT(!F.forced_in_app);
    launch(145);
    gpu_done(141);
    gpu_done(142);
    gpu_done(145);
    profiler(0, 146);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    ASSERT_EQ(v.begins, 2);
    ASSERT_EQ(v.ends, 2);
    ASSERT(v.end[0].flags & VPROF_WARN_CUT_SHORT);
    ASSERT_EQ(v.end[0].kernels, 0);
    ASSERT_EQ(v.end[0].kernels_missing, 0);
    ASSERT_EQ(v.end[1].kernels, 1);
    ASSERT_EQ(v.end[1].late, 2);
    ASSERT_EQ(v.late_kernels, 2);
    ASSERT_EQ(v.late_index, 1);
}

/*
 * Handling under test: ring drops are charged to the range whose records they
 * were (convert.c, per buffer, like the kept ones), not as the change of the
 * process-wide counters while the range was open. Here the ring is full while
 * range 2 drains and range 1's late work (cut short) arrives with range 2's:
 * range 2's END counts its own 2 kernels, the LATE run range 1's 3, and the
 * process counters all of them plus the names that could not be sent.
 */
TEST(ringDropsOfAnotherRangesWorkAreNotChargedToTheRangeOpenAtTheTime)
{
    setup_ring(130001, VPROF_RING_MIN);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 200);
    launch(201);
    launch(202);
    launch(203);
    profiler(0, 204);
    profiler(1, 205); /* cuts range 1 short: its 3 kernels will come in a LATE run */
    launch(206);
    launch(207);
    profiler(0, 208);
    fill_data_room(&vprof_agent.ring);
    for (uint32_t corr = 201; corr <= 207; corr++)
        gpu_done(corr);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    ASSERT_EQ(v.ends, 2);
    ASSERT_EQ(v.kernels_between + v.late_kernels + v.kernels_outside, 0); /* nothing fitted */
    const struct vprof_rec_range *e = &v.end[1];
    ASSERT_EQ(e->index, 2);
    ASSERT_EQ(e->kernel_launches, 2);
    EXPECT_EQ(e->kernels, 0);
    EXPECT_EQ(e->ring_drops_kernels, 2);
    EXPECT_EQ(e->ring_drops, 2);
    EXPECT_EQ(e->kernels_missing, 0);
    /* the invariant of a whole range: every launch kept, dropped, rejected or missing */
    EXPECT_EQ(e->kernels + e->ring_drops_kernels + e->cupti_drops + e->rejected_zero_ts + e->rejected_start_zero +
                  e->rejected_end_zero + e->rejected_end_before_start + e->rejected_outside_range +
                  e->rejected_bad_record + e->kernels_missing,
              e->kernel_launches);
    /* range 1's work that the full ring refused is named by its LATE run */
    ASSERT_EQ(v.late_ends, 1);
    EXPECT_EQ(v.late_end[0].index, 1);
    EXPECT_EQ(v.late_end[0].ring_drops_kernels, 3);
    EXPECT_EQ(v.late_end[0].ring_drops, 3);
    EXPECT_EQ(v.end[0].ring_drops_kernels, 0);
    /* the process counters keep everything: 5 kernels and the names they could not send */
    const struct vprof_control *c = vprof_agent.control;
    EXPECT_EQ(c->ring_drops_kernels, 5);
    EXPECT_GE(c->ring_drops, e->ring_drops + v.late_end[0].ring_drops);
}

/* The application begins the next range on its own thread while a buffer is being converted. */
static pthread_t app_thread;
static int app_done;
static pthread_mutex_t app_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t app_cv = PTHREAD_COND_INITIALIZER;

static void *app_begins_range_2(void *arg)
{
    (void)arg;
    profiler(1, 304);
    pthread_mutex_lock(&app_mu);
    app_done = 1;
    pthread_cond_signal(&app_cv);
    pthread_mutex_unlock(&app_mu);
    return NULL;
}

/* Starts the begin and gives it 300 ms: an agent that lets it through mid-buffer has done it by then. */
static void begin_while_converting(void)
{
    ASSERT_EQ(pthread_create(&app_thread, NULL, app_begins_range_2, NULL), 0);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 300000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&app_mu);
    while (!app_done && pthread_cond_timedwait(&app_cv, &app_mu, &until) == 0)
        ;
    pthread_mutex_unlock(&app_mu);
}

/*
 * Handling under test: a range edge waits for the buffer being converted
 * (convert_lock in vprof_begin_range and convert_buffer). The buffer was
 * judged against range 1's window, so its kernels are range 1's: they must
 * lie before range 1's END in the ring and be in its counts, not land after
 * range 2's BEGIN and in range 2's counts because the begin came mid-buffer.
 */
TEST(aRangeBegunWhileABufferIsConvertedLeavesThatBufferToTheRangeItWasJudgedFor)
{
    setup(130001);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    profiler(1, 300);
    launch(301);
    launch(302);
    profiler(0, 303);
    gpu_done(301);
    gpu_done(302);
    F.after_first_record = begin_while_converting;
    vprof_agent.cupti.ActivityFlushAll(0); /* the control thread's drain tick: one buffer, 301 and 302 */
    ASSERT_EQ(pthread_join(app_thread, NULL), 0);
    ASSERT(app_done);
    profiler(0, 305);
    struct ring_view v = { 0 };
    read_ring_once_closed(&v);
    ASSERT_EQ(v.ends, 2);
    EXPECT(v.end[0].flags & VPROF_WARN_CUT_SHORT);
    EXPECT_EQ(v.end[0].kernels, 2);
    EXPECT_EQ(v.end[1].kernels, 0);
    EXPECT_EQ(v.end[1].kernel_launches, 0);
    EXPECT_EQ(v.kernels_in[0], 2); /* both before range 1's END */
    EXPECT_EQ(v.kernels_in[1], 0);
    EXPECT_EQ(v.late_kernels, 0);
}

/* Handling under test: RANK, LOCAL_RANK and WORLD_SIZE read into the region at every ARM (env.c). */
TEST(rankEnvironmentIsReadAtArm)
{
    setup(130001);
    unsetenv("RANK");
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    ASSERT_EQ(vprof_agent.control->rank, -1);
    ASSERT_EQ(vprof_agent.control->world_size, -1);
    setenv("RANK", "3", 1);
    setenv("LOCAL_RANK", "1", 1);
    setenv("WORLD_SIZE", "8", 1);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    ASSERT_EQ(vprof_agent.control->rank, 3);
    ASSERT_EQ(vprof_agent.control->local_rank, 1);
    ASSERT_EQ(vprof_agent.control->world_size, 8);
    setenv("RANK", "three", 1);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    ASSERT_EQ(vprof_agent.control->rank, -1);
}

/* Handling under test: a CUPTI older than API 27 gets a pool that never refuses. */
TEST(oldCuptiGetsAPoolThatNeverRefuses)
{
    setup(24);
    ASSERT_EQ(arm(VPROF_RANGE_PROFILER, 0), VPROF_RESULT_OK);
    ASSERT(vprof_agent.control->cupti_facts & VPROF_CUPTI_NEVER_REFUSE);
    uint8_t *b = NULL;
    size_t size = 0, max = 0;
    for (uint32_t i = 0; i <= VPROF_POOL_BUFFERS; i++) {
        vprof_buffer_requested(&b, &size, &max);
        ASSERT(b != NULL);
        ASSERT_EQ(size, vprof_agent.pool.size);
    }
    ASSERT_EQ(vprof_agent.pool.emergency, 1);
    ASSERT_EQ(vprof_agent.pool.refusals, 0);
}

TEST_MAIN(
    FORKED(stopStampsTheEndAndTheControlThreadDrainsAfterTheWorkCompletes),
    FORKED(workLaunchedAfterTheStopIsClippedEvenWhenItFinishesFirst),
    FORKED(drainClosesAtItsLimitAndTheEndSaysWhatWasStillRunning),
    FORKED(graphLaunchesWhoseNodesNeverArriveAreReportedLoudly),
    FORKED(graphNodeKernelsCountAsTheirLaunchAndCarryTheGraphId),
    FORKED(launchesIntoACapturingStreamAreNotCountedAsWork),
    FORKED(anotherClientTakingTheBufferCallbacksIsNamedAndTakenBackAtTheNextRange),
    FORKED(perThreadBuffersAreTurnedOffBeforeEveryRegistration),
    FORKED(perThreadBuffersThatStayOnGetALargerPoolAndAWarning),
    FORKED(deviceBufferSizeAndPoolLimitComeFromTheEnvironment),
    FORKED(kernelTracingIsNeverDisabledOnCupti13GA),
    FORKED(unverifiedCuptiVersionIsSaidAndEveryRecordChecked),
    FORKED(cuptiClockThatStopsFollowingRealtimeIsFlagged),
    FORKED(clockSyncRecordsTheHostsBootClockBesideItsWallClock),
    FORKED(treeCommandsOpenARangeAndCloseOnlyTheOneTheyOpened),
    FORKED(rangeBegunDuringTheDrainCutsTheOldOneShortAndCountsItsLateWork),
    FORKED(ringDropsOfAnotherRangesWorkAreNotChargedToTheRangeOpenAtTheTime),
    FORKED(aRangeBegunWhileABufferIsConvertedLeavesThatBufferToTheRangeItWasJudgedFor),
    FORKED(rankEnvironmentIsReadAtArm),
    FORKED(oldCuptiGetsAPoolThatNeverRefuses),
)
