/*
 * capture.c: the agent's state machine.
 *
 *   DORMANT --ARM--> ARMED --range begins--> CAPTURING --end stamped--> STOPPING
 *                      ^                                                   | drain
 *                      +------------ repeat not reached <-- range closed --+
 *   DISARM, heartbeat loss, repeat reached: back to DORMANT. Any CUPTI
 *   failure: FAILED, for good, with CUPTI's own error string.
 *
 * A range begins at ARM (mode none), on cudaProfilerStart/cuProfilerStart
 * (mode profiler), on the push of the named NVTX range (mode nvtx), or on a
 * RANGE_BEGIN command (--range-scope tree); its end is stamped on DISARM, the
 * matching stop or pop, RANGE_END, heartbeat loss, or exit, and it is closed
 * by the control thread once its work has completed (drain.c).
 * The CUPTI callbacks themselves are in callbacks.c.
 */
#include "agent/agent.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STATE_OF(a) __atomic_load_n(&(a)->control->state, __ATOMIC_ACQUIRE)

void vprof_set_state(struct vprof_agent *a, uint32_t state)
{
    __atomic_store_n(&a->control->state, state, __ATOMIC_RELEASE);
}

void vprof_warn(struct vprof_agent *a, const char *reason)
{
    snprintf(a->control->reason, sizeof a->control->reason, "%s", reason);
}

void vprof_warn_flag(struct vprof_agent *a, uint32_t flag, const char *reason)
{
    a->range_flags |= flag;
    __atomic_fetch_or(&a->control->warning_flags, (uint64_t)flag, __ATOMIC_RELEASE);
    if (reason != NULL)
        vprof_warn(a, reason);
}

static void set_hot(struct vprof_agent *a)
{
    __atomic_store_n(&a->hot_mode, a->armed ? (int)a->arm.mode : -1, __ATOMIC_RELEASE);
    __atomic_store_n(&a->hot_range_open, a->range_open, __ATOMIC_RELEASE);
    __atomic_store_n(&a->hot_stopping, a->stopping, __ATOMIC_RELEASE);
}

static void disable_all_kinds(struct vprof_agent *a);

void vprof_fail(struct vprof_agent *a, const char *reason)
{
    if (a->cupti_state == 1) {
        vprof_counting(a, 0);
        disable_all_kinds(a);
        /* Leave CUPTI free for another tool rather than holding a broken subscription. */
        a->cupti.Unsubscribe(a->subscriber);
    }
    a->cupti_state = -1;
    a->armed = 0;
    a->range_open = 0;
    a->stopping = 0;
    set_hot(a);
    vprof_warn(a, reason);
    vprof_set_state(a, VPROF_STATE_FAILED);
}

/* ---- records the state machine writes ------------------------------------- */

static uint64_t cupti_now(struct vprof_agent *a)
{
    uint64_t ns = 0;
    if (a->cupti_state == 1)
        a->cupti.GetTimestamp(&ns);
    return ns;
}

/*
 * The clock check: within a range, CUPTI's clock must advance with
 * CLOCK_REALTIME. A timestamp callback another client installs (Kineto's TSC
 * option, cuptiActivityRegisterTimestampCallback) changes it under us and
 * leaves earlier records on the old clock (pytorch#192021).
 */
static void check_clock(struct vprof_agent *a, uint64_t cupti_ns, uint64_t realtime_ns)
{
    if (a->range_open && a->last_sync_realtime_ns != 0u && cupti_ns != 0u &&
        realtime_ns > a->last_sync_realtime_ns) {
        const int64_t dr = (int64_t)(realtime_ns - a->last_sync_realtime_ns);
        const int64_t dc = (int64_t)(cupti_ns - a->last_sync_cupti_ns);
        const int64_t off = dc - dr;
        const int64_t allowed = 1000000 + dr / 1000; /* 1 ms + 1000 ppm */
        if ((off > allowed || off < -allowed) && !(a->range_flags & VPROF_WARN_CLOCK_CHANGED)) {
            char why[VPROF_REASON_MAX];
            snprintf(why, sizeof why,
                     "CUPTI's clock moved %+.3f ms against CLOCK_REALTIME in %.3f s: another CUPTI "
                     "client (e.g. torch.profiler with its TSC option) installed a timestamp "
                     "callback; this range's times are not comparable", (double)off / 1e6,
                     (double)dr / 1e9);
            vprof_warn_flag(a, VPROF_WARN_CLOCK_CHANGED, why);
        }
    }
    a->last_sync_cupti_ns = cupti_ns;
    a->last_sync_realtime_ns = realtime_ns;
}

