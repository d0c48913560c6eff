/*
 * cuptisim_buffers.c: activity buffers of the CUPTI test double, filled and
 * handed back by CUPTI's documented rules (H13 = the CUDA 13.0 cupti_activity.h).
 *
 *  - bufferRequested is called on the application thread that produces a
 *    record when its current buffer has no room. With
 *    CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER (1 by default since CUDA
 *    13, latched when the callbacks are registered) every producing thread
 *    has a current buffer of its own; with 0 all threads share one. A NULL or
 *    too small buffer drops the record and counts it for
 *    cuptiActivityGetNumDroppedRecords; below API version 27 (CUDA 12.9) a
 *    NULL buffer crashes CUPTI (pytorch/kineto#1275), which the double
 *    reproduces with abort() (VPROF_SIM_CRASH_ON_NULL_BUFFER).
 *  - GPU work completes after its launch returns (VPROF_SIM_COMPLETION=async):
 *    a record is complete once the double's clock has passed the end of its
 *    work. A buffer is returned only when all its records are complete:
 *    by the worker thread when full (or, once a second, partly filled), by
 *    cuptiActivityFlushAll(0) whether full or not. cuptiActivityFlushAll
 *    (FLUSH_FORCED) also returns buffers holding incomplete records, and those
 *    records carry no timestamps: start = end = 0 (and completed = 0 for a
 *    kernel), which H13 documents as "timestamp information could not be
 *    collected". Neither flush waits for the GPU.
 *  - Records of work still in flight when its kind is disabled are lost
 *    (VPROF_SIM_DISABLED_IN_FLIGHT: lost, zero or kept).
 *  - Records are 8-byte aligned; a reader walks them with
 *    cuptiActivityGetNextRecord.
 *
 * The hot path (sim_emit) takes only the lock of the producing thread's own
 * buffer, which other threads take only to flush. Locks, in order: a lane's
 * `mu`, then `done_mu`. `deliver_mu` orders deliveries (one bufferCompleted
 * at a time, in order) and is held across bufferCompleted, so a client must
 * not call cuptiActivityFlushAll from inside its bufferCompleted (CUPTI
 * forbids that too). No lock of the double is held while bufferRequested runs.
 */
#include "sim/cuptisim_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A partially filled, complete buffer goes to the client after this long, so
 * a live consumer sees records without forcing flushes. */
#define PERIODIC_DELIVERY_NS 1000000000ull

struct sim_buffer {
    uint8_t *data;
    size_t size;
    size_t used;
    size_t max_records; /* 0: as many as fit */
    size_t records;
    uint64_t due;         /* when its last record is complete, on the double's clock */
    int64_t clock_offset; /* client clock - double's clock, for the records in it */
    uint32_t epoch;       /* sim_clock_epoch when it was started */
    struct sim_buffer *next;
};

/* Where the records of one thread (per-thread buffers) or of all threads go. */
struct sim_lane {
    pthread_mutex_t mu;
    struct sim_buffer *cur;
    struct sim_buffer *spare; /* handed out by the client, not yet in use */
    int owned;                /* a live thread writes here (per-thread lanes) */
    struct sim_lane *next;    /* the registry: lanes are never freed */
};

static struct sim_lane shared_lane = { .mu = PTHREAD_MUTEX_INITIALIZER };
static _Atomic(struct sim_lane *) lanes = &shared_lane;
static pthread_mutex_t lanes_mu = PTHREAD_MUTEX_INITIALIZER; /* adding or claiming a lane */
static __thread struct sim_lane *my_lane;
static pthread_key_t lane_key;
static pthread_once_t lane_key_once = PTHREAD_ONCE_INIT;
static _Atomic int per_thread;

static pthread_mutex_t done_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t worker_cv = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t deliver_mu = PTHREAD_MUTEX_INITIALIZER;
/* Under done_mu. */
static struct sim_buffer *done_head, *done_tail;
static struct sim_buffer *free_descs;
static int worker_running, worker_stop;
static pthread_t worker;

static _Atomic(CUpti_BuffersCallbackRequestFunc) request_fn;
static _Atomic(CUpti_BuffersCallbackCompleteFunc) complete_fn;

static _Atomic uint64_t invalid_counts[SIM_INVALID_KINDS];

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

/* ---- descriptors and the done queue ---- */

static struct sim_buffer *desc_new(void) {
    pthread_mutex_lock(&done_mu);
    struct sim_buffer *b = free_descs;
    if (b != NULL) free_descs = b->next;
    pthread_mutex_unlock(&done_mu);
    if (b == NULL) b = malloc(sizeof *b);
    if (b != NULL) memset(b, 0, sizeof *b);
    return b;
}

