/*
 * cuptisim_activity.c: the activity half of the CUPTI test double.
 *
 * Buffer rules, as CUPTI documents them:
 *  - bufferRequested is called on the application thread that produces a
 *    record when no current buffer has room; a NULL or too small buffer means
 *    the record is dropped and counted for cuptiActivityGetNumDroppedRecords.
 *  - Records are 8-byte aligned; a reader walks them with
 *    cuptiActivityGetNextRecord, which knows each kind's size.
 *  - bufferCompleted is called on a worker thread the double owns as soon as a
 *    buffer is full, for a partially filled buffer once a second (as with a
 *    flush period), and on the calling thread inside cuptiActivityFlushAll.
 *
 * Locks: `buf_mu` guards the current buffer, the spare and the completed
 * queue, and is never held while a client callback runs. `deliver_mu` orders
 * deliveries (one bufferCompleted at a time, in order) and is held across
 * bufferCompleted, so a client must not call cuptiActivityFlushAll from
 * inside its bufferCompleted (CUPTI forbids that too).
 */
#include "sim/cuptisim_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Atomic uint8_t sim_kind_enabled[CUPTI_ACTIVITY_KIND_COUNT];

/* A partially filled buffer goes to the client after this long, so a live
 * consumer sees records without forcing flushes. */
#define PERIODIC_DELIVERY_NS 1000000000ull

struct sim_buffer {
    uint8_t *data;
    size_t size;
    size_t used;
    size_t max_records; /* 0: as many as fit */
    size_t records;
    struct sim_buffer *next;
};

static pthread_mutex_t buf_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t worker_cv = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t deliver_mu = PTHREAD_MUTEX_INITIALIZER;

static _Atomic(CUpti_BuffersCallbackRequestFunc) request_fn;
static _Atomic(CUpti_BuffersCallbackCompleteFunc) complete_fn;

/* Under buf_mu. */
static struct sim_buffer *current;
static struct sim_buffer *spare;       /* handed out by the client, not yet in use */
static struct sim_buffer *done_head, *done_tail;
static struct sim_buffer *free_descs;  /* recycled descriptors */
static int worker_running, worker_stop;
static pthread_t worker;

static _Atomic uint64_t drops[SIM_MAX_STREAMS + 1];

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static size_t record_size(CUpti_ActivityKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_MARKER: return sizeof(CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: return sizeof(CUpti_ActivityAPI);
    default: return 0;
    }
}

static struct sim_buffer *desc_new(void) { /* under buf_mu */
    struct sim_buffer *b = free_descs;
    if (b != NULL) {
        free_descs = b->next;
    } else {
        b = malloc(sizeof *b);
        if (b == NULL) return NULL;
    }
    memset(b, 0, sizeof *b);
    return b;
}

static void enqueue_done(struct sim_buffer *b) { /* under buf_mu */
    b->next = NULL;
    if (done_tail) done_tail->next = b; else done_head = b;
    done_tail = b;
    pthread_cond_signal(&worker_cv);
}

static struct sim_buffer *dequeue_done(void) { /* under buf_mu */
    struct sim_buffer *b = done_head;
    if (b) {
        done_head = b->next;
        if (!done_head) done_tail = NULL;
    }
    return b;
}

static int fits(const struct sim_buffer *b, size_t size) {
    return b->used + size <= b->size && (b->max_records == 0 || b->records < b->max_records);
}

void sim_emit(const void *record, size_t size, unsigned drop_slot) {
    pthread_mutex_lock(&buf_mu);
    for (;;) {
        if (current != NULL && fits(current, size)) {
            memcpy(current->data + current->used, record, size);
            current->used += align8(size);
            current->records++;
            pthread_mutex_unlock(&buf_mu);
            return;
        }
        if (current != NULL) { /* full: the worker hands it over */
            enqueue_done(current);
            current = NULL;
        }
        if (spare != NULL) {
            current = spare;
            spare = NULL;
            continue;
        }
        CUpti_BuffersCallbackRequestFunc request = atomic_load(&request_fn);
        if (request == NULL) break;
        /* Ask on this (the application) thread, without our lock: the
         * client's pool may have locks of its own. */
        pthread_mutex_unlock(&buf_mu);
        uint8_t *data = NULL;
        size_t bsize = 0, max_records = 0;
        request(&data, &bsize, &max_records);
        pthread_mutex_lock(&buf_mu);
        if (data == NULL || bsize == 0) break;
        struct sim_buffer *b = desc_new();
        if (b == NULL) break;
        b->data = data;
        b->size = bsize;
        b->max_records = max_records;
        if (((uintptr_t)data & 7u) != 0 || bsize < size) {
            /* Unusable (CUPTI requires 8-byte alignment): give it back empty
             * and drop the record rather than write out of bounds. */
            enqueue_done(b);
            break;
        }
        if (spare != NULL) enqueue_done(b); /* lost a race; return it empty */
        else spare = b;
    }
    pthread_mutex_unlock(&buf_mu);
    atomic_fetch_add_explicit(&drops[drop_slot], 1, memory_order_relaxed);
}