void vprof_write_clock_sync(struct vprof_agent *a)
{
    struct vprof_rec_clock_sync r;
    memset(&r, 0, sizeof r);
    r.cupti_ns = cupti_now(a);
    r.realtime_ns = vprof_now_ns(CLOCK_REALTIME);
    /* Next to realtime: the pair says where this host's boot lies on the wall clock. */
    r.boottime_ns = vprof_now_ns(CLOCK_BOOTTIME);
    r.monotonic_ns = vprof_now_ns(CLOCK_MONOTONIC);
    check_clock(a, r.cupti_ns, r.realtime_ns);
    vprof_ring_write(&a->ring, VPROF_REC_CLOCK_SYNC, &r, sizeof r, VPROF_RING_CONTROL);
}

static void write_begin(struct vprof_agent *a, uint32_t source, uint64_t cupti_ns, uint32_t corr)
{
    struct vprof_rec_range r;
    memset(&r, 0, sizeof r);
    r.edge = VPROF_RANGE_BEGIN;
    r.source = source;
    r.index = a->range_index;
    r.capture_id = a->arm.capture_id;
    r.cupti_ns = cupti_ns;
    r.realtime_ns = vprof_now_ns(CLOCK_REALTIME);
    r.correlation_id = corr;
    vprof_ring_write(&a->ring, VPROF_REC_RANGE, &r, sizeof r, VPROF_RING_CONTROL);
}

/* The END of the stamped range, with what it counted; cupti_ns and realtime_ns are the stamp's. */
static void write_end(struct vprof_agent *a, uint64_t drained_cupti_ns)
{
    struct vprof_control *c = a->control;
    struct vprof_range_counts n;
    vprof_window_counts(&a->window, &n);
    struct vprof_rec_range r;
    memset(&r, 0, sizeof r);
    r.edge = VPROF_RANGE_END;
    r.source = a->end_source;
    r.index = a->range_index;
    r.capture_id = a->arm.capture_id;
    r.cupti_ns = a->end_cupti_ns;
    r.realtime_ns = a->end_realtime_ns;
    /* Its own records the full ring refused, not the process's drops while it was open (convert.h). */
    r.ring_drops = n.ring_drops;
    r.ring_drops_kernels = n.ring_drops_kernels;
    /* CUPTI's drops name no record: those it reported while the range was open. */
    r.cupti_drops = __atomic_load_n(&c->cupti_drops, __ATOMIC_RELAXED) - a->range_cupti_drops0;
    r.correlation_id = a->end_corr;
    r.flags = a->range_flags;
    r.drained_cupti_ns = drained_cupti_ns;
    r.kernel_launches = n.kernel_launches;
    r.graph_launches = n.graph_launches;
    r.kernels = n.kernels;
    r.graph_kernels = n.graph_kernels;
    /* A range cut short cannot say: its work may still come, in LATE runs. */
    r.kernels_missing = n.kernel_launches > n.plain_kernels_arrived && !(a->range_flags & VPROF_WARN_CUT_SHORT)
                            ? n.kernel_launches - n.plain_kernels_arrived : 0u;
    r.clipped = n.rejected[VPROF_DROPS_CLIPPED];
    r.rejected_zero_ts = n.rejected[VPROF_DROPS_ZERO_TS];
    r.rejected_start_zero = n.rejected[VPROF_DROPS_START_ZERO];
    r.rejected_end_zero = n.rejected[VPROF_DROPS_END_ZERO];
    r.rejected_end_before_start = n.rejected[VPROF_DROPS_END_BEFORE_START];
    r.rejected_outside_range = n.rejected[VPROF_DROPS_OUTSIDE_RANGE];
    r.late = n.late;
    r.rejected_bad_record = n.rejected[VPROF_DROPS_BAD_RECORD];
    vprof_ring_write(&a->ring, VPROF_REC_RANGE, &r, sizeof r, VPROF_RING_CONTROL);
}

/* ---- activity kinds -------------------------------------------------------- */

/* Not a VPROF_KIND_* a front end asks for: device properties come with every range. */
#define KIND_DEVICE (1u << 31)