static void enqueue_done_locked(struct sim_buffer *b) {
    b->next = NULL;
    if (done_tail) done_tail->next = b; else done_head = b;
    done_tail = b;
    pthread_cond_signal(&worker_cv);
}

static void enqueue_done(struct sim_buffer *b) {
    pthread_mutex_lock(&done_mu);
    enqueue_done_locked(b);
    pthread_mutex_unlock(&done_mu);
}

/* ---- lanes ---- */

static void lane_of_exiting_thread(void *arg) {
    struct sim_lane *l = arg;
    pthread_mutex_lock(&l->mu);
    if (l->cur != NULL && l->cur->records > 0) { /* what the thread made goes out */
        enqueue_done(l->cur);
        l->cur = NULL;
    }
    pthread_mutex_unlock(&l->mu);
    pthread_mutex_lock(&lanes_mu);
    l->owned = 0;
    pthread_mutex_unlock(&lanes_mu);
}

static void make_lane_key(void) { pthread_key_create(&lane_key, lane_of_exiting_thread); }

/* The calling thread's lane: a lane left by an exited thread, or a new one. */
static struct sim_lane *thread_lane(void) {
    if (__builtin_expect(my_lane != NULL, 1)) return my_lane;
    pthread_once(&lane_key_once, make_lane_key);
    pthread_mutex_lock(&lanes_mu);
    struct sim_lane *l;
    for (l = atomic_load(&lanes); l != NULL; l = l->next)
        if (l != &shared_lane && !l->owned) break;
    if (l == NULL) {
        l = calloc(1, sizeof *l);
        if (l == NULL) {
            pthread_mutex_unlock(&lanes_mu);
            return &shared_lane;
        }
        pthread_mutex_init(&l->mu, NULL);
        l->next = atomic_load(&lanes);
        atomic_store(&lanes, l);
    }
    l->owned = 1;
    pthread_mutex_unlock(&lanes_mu);
    pthread_setspecific(lane_key, l);
    my_lane = l;
    return l;
}

/* ---- writing records ---- */

static int fits(const struct sim_buffer *b, size_t size) {
    return b->used + size <= b->size && (b->max_records == 0 || b->records < b->max_records);
}

static void shift(uint64_t *t, int64_t by) {
    if (*t != 0) *t = (uint64_t)((int64_t)*t + by);
}

/* Puts a record's timestamps on the client's clock (a registered timestamp callback). */
static void to_client_clock(CUpti_Activity *r, int64_t offset) {
    uint64_t *start, *end;
    if (sim_gpu_record_times(r, &start, &end)) {
        shift(start, offset);
        shift(end, offset);
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL)
            shift(&((CUpti_ActivityKernel10 *)r)->completed, offset);
    } else if (r->kind == CUPTI_ACTIVITY_KIND_RUNTIME || r->kind == CUPTI_ACTIVITY_KIND_DRIVER) {
        shift(&((CUpti_ActivityAPI *)r)->start, offset);
        shift(&((CUpti_ActivityAPI *)r)->end, offset);
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MARKER) {
        shift(&((CUpti_ActivityMarker2 *)r)->timestamp, offset);
    }
}

static void crash_like_old_cupti(void) {
    fprintf(stderr, "cuptisim: bufferRequested returned no buffer: modelling the crash of CUPTI before API version 27 "
                    "(CUDA 12.9, pytorch/kineto#1275) for version %u; VPROF_SIM_CRASH_ON_NULL_BUFFER=0 counts a "
                    "dropped record instead\n", sim_cfg.version);
    abort();
}