/* Hands every completed buffer to the client, in order. Caller holds deliver_mu. */
static void deliver_done_locked(void) {
    for (;;) {
        pthread_mutex_lock(&buf_mu);
        struct sim_buffer *b = dequeue_done();
        pthread_mutex_unlock(&buf_mu);
        if (b == NULL) break;
        CUpti_BuffersCallbackCompleteFunc complete = atomic_load(&complete_fn);
        /* Since CUDA 6 all buffers are global: context NULL, stream 0. */
        if (complete != NULL) complete(NULL, 0, b->data, b->size, b->used);
        pthread_mutex_lock(&buf_mu);
        b->next = free_descs;
        free_descs = b;
        pthread_mutex_unlock(&buf_mu);
    }
}

static void *worker_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&buf_mu);
    while (!worker_stop) {
        if (done_head == NULL) {
            struct timespec deadline;
            clock_gettime(CLOCK_REALTIME, &deadline);
            deadline.tv_sec += (time_t)(PERIODIC_DELIVERY_NS / 1000000000ull);
            int rc = pthread_cond_timedwait(&worker_cv, &buf_mu, &deadline);
            if (rc == ETIMEDOUT && done_head == NULL && current != NULL && current->records > 0) {
                enqueue_done(current);
                current = NULL;
            }
        }
        if (worker_stop) break;
        if (done_head != NULL) {
            pthread_mutex_unlock(&buf_mu);
            pthread_mutex_lock(&deliver_mu);
            deliver_done_locked();
            pthread_mutex_unlock(&deliver_mu);
            pthread_mutex_lock(&buf_mu);
        }
    }
    pthread_mutex_unlock(&buf_mu);
    return NULL;
}

static void start_worker(void) {
    pthread_mutex_lock(&buf_mu);
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
    pthread_mutex_unlock(&buf_mu);
}

void sim_activity_stop_worker(void) {
    pthread_mutex_lock(&buf_mu);
    int running = worker_running;
    pthread_t t = worker;
    worker_stop = 1;
    worker_running = 0;
    pthread_cond_broadcast(&worker_cv);
    pthread_mutex_unlock(&buf_mu);
    if (running && !pthread_equal(t, pthread_self())) pthread_join(t, NULL);
    else if (running) pthread_detach(t);
}

void sim_activity_reset(void) {
    for (int k = 0; k < CUPTI_ACTIVITY_KIND_COUNT; k++) atomic_store(&sim_kind_enabled[k], 0);
    atomic_store(&request_fn, NULL);
    atomic_store(&complete_fn, NULL);
    for (int i = 0; i <= SIM_MAX_STREAMS; i++) atomic_store(&drops[i], 0);
}

/* A forked child has no worker thread and must not wait on locks held by
 * threads that no longer exist. */
static void after_fork_in_child(void) {
    pthread_mutex_init(&buf_mu, NULL);
    pthread_mutex_init(&deliver_mu, NULL);
    pthread_cond_init(&worker_cv, NULL);
    worker_running = 0;
    worker_stop = 0;
}

__attribute__((constructor)) static void install_fork_handler(void) {
    pthread_atfork(NULL, NULL, after_fork_in_child);
}

CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested,
                                           CUpti_BuffersCallbackCompleteFunc completed) {
    if (requested == NULL || completed == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    atomic_store(&request_fn, requested);
    atomic_store(&complete_fn, completed);
    start_worker();
    return CUPTI_SUCCESS;
}

static int producible(CUpti_ActivityKind kind) { return kind > CUPTI_ACTIVITY_KIND_INVALID && kind < CUPTI_ACTIVITY_KIND_COUNT; }

CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
    if (!producible(kind)) return CUPTI_ERROR_INVALID_KIND;
    atomic_store(&sim_kind_enabled[kind], 1);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
    if (!producible(kind)) return CUPTI_ERROR_INVALID_KIND;
    atomic_store(&sim_kind_enabled[kind], 0);
    return CUPTI_SUCCESS;
}

/* forced: also the partially filled current buffer; give_back_empty: also
 * buffers without records (at finalize, so the client gets every buffer back). */
static void flush(int forced, int give_back_empty) {
    /* deliver_mu first: a delivery the worker has started finishes before we
     * return, so everything produced before this call has been delivered. */
    pthread_mutex_lock(&deliver_mu);
    pthread_mutex_lock(&buf_mu);
    if (forced && current != NULL && (current->records > 0 || give_back_empty)) {
        enqueue_done(current);
        current = NULL;
    }
    if (give_back_empty && spare != NULL) {
        enqueue_done(spare);
        spare = NULL;
    }
    pthread_mutex_unlock(&buf_mu);
    deliver_done_locked();
    pthread_mutex_unlock(&deliver_mu);
}

void sim_activity_give_back_buffers(void) {
    if (atomic_load(&complete_fn) != NULL) flush(1, 1);
}

CUptiResult cuptiActivityFlushAll(uint32_t flag) {
    if (atomic_load(&complete_fn) == NULL) return CUPTI_ERROR_INVALID_OPERATION;
    flush((flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0, 0);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record) {
    if (buffer == NULL || record == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    size_t offset = 0;
    if (*record != NULL) {
        uint8_t *prev = (uint8_t *)*record;
        size_t size = record_size((*record)->kind);
        if (prev < buffer || size == 0) return CUPTI_ERROR_INVALID_KIND;
        offset = (size_t)(prev - buffer) + align8(size);
    }
    if (offset + sizeof(CUpti_ActivityKind) > valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    CUpti_Activity *next = (CUpti_Activity *)(buffer + offset);
    size_t size = record_size(next->kind);
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