static const struct { uint32_t vprof; CUpti_ActivityKind cupti; } KINDS[] = {
    { VPROF_KIND_KERNEL, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL },
    { VPROF_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY },
    { VPROF_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMSET },
    { VPROF_KIND_NVTX, CUPTI_ACTIVITY_KIND_MARKER },
    { VPROF_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_RUNTIME },
    { VPROF_KIND_DRIVER, CUPTI_ACTIVITY_KIND_DRIVER },
    /* Optional (--kinds sync), not in VPROF_KINDS_DEFAULT: a synchronize call is one record, and a
       decode loop makes one per step or token, which is cheap; but CUPTI also makes one per
       cudaStreamWaitEvent and, unless cuptiActivityEnableAllSyncRecords(0), one per event or stream
       query, which a polling loop (NCCL's, a scheduler's) makes far more often than it launches. */
    { VPROF_KIND_SYNC, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION },
    { KIND_DEVICE, CUPTI_ACTIVITY_KIND_DEVICE },
};
#define N_KINDS (sizeof KINDS / sizeof KINDS[0])

static void disable_all_kinds(struct vprof_agent *a)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        if (!(a->enabled_kinds & KINDS[i].vprof))
            continue;
        /* CUPTI 13.0 GA can deadlock disabling kernel tracing (R9): it stays on; records
           that arrive outside a range are clipped. */
        if (KINDS[i].cupti == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
            (a->cupti_facts & VPROF_CUPTI_KEEPS_KERNEL_KIND))
            continue;
        a->cupti.ActivityDisable(KINDS[i].cupti);
        a->enabled_kinds &= ~KINDS[i].vprof;
    }
}

/*
 * Every requested kind, enabled again even if vprof believes it on: another
 * client (torch.profiler) may have disabled it since, and cuptiActivityEnable
 * of an enabled kind changes nothing.
 */
static int enable_kinds(struct vprof_agent *a, uint32_t kinds)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        if (!(kinds & KINDS[i].vprof))
            continue;
        CUptiResult r = a->cupti.ActivityEnable(KINDS[i].cupti);
        if (r != CUPTI_SUCCESS) {
            if (KINDS[i].vprof == KIND_DEVICE)
                continue; /* device properties are a nicety: a CUPTI without them still traces */
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

/* ---- launch counting ------------------------------------------------------- */

static const CUpti_CallbackId PROFILER_DRIVER_CBIDS[] = { CUPTI_DRIVER_TRACE_CBID_cuProfilerStart,
                                                          CUPTI_DRIVER_TRACE_CBID_cuProfilerStop };
/*
 * On for as long as the agent is subscribed, as the profiler edges are: so that launches
 * into a capturing stream (graph nodes, not work) are not counted, even by a range that
 * begins during a capture (callbacks.c).
 */
static const CUpti_CallbackId CAPTURE_DRIVER_CBIDS[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
};

static void enable_driver_callbacks(struct vprof_agent *a, const CUpti_CallbackId *cbids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbids[i]);
}
#define ENABLE_DRIVER_CALLBACKS(a, list) enable_driver_callbacks((a), (list), sizeof(list) / sizeof((list)[0]))

/*
 * While a range is open or draining every driver API call comes through
 * vprof_on_callback: its correlation id bounds the range where an edge has
 * none, and launches are counted so the drain knows what to wait for and the
 * END can say what CUPTI failed to deliver. Off outside ranges: a dormant or
 * armed process pays nothing per call.
 */