void sim_emit(const void *record, size_t size, unsigned drop_slot, uint64_t due) {
    struct sim_lane *l = atomic_load_explicit(&per_thread, memory_order_relaxed) ? thread_lane() : &shared_lane;
    uint32_t epoch = atomic_load_explicit(&sim_clock_epoch, memory_order_relaxed);
    pthread_mutex_lock(&l->mu);
    for (;;) {
        struct sim_buffer *b = l->cur;
        if (b != NULL && b->epoch == epoch && fits(b, size)) {
            CUpti_Activity *r = (CUpti_Activity *)(b->data + b->used);
            memcpy(r, record, size);
            if (__builtin_expect(b->clock_offset != 0, 0)) to_client_clock(r, b->clock_offset);
            b->used += align8(size);
            b->records++;
            if (due > b->due) b->due = due;
            pthread_mutex_unlock(&l->mu);
            return;
        }
        if (b != NULL) {
            if (b->records == 0 && b->epoch != epoch && fits(b, size)) { /* empty: restart it on the new clock */
                b->epoch = epoch;
                b->clock_offset = sim_client_clock_offset();
                continue;
            }
            enqueue_done(b); /* full, or started on another clock: the worker hands it over */
            l->cur = NULL;
        }
        if (l->spare != NULL && fits(l->spare, size)) {
            b = l->cur = l->spare;
            l->spare = NULL;
            b->epoch = epoch;
            b->clock_offset = sim_client_clock_offset();
            continue;
        }
        CUpti_BuffersCallbackRequestFunc request = atomic_load(&request_fn);
        if (request == NULL) break;
        /* Ask on this (the application) thread, without our lock: the
         * client's pool may have locks of its own. */
        pthread_mutex_unlock(&l->mu);
        uint8_t *data = NULL;
        size_t bsize = 0, max_records = 0;
        request(&data, &bsize, &max_records);
        if (data == NULL && sim_version_crashes_on_null_buffer()) crash_like_old_cupti();
        pthread_mutex_lock(&l->mu);
        if (data == NULL || bsize == 0) break;
        struct sim_buffer *nb = desc_new();
        if (nb == NULL) break;
        nb->data = data;
        nb->size = bsize;
        nb->max_records = max_records;
        if (((uintptr_t)data & 7u) != 0 || bsize < size) {
            /* Unusable (CUPTI requires 8-byte alignment): give it back empty
             * and drop the record rather than write out of bounds. */
            enqueue_done(nb);
            break;
        }
        if (l->spare != NULL) enqueue_done(nb); /* lost a race; return it empty */
        else l->spare = nb;
    }
    pthread_mutex_unlock(&l->mu);
    sim_count_drop(drop_slot);
}

/* ---- walks over buffered records ---- */

/* The double's clock at which a GPU record is complete (its end), 0 for any other. */
static uint64_t record_due(const struct sim_buffer *b, CUpti_Activity *r) {
    uint64_t *start, *end;
    if (!sim_gpu_record_times(r, &start, &end) || *end == 0) return 0;
    return (uint64_t)((int64_t)*end - b->clock_offset);
}

static void zero_times(CUpti_Activity *r) {
    uint64_t *start, *end;
    if (!sim_gpu_record_times(r, &start, &end)) return;
    *start = 0;
    *end = 0;
    if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL)
        ((CUpti_ActivityKernel10 *)r)->completed = 0;
}

/*
 * Records of `kind` (any kind for -1) not complete at `now`: zeroed, or (lose)
 * removed from the buffer. Recomputes the buffer's due time.
 */
static void settle_incomplete(struct sim_buffer *b, int kind, uint64_t now, int lose) {
    size_t rd = 0, wr = 0, kept = 0;
    uint64_t due = 0;
    while (rd < b->used) {
        CUpti_Activity *r = (CUpti_Activity *)(b->data + rd);
        size_t step = align8(sim_record_size(r->kind));
        if (step == 0) break; /* cannot happen: the double wrote it */
        uint64_t d = record_due(b, r);
        int hit = d > now && (kind < 0 || (int)r->kind == kind);
        if (hit && !lose) {
            zero_times(r);
            d = 0;
        }
        if (!(hit && lose)) {
            if (wr != rd) memmove(b->data + wr, r, step);
            wr += step;
            kept++;
            if (d > due) due = d;
        }
        rd += step;
    }
    b->used = wr;
    b->records = kept;
    b->due = due;
}

void sim_buffers_kind_disabled(CUpti_ActivityKind kind) {
    if (sim_cfg.disabled_in_flight == SIM_INFLIGHT_KEPT) return;
    int lose = sim_cfg.disabled_in_flight == SIM_INFLIGHT_LOST;
    uint64_t now = sim_gpu_now();
    for (struct sim_lane *l = atomic_load(&lanes); l != NULL; l = l->next) {
        pthread_mutex_lock(&l->mu);
        if (l->cur != NULL && l->cur->due > now) settle_incomplete(l->cur, (int)kind, now, lose);
        pthread_mutex_unlock(&l->mu);
    }
    pthread_mutex_lock(&done_mu);
    for (struct sim_buffer *b = done_head; b != NULL; b = b->next)
        if (b->due > now) settle_incomplete(b, (int)kind, now, lose);
    pthread_mutex_unlock(&done_mu);
}

