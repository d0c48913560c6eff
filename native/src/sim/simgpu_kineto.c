/*
 * simgpu_kineto.c: a second CUPTI client inside the simulated process, in the
 * manner of Kineto (torch.profiler's CUPTI layer, pytorch/kineto at 114171d):
 *
 *  start: cuptiActivityRegisterCallbacks with its own 4 MB buffers, an
 *         optional cuptiActivityRegisterTimestampCallback (its TSC option),
 *         cuptiActivityEnable of its kinds, unconditionally and without a
 *         subscription (CuptiActivityApi.cpp);
 *  stop:  a device synchronize (torch.autograd.profiler.profile.__exit__
 *         synchronizes before it stops Kineto), cuptiActivityDisable of those
 *         kinds, a forced flush, then its
 *         teardown (CUDA 12.6+ default, kineto#1264): cuptiSubscribe and
 *         cuptiFinalize from the next API exit callback; if the subscribe
 *         fails (another tool holds CUPTI) it only logs "skipping teardown".
 *
 * In legacy CUPTI the buffer callbacks are process-wide: whoever registered
 * last gets every buffer, including buffers another client handed out. Kineto
 * does not recognise those ("bufferCompleted called with unknown buffer") and
 * drops them; so does this client, counting them.
 */
#include "sim/simgpu_kineto.h"
#include "sim/simgpu_driver.h"

#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KINETO_BUFFER_SIZE (4u * 1024 * 1024) /* "to reduce contention" (kineto#685) */
#define MAX_OUTSTANDING 4096

static const CUpti_ActivityKind KINDS[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
};
#define N_KINDS (sizeof KINDS / sizeof KINDS[0])

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *outstanding[MAX_OUTSTANDING]; /* buffers it handed to CUPTI */
static int n_outstanding;
static _Atomic uint64_t records, kernels, foreign_buffers, teardowns, teardowns_skipped;
static CUpti_SubscriberHandle teardown_subscriber;
static _Atomic int teardown_pending;

static void CUPTIAPI kineto_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = aligned_alloc(8, KINETO_BUFFER_SIZE);
    *size = *buffer != NULL ? KINETO_BUFFER_SIZE : 0;
    *max_records = 0;
    pthread_mutex_lock(&mu);
    if (*buffer != NULL && n_outstanding < MAX_OUTSTANDING) outstanding[n_outstanding++] = *buffer;
    pthread_mutex_unlock(&mu);
}

static int take_own(uint8_t *buffer) {
    pthread_mutex_lock(&mu);
    int own = 0;
    for (int i = 0; i < n_outstanding; i++) {
        if (outstanding[i] == buffer) {
            outstanding[i] = outstanding[--n_outstanding];
            own = 1;
            break;
        }
    }
    pthread_mutex_unlock(&mu);
    return own;
}

static void CUPTIAPI kineto_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    (void)ctx; (void)stream; (void)size;
    if (!take_own(buffer)) { /* another client's buffer: not ours to read or free */
        atomic_fetch_add(&foreign_buffers, 1);
        return;
    }
    CUpti_Activity *r = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
        atomic_fetch_add_explicit(&records, 1, memory_order_relaxed);
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL)
            atomic_fetch_add_explicit(&kernels, 1, memory_order_relaxed);
    }
    free(buffer);
}

/* Kineto's approximate clock (a TSC); here CLOCK_MONOTONIC, far from CUPTI's CLOCK_REALTIME. */
static uint64_t CUPTIAPI kineto_time(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void CUPTIAPI kineto_callback(void *u, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)u; (void)cbid;
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const CUpti_CallbackData *d = data;
    if (d->callbackSite == CUPTI_API_EXIT && atomic_exchange(&teardown_pending, 0)) {
        cuptiFinalize(); /* drops this subscription too */
        atomic_fetch_add(&teardowns, 1);
    }
}

void simgpu_kineto_start(int tsc) {
    cuptiActivityRegisterCallbacks(kineto_requested, kineto_completed);
    if (tsc) cuptiActivityRegisterTimestampCallback(kineto_time);
    for (size_t i = 0; i < N_KINDS; i++) cuptiActivityEnable(KINDS[i]);
}

void simgpu_kineto_stop(int synchronize) {
    if (synchronize) simcuda_synchronize();
    for (size_t i = 0; i < N_KINDS; i++) cuptiActivityDisable(KINDS[i]);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    CUptiResult r = cuptiSubscribe(&teardown_subscriber, kineto_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        const char *why = NULL;
        cuptiGetResultString(r, &why);
        fprintf(stderr, "kineto-like client: cuptiSubscribe failed (%s), skipping teardown\n", why ? why : "?");
        atomic_fetch_add(&teardowns_skipped, 1);
        return;
    }
    atomic_store(&teardown_pending, 1);
    cuptiEnableDomain(1, teardown_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
}

void simgpu_kineto_stats(struct simgpu_kineto_stats *out) {
    out->records = atomic_load(&records);
    out->kernels = atomic_load(&kernels);
    out->foreign_buffers = atomic_load(&foreign_buffers);
    out->teardowns = atomic_load(&teardowns);
    out->teardowns_skipped = atomic_load(&teardowns_skipped);
}