void vprof_counting(struct vprof_agent *a, int on)
{
    if (a->counting == on || a->cupti_state != 1)
        return;
    if (a->cupti.EnableDomain((uint32_t)on, a->subscriber, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS)
        return; /* without counting the drain waits its full window and ids bound nothing more */
    if (!on) { /* the domain switch took the profiler and capture callbacks with it */
        ENABLE_DRIVER_CALLBACKS(a, PROFILER_DRIVER_CBIDS);
        ENABLE_DRIVER_CALLBACKS(a, CAPTURE_DRIVER_CBIDS);
    }
    a->counting = on;
    __atomic_store_n(&a->hot_counting, on, __ATOMIC_RELEASE);
}

/* ---- buffers ---------------------------------------------------------------- */

int vprof_register_buffers(struct vprof_agent *a)
{
    /*
     * Per-thread buffers (CUDA 13's default) pin one buffer per launching
     * thread until a flush and can empty the pool: one buffer chain instead.
     * CUPTI wants this before the callbacks are registered; setting the same
     * value again at every registration changes nothing.
     */
    if (vprof_cupti_has_per_thread_buffers(a->cupti.version)) {
        uint8_t off = 0;
        size_t size = sizeof off;
        const int done = a->cupti.ActivitySetAttribute != NULL &&
                         a->cupti.ActivitySetAttribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER,
                                                       &size, &off) == CUPTI_SUCCESS;
        if (done) {
            a->cupti_facts |= VPROF_CUPTI_PER_THREAD_OFF;
        } else if (!(a->cupti_facts & VPROF_CUPTI_PER_THREAD_OFF) &&
                   !(a->control->warning_flags & VPROF_WARN_PER_THREAD_BUFFERS)) {
            vprof_warn_flag(a, VPROF_WARN_PER_THREAD_BUFFERS,
                            "CUPTI kept per-thread activity buffers on: one buffer stays with each "
                            "launching thread until a flush; vprof keeps 64 buffers ready");
        }
        __atomic_store_n(&a->control->cupti_facts, a->cupti_facts, __ATOMIC_RELEASE);
    }
    CUptiResult r = a->cupti.ActivityRegisterCallbacks(vprof_buffer_requested, vprof_buffer_completed);
    if (r != CUPTI_SUCCESS) {
        char why[VPROF_REASON_MAX];
        vprof_cupti_describe(&a->cupti, "cuptiActivityRegisterCallbacks", r, why, sizeof why);
        vprof_fail(a, why);
        return -1;
    }
    return 0;
}

/* ---- ranges ----------------------------------------------------------------- */

static void to_dormant(struct vprof_agent *a);

/* The range closes where it stands, because the next one begins: no CUPTI call (we may be in a callback). */
static void cut_short(struct vprof_agent *a)
{
    vprof_warn_flag(a, VPROF_WARN_CUT_SHORT, NULL);
    write_end(a, cupti_now(a));
    /* Its work that completes from now on is still its own: kept in LATE runs naming it. */
    struct vprof_window_snap w = a->window.snap;
    w.prev_index = a->range_index;
    w.capture_id = a->arm.capture_id;
    w.prev_begin_corr = w.begin_corr;
    w.prev_end_corr = w.end_corr != 0u ? w.end_corr
                    : __atomic_load_n(&a->window.counts.max_corr, __ATOMIC_RELAXED) + 1u;
    vprof_window_publish(&a->window, &w);
    a->range_open = 0;
    a->stopping = 0;
}

void vprof_begin_range(struct vprof_agent *a, uint32_t source, uint32_t corr)
{
    if (!a->armed || (a->range_open && !a->stopping))
        return;
    if (a->arm.repeat != 0u && a->range_index >= a->arm.repeat)
        return; /* the last range is still draining; after it the agent goes DORMANT */
    /*
     * The edge waits for a buffer being converted (at most one buffer's work,
     * and only then): that buffer was judged against the old window, so its
     * records and tallies are the old range's and must reach the ring and the
     * counts before its END and this BEGIN; buffers after it see the new window.
     * LOCK RULE: state_lock, then convert_lock; no CUPTI call that flushes.
     */
    pthread_mutex_lock(&a->convert_lock);
    if (a->stopping)
        cut_short(a);
    else {
        struct vprof_window_snap w = a->window.snap;
        w.prev_begin_corr = 0;
        w.prev_end_corr = 0;
        vprof_window_publish(&a->window, &w);
    }
    struct vprof_control *c = a->control;
    a->range_cupti_drops0 = __atomic_load_n(&c->cupti_drops, __ATOMIC_RELAXED);
    a->range_index++;
    a->range_flags = 0;
    a->begin_source = source;
    a->begin_corr = corr;
    a->end_corr = 0;
    a->last_sync_realtime_ns = 0;
    __atomic_fetch_add(&c->ranges, 1u, __ATOMIC_RELAXED);
    if (source == VPROF_SOURCE_PROFILER || source == VPROF_SOURCE_NVTX)
        __atomic_fetch_add(&c->local_range_begins, 1u, __ATOMIC_RELEASE);
    vprof_write_clock_sync(a);
    const uint64_t now = cupti_now(a);
    vprof_window_reset_counts(&a->window);
    struct vprof_window_snap w = a->window.snap;
    w.state = VPROF_WINDOW_OPEN;
    w.begin_corr = corr;
    w.end_corr = 0;
    w.ts_membership = 0;
    w.begin_ns = now;
    w.end_ns = 0;
    w.check_records = !(a->cupti_facts & VPROF_CUPTI_LAYOUT_VERIFIED);
    w.max_device = 64;
    vprof_window_publish(&a->window, &w);
    write_begin(a, source, now, corr);
    pthread_mutex_unlock(&a->convert_lock);
    /* Another client (torch.profiler) may have taken the buffer callbacks since the last range (R1). */
    if (vprof_register_buffers(a) != 0)
        return;
    if (a->window.snap.check_records && !(a->control->warning_flags & VPROF_WARN_UNVERIFIED_LAYOUT)) {
        char why[VPROF_REASON_MAX];
        snprintf(why, sizeof why,
                 "CUPTI API version %u is not one whose record layout vprof has verified (CUDA 12.0-12.9, "
                 "13.0): every record is sanity-checked and the capture is marked unverified",
                 a->cupti.version);
        vprof_warn_flag(a, VPROF_WARN_UNVERIFIED_LAYOUT, why);
    } else if (a->window.snap.check_records) {
        a->range_flags |= VPROF_WARN_UNVERIFIED_LAYOUT;
    }
    vprof_counting(a, 1);
    if (enable_kinds(a, a->arm.kinds | KIND_DEVICE) != 0)
        return;
    a->range_open = 1;
    a->stopping = 0;
    a->last_clock_sync_ns = vprof_now_ns(CLOCK_MONOTONIC);
    set_hot(a);
    vprof_set_state(a, VPROF_STATE_CAPTURING);
}