/* SplitMix64: the same seed and record always give the same answer. */
static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Which invalid shape a complete GPU record gets, or -1. Keyed on what identifies it
 * (kind, correlation id, graph node), not on when it ran, so runs repeat. */
static int invalid_shape_for(CUpti_Activity *r) {
    uint64_t corr = 0, node = 0;
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        corr = ((CUpti_ActivityKernel10 *)r)->correlationId;
        node = ((CUpti_ActivityKernel10 *)r)->graphNodeId;
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        corr = ((CUpti_ActivityMemcpy6 *)r)->correlationId;
        node = ((CUpti_ActivityMemcpy6 *)r)->graphNodeId;
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        corr = ((CUpti_ActivityMemset4 *)r)->correlationId;
        node = ((CUpti_ActivityMemset4 *)r)->graphNodeId;
        break;
    default: return -1;
    }
    uint64_t h = mix(sim_cfg.seed ^ mix(corr ^ mix(node ^ ((uint64_t)r->kind << 56))));
    if ((double)(h >> 11) * 0x1.0p-53 >= sim_cfg.invalid_rate) return -1;
    int n = __builtin_popcount(sim_cfg.invalid_kinds);
    if (n == 0) return -1;
    int pick = (int)(mix(h) % (uint64_t)n);
    for (int s = 0; s < SIM_INVALID_KINDS; s++)
        if ((sim_cfg.invalid_kinds >> s) & 1u) {
            if (pick-- == 0) return s;
        }
    return -1;
}

/* VPROF_SIM_INVALID_TS_RATE: what parcagpu#23 saw after long graph captures. */
static void inject_invalid_timestamps(struct sim_buffer *b) {
    size_t off = 0;
    while (off < b->used) {
        CUpti_Activity *r = (CUpti_Activity *)(b->data + off);
        size_t step = align8(sim_record_size(r->kind));
        if (step == 0) break;
        uint64_t *start, *end;
        int shape;
        if (sim_gpu_record_times(r, &start, &end) && *start != 0 && *end != 0 && (shape = invalid_shape_for(r)) >= 0) {
            switch (shape) {
            case SIM_INVALID_END_BEFORE_START: *end = *start - 1 - (*end - *start); break;
            case SIM_INVALID_START_ZERO: *start = 0; break;
            case SIM_INVALID_END_ZERO: *end = 0; break;
            default: *start = 0; *end = 0; break;
            }
            atomic_fetch_add_explicit(&invalid_counts[shape], 1, memory_order_relaxed);
        }
        off += step;
    }
}

uint64_t sim_invalid_count(int shape) { return atomic_load(&invalid_counts[shape]); }

/* ---- delivery ---- */

/* Takes the first buffer the client may have: complete, or any when forced. */
static struct sim_buffer *take_deliverable(int forced, uint64_t now) {
    pthread_mutex_lock(&done_mu);
    struct sim_buffer *prev = NULL, *b = done_head;
    while (b != NULL && !forced && b->due > now) {
        prev = b;
        b = b->next;
    }
    if (b != NULL) {
        if (prev) prev->next = b->next; else done_head = b->next;
        if (done_tail == b) done_tail = prev;
    }
    pthread_mutex_unlock(&done_mu);
    return b;
}

/* Hands the client every buffer it may have, in order. Caller holds deliver_mu. */
static void deliver_locked(int forced) {
    uint64_t now = sim_gpu_now();
    struct sim_buffer *b;
    while ((b = take_deliverable(forced, now)) != NULL) {
        if (b->due > now) settle_incomplete(b, -1, now, 0); /* forced: no timestamps yet */
        if (sim_cfg.invalid_rate > 0) inject_invalid_timestamps(b);
        CUpti_BuffersCallbackCompleteFunc complete = atomic_load(&complete_fn);
        /* Since CUDA 6 all buffers are global: context NULL, stream 0. */
        if (complete != NULL) complete(NULL, 0, b->data, b->size, b->used);
        pthread_mutex_lock(&done_mu);
        b->next = free_descs;
        free_descs = b;
        pthread_mutex_unlock(&done_mu);
    }
}

/* Moves current buffers to the done queue: those with records (complete ones
 * only unless forced), and with give_back_empty every buffer, spares included. */
