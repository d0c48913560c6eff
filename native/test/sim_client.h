/*
 * sim_client.h: a minimal CUPTI client for the tests of the CUPTI test double
 * (a buffer pool, a copy of every record delivered, a log of API callbacks).
 * The double's state that lasts for a process (NVTX's one injection, a
 * profiling session that has ended, shutdown) needs a FRESH case (test.h).
 *
 * Include it in one test file; everything is static.
 */
#ifndef VPROF_TEST_SIM_CLIENT_H
#define VPROF_TEST_SIM_CLIENT_H

#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/simgpu_driver.h"
#include "test.h"

/* Helpers a test file may not use. */
#define HELPER static __attribute__((unused))

static const simcuda_dim3 GRID = { 132, 1, 1 }, BLOCK = { 128, 1, 1 };

/* ---- what the client received ---- */

#define CLIENT_POOL 64
#define CLIENT_KEEP 4096
union client_record {
    CUpti_Activity any;
    CUpti_ActivityKernel10 kernel;
    CUpti_ActivityMemcpy6 memcpy;
    CUpti_ActivityMemset4 memset;
    CUpti_ActivityAPI api;
    CUpti_ActivityMarker2 marker;
    CUpti_ActivityDevice5 device;
    CUpti_ActivityGraphTrace2 graph;
};

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t buffer_size;
    uint8_t *free[CLIENT_POOL];
    int nfree;
    int give_none;
    long buffers, records, by_kind[CUPTI_ACTIVITY_KIND_COUNT];
    union client_record kept[CLIENT_KEEP];
    int buffer_of[CLIENT_KEEP];        /* which delivery each kept record came in */
    uint64_t delivered_at[CLIENT_KEEP]; /* the double's clock when it came */
    long nkept;
    pid_t request_tids[CLIENT_POOL];   /* threads bufferRequested was called on */
    long requests;
} client = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

HELPER uint64_t realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void CUPTIAPI client_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    pthread_mutex_lock(&client.mu);
    *buffer = NULL;
    *size = 0;
    *max_records = 0;
    if (client.requests < CLIENT_POOL) client.request_tids[client.requests] = gettid();
    client.requests++;
    if (!client.give_none && client.nfree > 0) {
        *buffer = client.free[--client.nfree];
        *size = client.buffer_size;
    }
    pthread_mutex_unlock(&client.mu);
}

static void CUPTIAPI client_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    (void)ctx; (void)stream; (void)size;
    pthread_mutex_lock(&client.mu);
    uint64_t now = realtime_ns();
    CUpti_Activity *r = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
        client.records++;
        if (r->kind < CUPTI_ACTIVITY_KIND_COUNT) client.by_kind[r->kind]++;
        if (client.nkept < CLIENT_KEEP) {
            size_t n = r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL ? sizeof(CUpti_ActivityKernel10)
                     : r->kind == CUPTI_ACTIVITY_KIND_MEMCPY ? sizeof(CUpti_ActivityMemcpy6)
                     : r->kind == CUPTI_ACTIVITY_KIND_MEMSET ? sizeof(CUpti_ActivityMemset4)
                     : r->kind == CUPTI_ACTIVITY_KIND_DEVICE ? sizeof(CUpti_ActivityDevice5)
                     : r->kind == CUPTI_ACTIVITY_KIND_GRAPH_TRACE ? sizeof(CUpti_ActivityGraphTrace2)
                     : r->kind == CUPTI_ACTIVITY_KIND_MARKER ? sizeof(CUpti_ActivityMarker2)
                     : sizeof(CUpti_ActivityAPI);
            memcpy(&client.kept[client.nkept], r, n);
            client.buffer_of[client.nkept] = (int)client.buffers;
            client.delivered_at[client.nkept] = now;
            client.nkept++;
        }
    }
    client.buffers++;
    if (client.nfree < CLIENT_POOL) client.free[client.nfree++] = buffer;
    pthread_cond_broadcast(&client.cv);
    pthread_mutex_unlock(&client.mu);
}

/* The kept records of a kind, in delivery order: the i-th, or NULL. */
HELPER union client_record *client_nth(CUpti_ActivityKind kind, long i) {
    for (long k = 0; k < client.nkept; k++)
        if (client.kept[k].any.kind == kind && i-- == 0) return &client.kept[k];
    return NULL;
}

/* ---- API callbacks ---- */

#define CALLS_MAX 256
static struct {
    int n;
    CUpti_CallbackDomain domain[CALLS_MAX];
    CUpti_CallbackId cbid[CALLS_MAX];
    int site[CALLS_MAX];
    uint32_t correlation[CALLS_MAX];
} calls;
static void (*on_api_call)(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData *d);

static void CUPTIAPI client_callback(void *u, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)u;
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const CUpti_CallbackData *d = data;
    if (calls.n < CALLS_MAX) {
        calls.domain[calls.n] = domain;
        calls.cbid[calls.n] = cbid;
        calls.site[calls.n] = d->callbackSite;
        calls.correlation[calls.n] = d->correlationId;
        calls.n++;
    }
    if (on_api_call) on_api_call(domain, cbid, d);
}

static CUpti_SubscriberHandle client_handle;

/* Subscribes, registers `n` buffers of `size` bytes; nothing kept from before. */
HELPER void client_setup(size_t size, int n) {
    pthread_mutex_lock(&client.mu);
    for (int i = 0; i < client.nfree; i++) free(client.free[i]);
    client.nfree = 0;
    client.buffer_size = size;
    client.give_none = 0;
    client.buffers = client.records = client.nkept = client.requests = 0;
    memset(client.by_kind, 0, sizeof client.by_kind);
    for (int i = 0; i < n && i < CLIENT_POOL; i++) client.free[client.nfree++] = aligned_alloc(8, size);
    pthread_mutex_unlock(&client.mu);
    memset(&calls, 0, sizeof calls);
    on_api_call = NULL;
    if (cuptiSubscribe(&client_handle, client_callback, NULL) != CUPTI_SUCCESS ||
        cuptiActivityRegisterCallbacks(client_requested, client_completed) != CUPTI_SUCCESS) {
        fprintf(stderr, "client_setup: CUPTI refused\n");
        exit(1);
    }
}

/* client_setup, then a new stream whose kernels are recorded: where most cases begin. */
HELPER simcuda_stream client_setup_kernels(size_t size, int n) {
    client_setup(size, n);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    return s;
}

/* Finalize hands every buffer back and leaves CUPTI free for the next test. */
HELPER void client_teardown(void) {
    cuptiUnsubscribe(client_handle);
    cuptiFinalize();
    size_t ignored;
    cuptiActivityGetNumDroppedRecords(NULL, 0, &ignored);
}

/* Waits (10 s failsafe) until `pred` holds, under the client lock. */
HELPER int client_await(int (*pred)(void)) {
    pthread_mutex_lock(&client.mu);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    int ok;
    while (!(ok = pred()) && pthread_cond_timedwait(&client.cv, &client.mu, &deadline) == 0) {
    }
    if (!ok) ok = pred();
    pthread_mutex_unlock(&client.mu);
    return ok;
}

/* Sets (or with NULL unsets) a VPROF_SIM_* switch and has the double read it. */
HELPER void sim_switch(const char *name, const char *value) {
    if (value) setenv(name, value, 1);
    else unsetenv(name);
    simcuda_config_reload();
}

/* ---- processes ---- */

/* Runs `fn` in a forked child and returns how the child ended (a wait status). */
HELPER int child_status(void (*fn)(void)) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

#endif