void vprof_stamp_end(struct vprof_agent *a, uint32_t source, uint32_t corr)
{
    if (!a->range_open || a->stopping)
        return;
    a->end_source = source;
    a->end_cupti_ns = cupti_now(a);
    a->end_realtime_ns = vprof_now_ns(CLOCK_REALTIME);
    a->stop_mono_ns = vprof_now_ns(CLOCK_MONOTONIC);
    a->drain_flushes = 0;
    a->drain_satisfied = 0;
    const uint32_t seen = __atomic_load_n(&a->window.counts.max_corr, __ATOMIC_RELAXED);
    /* An edge without an id of its own ends after every call the launch callbacks saw. */
    a->end_corr = corr;
    const uint32_t bound = corr != 0u ? corr : seen != 0u ? seen + 1u : 0u;
    struct vprof_window_snap w = a->window.snap;
    w.state = VPROF_WINDOW_STOPPING;
    w.end_corr = bound;
    w.end_ns = a->end_cupti_ns;
    if (bound != 0u && bound <= w.begin_corr) {
        /* Ids that do not grow cannot order launches: fall back to timestamps (docs/design.md §4). */
        w.ts_membership = 1;
        a->range_flags |= VPROF_WARN_TS_MEMBERSHIP;
    }
    vprof_window_publish(&a->window, &w);
    if (source == VPROF_SOURCE_PROFILER || source == VPROF_SOURCE_NVTX)
        __atomic_fetch_add(&a->control->local_range_ends, 1u, __ATOMIC_RELEASE);
    a->stopping = 1;
    set_hot(a);
    vprof_set_state(a, VPROF_STATE_STOPPING);
}

/*
 * Turns what the range counted into warnings that name the likely cause.
 * Plain kernel launches always produce records when kernel tracing is on, so
 * none at all means the records went elsewhere; graph node kernels may not be
 * delivered by CUPTI at all (graphs instantiated while dormant, R2).
 */