static void close_current_buffers(int forced, int give_back_empty, uint64_t now) {
    for (struct sim_lane *l = atomic_load(&lanes); l != NULL; l = l->next) {
        pthread_mutex_lock(&l->mu);
        struct sim_buffer *b = l->cur;
        if (b != NULL && ((b->records > 0 && (forced || b->due <= now)) || give_back_empty)) {
            enqueue_done(b);
            l->cur = NULL;
        }
        if (give_back_empty && l->spare != NULL) {
            enqueue_done(l->spare);
            l->spare = NULL;
        }
        pthread_mutex_unlock(&l->mu);
    }
}

void sim_buffers_flush(int forced, int give_back_empty) {
    if (atomic_load(&complete_fn) == NULL) return;
    /* deliver_mu first: a delivery the worker has started finishes before we
     * return, so everything deliverable before this call has been delivered. */
    pthread_mutex_lock(&deliver_mu);
    close_current_buffers(forced, give_back_empty, sim_gpu_now());
    deliver_locked(forced);
    pthread_mutex_unlock(&deliver_mu);
}

/* ---- the worker thread ---- */

static void *worker_main(void *arg) {
    (void)arg;
    uint64_t last_periodic = sim_now_ns();
    pthread_mutex_lock(&done_mu);
    while (!worker_stop) {
        uint64_t now = sim_now_ns(), gpu_now = sim_gpu_now();
        uint64_t wake = last_periodic + PERIODIC_DELIVERY_NS;
        int deliverable = 0;
        for (struct sim_buffer *b = done_head; b != NULL; b = b->next) {
            if (b->due <= gpu_now) deliverable = 1;
            else if (b->due < wake) wake = b->due;
        }
        if (!deliverable && now < wake) {
            struct timespec deadline = { .tv_sec = (time_t)(wake / 1000000000u), .tv_nsec = (long)(wake % 1000000000u) };
            pthread_cond_timedwait(&worker_cv, &done_mu, &deadline); /* CLOCK_REALTIME, the double's clock */
            continue;
        }
        pthread_mutex_unlock(&done_mu);
        if (now >= last_periodic + PERIODIC_DELIVERY_NS) {
            close_current_buffers(0, 0, gpu_now);
            last_periodic = now;
        }
        pthread_mutex_lock(&deliver_mu);
        deliver_locked(0);
        pthread_mutex_unlock(&deliver_mu);
        pthread_mutex_lock(&done_mu);
    }
    pthread_mutex_unlock(&done_mu);
    return NULL;
}

static void start_worker(void) {
    pthread_mutex_lock(&done_mu);
    if (!worker_running) {
        worker_stop = 0;
        if (pthread_create(&worker, NULL, worker_main, NULL) == 0) {
            worker_running = 1;
            pthread_setname_np(worker, "cuptisim-worker");
        } else {
            fprintf(stderr, "cuptisim: cannot start the buffer worker thread; "
                            "buffers are delivered only by cuptiActivityFlushAll\n");
        }
    }
    pthread_mutex_unlock(&done_mu);
}

void sim_buffers_register(CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed,
                          int per_thread_buffers) {
    atomic_store(&per_thread, per_thread_buffers);
    atomic_store(&request_fn, requested);
    atomic_store(&complete_fn, completed);
    start_worker();
}

int sim_buffers_registered(void) { return atomic_load(&complete_fn) != NULL; }

void sim_buffers_stop_worker(void) {
    pthread_mutex_lock(&done_mu);
    int running = worker_running;
    pthread_t t = worker;
    worker_stop = 1;
    worker_running = 0;
    pthread_cond_broadcast(&worker_cv);
    pthread_mutex_unlock(&done_mu);
    if (running && !pthread_equal(t, pthread_self())) pthread_join(t, NULL);
    else if (running) pthread_detach(t);
}

void sim_buffers_stop(void) {
    sim_buffers_stop_worker();
    atomic_store(&request_fn, NULL);
    atomic_store(&complete_fn, NULL);
}

/* A forked child has no worker thread and must not wait on locks held by
 * threads that no longer exist. */
static void after_fork_in_child(void) {
    pthread_mutex_init(&done_mu, NULL);
    pthread_mutex_init(&deliver_mu, NULL);
    pthread_mutex_init(&lanes_mu, NULL);
    pthread_cond_init(&worker_cv, NULL);
    for (struct sim_lane *l = atomic_load(&lanes); l != NULL; l = l->next) {
        pthread_mutex_init(&l->mu, NULL);
        if (l != my_lane) l->owned = 0; /* only the forking thread lives on */
    }
    worker_running = 0;
    worker_stop = 0;
}

__attribute__((constructor)) static void install_fork_handler(void) {
    pthread_atfork(NULL, NULL, after_fork_in_child);
}