static void judge_range(struct vprof_agent *a)
{
    if (!(a->arm.kinds & VPROF_KIND_KERNEL))
        return;
    struct vprof_range_counts n;
    vprof_window_counts(&a->window, &n);
    const uint64_t arrived = n.records + n.plain_kernels_arrived + n.graph_kernels_arrived + n.arrived_rejected;
    char why[VPROF_REASON_MAX];
    if (n.kernel_launches > 0u && arrived == 0u) {
        if (n.buffers == 0u) {
            snprintf(why, sizeof why,
                     "range %u: no record although the process launched %llu kernels, and CUPTI asked "
                     "vprof for no buffer: another CUPTI client (torch.profiler/Kineto) registered its "
                     "own activity buffer callbacks", a->range_index, (unsigned long long)n.kernel_launches);
            vprof_warn_flag(a, VPROF_WARN_BUFFERS_TAKEN | VPROF_WARN_NO_RECORDS, why);
        } else {
            snprintf(why, sizeof why,
                     "range %u: no record although the process launched %llu kernels: another CUPTI "
                     "client (torch.profiler/Kineto) likely disabled vprof's activity kinds or took its "
                     "buffers", a->range_index, (unsigned long long)n.kernel_launches);
            vprof_warn_flag(a, VPROF_WARN_NO_RECORDS, why);
        }
        return;
    }
    if (n.kernel_launches > n.plain_kernels_arrived) {
        snprintf(why, sizeof why,
                 "range %u: %llu of %llu kernel launches had no record when the drain window closed: "
                 "still running then, or another CUPTI client (torch.profiler/Kineto) took vprof's "
                 "buffers or disabled kernel tracing during the range",
                 a->range_index, (unsigned long long)(n.kernel_launches - n.plain_kernels_arrived),
                 (unsigned long long)n.kernel_launches);
        vprof_warn_flag(a, VPROF_WARN_RECORDS_MISSING, why);
    }
    if (n.graph_launches > 0u && n.graph_kernels_arrived == 0u) {
        snprintf(why, sizeof why,
                 "range %u: CUPTI delivered no graph kernel for %llu graph launches: graphs "
                 "instantiated before vprof enabled kernel tracing (while dormant) are not traced "
                 "by this CUDA", a->range_index, (unsigned long long)n.graph_launches);
        vprof_warn_flag(a, VPROF_WARN_GRAPH_NOT_DELIVERED, why);
    }
}

void vprof_finish_range(struct vprof_agent *a)
{
    if (!a->range_open)
        return;
    if (!a->stopping)
        vprof_stamp_end(a, VPROF_SOURCE_COMMAND, 0);
    /*
     * The drain is over: disable, then flush what CUPTI still holds, forced
     * (records of work launched after the end may be incomplete; they are
     * clipped by id anyway). The window stays STOPPING through the flush.
     * LOCK RULE: state_lock is held across this flush; buffer_completed,
     * which the flush may run on this thread or wait for on CUPTI's worker,
     * takes only convert_lock and the pool spinlock, never state_lock.
     * This runs on the control thread or at exit, never inside an
     * application's CUPTI callback (the 13.0 GA disable deadlock, R9).
     */
    vprof_counting(a, 0);
    disable_all_kinds(a);
    a->cupti.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    /* A buffer CUPTI's worker still converts is the range's: its counts and records first (see vprof_begin_range). */
    pthread_mutex_lock(&a->convert_lock);
    judge_range(a);
    vprof_write_clock_sync(a);
    write_end(a, cupti_now(a));
    struct vprof_window_snap w = a->window.snap;
    w.state = VPROF_WINDOW_NONE;
    vprof_window_publish(&a->window, &w);
    pthread_mutex_unlock(&a->convert_lock);
    a->range_open = 0;
    a->stopping = 0;
    set_hot(a);
    if (a->cupti_state == -1)
        return;
    if (a->arm.repeat != 0u && a->range_index >= a->arm.repeat)
        to_dormant(a);
    else
        vprof_set_state(a, VPROF_STATE_ARMED);
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

static const CUpti_CallbackId LAUNCH_DRIVER_CBIDS[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

/*
 * After a capture, CUPTI leaves a cost on every launch until it is finalized
 * (pytorch#146604: 10-20 % after profiling; Kineto finalizes from CUDA 12.6
 * on). So once the agent goes back to DORMANT it asks for the next launch's
 * API exit callback and finalizes there, as H13's dynamic detach recommends;
 * the next ARM subscribes again. Not before 12.6 (finalize with graphs
 * crashed before 12.4 Update 1), not on 13.0 GA (its kernel kind stays on).
 */
static void request_finalize(struct vprof_agent *a)
{
    if (a->cupti_state != 1 || !(a->cupti_facts & VPROF_CUPTI_FINALIZES))
        return;
    for (size_t i = 0; i < sizeof LAUNCH_DRIVER_CBIDS / sizeof LAUNCH_DRIVER_CBIDS[0]; i++)
        a->cupti.EnableCallback(1, a->subscriber, CUPTI_CB_DOMAIN_DRIVER_API, LAUNCH_DRIVER_CBIDS[i]);
    __atomic_store_n(&a->finalize_pending, 1, __ATOMIC_RELEASE);
}

void vprof_finalize_if_pending(struct vprof_agent *a)
{
    pthread_mutex_lock(&a->state_lock);
    if (__atomic_load_n(&a->finalize_pending, __ATOMIC_ACQUIRE) && !a->armed && a->cupti_state == 1) {
        /*
         * LOCK RULE: state_lock is held across cuptiFinalize, which delivers
         * every buffer (buffer_completed takes only convert_lock and the pool
         * spinlock). No range is open: the agent is DORMANT.
         */
        a->cupti.Finalize();
        a->cupti_state = 0; /* the next ARM subscribes again (vprof_cupti_start) */
        __atomic_store_n(&a->captures, 0, __ATOMIC_RELEASE); /* unseen until subscribed again */
        a->enabled_kinds = 0;
        a->counting = 0;
        __atomic_store_n(&a->hot_counting, 0, __ATOMIC_RELEASE);
        a->nvtx_domain_enabled = 0;
        a->cupti_facts |= VPROF_CUPTI_FINALIZED;
        __atomic_store_n(&a->control->cupti_facts, a->cupti_facts, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&a->finalize_pending, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&a->state_lock);
}

static void to_dormant(struct vprof_agent *a)
{
    enable_nvtx_callbacks(a, 0);
    a->armed = 0;
    a->holder_pid = 0;
    set_hot(a);
    if (a->cupti_state != -1) {
        vprof_set_state(a, VPROF_STATE_DORMANT);
        request_finalize(a);
    }
}

void vprof_end_range(struct vprof_agent *a, uint32_t source, int drain)
{
    /* A begin can slip in while the lock is released between ticks: end that one too. */
    while (a->range_open && a->cupti_state == 1) {
        if (!a->stopping)
            vprof_stamp_end(a, source, 0);
        if (!drain) {
            vprof_finish_range(a);
            break;
        }
        /* Application callbacks may need state_lock meanwhile: release it between ticks. */
        pthread_mutex_unlock(&a->state_lock);
        const struct timespec tick = { 0, 10000000L };
        nanosleep(&tick, NULL);
        a->cupti.ActivityFlushAll(0);
        pthread_mutex_lock(&a->state_lock);
        if (a->stopping)
            vprof_drain_step(a, vprof_now_ns(CLOCK_MONOTONIC));
    }
}

void vprof_disarm(struct vprof_agent *a, uint32_t source, const char *why)
{
    if (!a->armed)
        return;
    vprof_end_range(a, source, 1);
    /*
     * Why the agent disarmed outlives the range's own warnings (judge_range wrote
     * them into the reason as the range closed; its flags keep them): set before
     * the state changes, so that a reader that sees DORMANT sees why.
     */
    if (why != NULL)
        vprof_warn(a, why);
    if (a->armed)
        to_dormant(a);
}

uint32_t vprof_tree_edge(struct vprof_agent *a, int begin, char *why, size_t why_size)
{
    if (STATE_OF(a) == VPROF_STATE_FAILED) {
        snprintf(why, why_size, "%s", a->control->reason);
        return VPROF_RESULT_FAILED;
    }
    if (!a->armed || a->arm.mode != VPROF_RANGE_PROFILER) {
        snprintf(why, why_size, "RANGE_%s: the agent is not armed for cudaProfilerApi ranges",
                 begin ? "BEGIN" : "END");
        return VPROF_RESULT_BAD_COMMAND;
    }
    if (begin)
        vprof_begin_range(a, VPROF_SOURCE_TREE, 0);
    else if (a->range_open && !a->stopping && a->begin_source == VPROF_SOURCE_TREE)
        vprof_stamp_end(a, VPROF_SOURCE_TREE, 0); /* the control thread drains and closes it */
    return a->cupti_state == -1 ? VPROF_RESULT_FAILED : VPROF_RESULT_OK;
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

/* What this CUPTI version calls for (cupti_api.h), into cupti_facts and the control block. */
static void learn_version(struct vprof_agent *a)
{
    const uint32_t v = a->cupti.version;
    a->cupti_facts &= VPROF_CUPTI_PER_THREAD_OFF;
    if (v >= 24u && !vprof_cupti_disable_deadlocks(v))
        a->cupti_facts |= VPROF_CUPTI_FINALIZES;
    if (vprof_cupti_layout_verified(v))
        a->cupti_facts |= VPROF_CUPTI_LAYOUT_VERIFIED;
    if (vprof_cupti_refusal_crashes(v))
        a->cupti_facts |= VPROF_CUPTI_NEVER_REFUSE;
    if (vprof_cupti_disable_deadlocks(v)) {
        a->cupti_facts |= VPROF_CUPTI_KEEPS_KERNEL_KIND;
        vprof_warn_flag(a, VPROF_WARN_KERNEL_KIND_KEPT,
                        "CUPTI 13.0.0 can deadlock disabling kernel tracing: vprof leaves it on after "
                        "the first range until the process exits; use CUDA 13.0 Update 1 or later");
    }
    a->pool.never_refuse = (a->cupti_facts & VPROF_CUPTI_NEVER_REFUSE) != 0;
    __atomic_store_n(&a->control->cupti_facts, a->cupti_facts, __ATOMIC_RELEASE);
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
    learn_version(a);
    vprof_set_device_buffers(a); /* before cuInit makes a context, when injected */
    /* NVTX reaches CUPTI only if NVTX_INJECTION64_PATH names it before NVTX initializes. */
    if (a->cupti.version == VPROF_CUPTI_NVTX_BROKEN_VERSION) {
        a->nvtx_injection_refused = 1;
        vprof_warn(a, "NVTX not captured: CUPTI 13.0.0 crashes as the NVTX injection library "
                      "(NVIDIA/NVTX#125); use the CUPTI of CUDA 13.0 Update 1 or later");
    } else if (getenv("NVTX_INJECTION64_PATH") == NULL) {
        setenv("NVTX_INJECTION64_PATH", a->cupti.path, 0);
    }
    if (check(a, "cuptiSubscribe", a->cupti.Subscribe(&a->subscriber, vprof_on_callback, NULL)) != 0)
        return -1;
    a->cupti_state = 1; /* subscribed: vprof_fail unsubscribes from here on */
    if (check(a, "cuptiSetThreadIdType",
              a->cupti.SetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)) != 0 ||
        vprof_register_buffers(a) != 0 ||
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
    /* Capture edges (callbacks.c): not fatal if refused; launches are then counted as before. */
    ENABLE_DRIVER_CALLBACKS(a, CAPTURE_DRIVER_CBIDS);
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
    __atomic_store_n(&a->finalize_pending, 0, __ATOMIC_RELEASE); /* armed again: keep the subscription */
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
        vprof_disarm(a, VPROF_SOURCE_COMMAND, NULL);
    }
    vprof_read_rank_env(a); /* a forked worker sets RANK after the fork, before it is armed */
    if (vprof_cupti_start(a) != 0) {
        snprintf(why, why_size, "%s", a->control->reason);
        return VPROF_RESULT_FAILED;
    }
    const uint32_t buffers = (a->cupti_facts & VPROF_CUPTI_PER_THREAD_OFF) ||
                                     !vprof_cupti_has_per_thread_buffers(a->cupti.version)
                                 ? VPROF_POOL_BUFFERS : VPROF_POOL_PER_THREAD_BUFFERS;
    if (vprof_pool_prepare(&a->pool, req->buffer_size, buffers) != 0) {
        snprintf(why, why_size, "out of memory for %u CUPTI buffers of %zu bytes", buffers,
                 vprof_pool_clamp_size(req->buffer_size));
        return VPROF_RESULT_FAILED;
    }
    pthread_mutex_lock(&a->convert_lock);
    int tables = vprof_intern_alloc(&a->capture.intern);
    if (tables == 0)
        vprof_intern_reset(&a->capture.intern); /* ids restart at 1 at every ARM, only here */
    a->capture.devices_sent = 0;
    pthread_mutex_unlock(&a->convert_lock);
    if (tables != 0) {
        snprintf(why, why_size, "out of memory for the name tables");
        return VPROF_RESULT_FAILED;
    }
    /* Another client may have registered its buffer callbacks since CUPTI started (R1). */
    if (vprof_register_buffers(a) != 0) {
        snprintf(why, why_size, "%s", a->control->reason);
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
        vprof_begin_range(a, VPROF_SOURCE_COMMAND, 0);
    if (a->cupti_state != 1) {
        snprintf(why, why_size, "%s", a->control->reason);
        return VPROF_RESULT_FAILED;
    }
    return VPROF_RESULT_OK;
}
