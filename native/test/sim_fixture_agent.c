/*
 * A minimal CUPTI client used as CUDA_INJECTION64_PATH by sim_simgpu_test:
 * it proves that vprof-simgpu injects like libcuda and that the double's
 * records agree with the program's own counts. Not vprof's agent, and naive
 * on purpose where vprof's agent must not be (it disables and force-flushes
 * inside cudaProfilerStop's callback).
 *
 * SIM_FIXTURE_MODE=profiler (default): kernels are recorded between
 *   cuProfilerStart and cuProfilerStop (driver ids, so each call counts once).
 * SIM_FIXTURE_MODE=always: kernels are recorded from initialization on.
 * SIM_FIXTURE_NVTX=1: at initialization it names its CUPTI as NVTX's
 *   injection (as vprof's agent does) and counts NVTX callbacks.
 * At exit it prints one line:
 *   fixture-report: pid=P kernels=N drops=D duration_sum=S graph_kernels=N
 *     zero_ts=N end_before_start=N start_zero=N end_zero=N devices=MASK
 *     rank=R local_rank=L world_size=W request_threads=N nvtx_callbacks=N allreduces=N
 *     allreduce_first_end=T allreduce_end_offsets=S
 * (rank, local_rank, world_size: the environment at InitializeInjection, -1 if unset;
 * devices: a bit per device id seen in kernel records.)
 */
#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define BUFFER_SIZE (1u << 20)
#define MAX_TIDS 256

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long kernels, duration_sum, graph_kernels, zero_ts, end_before_start, start_zero, end_zero,
    devices, nvtx_callbacks;
static size_t drops;
static int rank = -1, local_rank = -1, world_size = -1;
static pid_t request_tids[MAX_TIDS];
static int n_request_tids;
static CUpti_SubscriberHandle subscriber;

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = aligned_alloc(8, BUFFER_SIZE);
    *size = *buffer ? BUFFER_SIZE : 0;
    *max_records = 0;
    pid_t tid = gettid();
    pthread_mutex_lock(&mu);
    int seen = 0;
    for (int i = 0; i < n_request_tids; i++) seen |= request_tids[i] == tid;
    if (!seen && n_request_tids < MAX_TIDS) request_tids[n_request_tids++] = tid;
    pthread_mutex_unlock(&mu);
}

/* NCCL all-reduce ends, for the rendezvous test: the first one, and every one's distance from it. */
static unsigned long long allreduces, allreduce_first_end, allreduce_end_offsets;

static void tally_kernel(const CUpti_ActivityKernel10 *k) {
    kernels++;
    if (k->name != NULL && strstr(k->name, "AllReduce") != NULL && k->end != 0) {
        if (allreduces++ == 0) allreduce_first_end = k->end;
        allreduce_end_offsets += k->end - allreduce_first_end;
    }
    if (k->graphId != 0) graph_kernels++;
    if (k->deviceId < 64) devices |= 1ull << k->deviceId;
    if (k->start == 0 && k->end == 0) zero_ts++;
    else if (k->start == 0) start_zero++;
    else if (k->end == 0) end_zero++;
    else if (k->end < k->start) end_before_start++;
    else duration_sum += k->end - k->start;
}

static void CUPTIAPI completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    (void)ctx; (void)stream; (void)size;
    pthread_mutex_lock(&mu);
    CUpti_Activity *r = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) tally_kernel((const CUpti_ActivityKernel10 *)r);
    size_t d = 0;
    cuptiActivityGetNumDroppedRecords(NULL, 0, &d);
    drops += d;
    pthread_mutex_unlock(&mu);
    free(buffer);
}

static void CUPTIAPI on_callback(void *u, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)u;
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        __atomic_fetch_add(&nvtx_callbacks, 1, __ATOMIC_RELAXED);
        return;
    }
    const CUpti_CallbackData *cd = data;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart && cd->callbackSite == CUPTI_API_EXIT)
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop && cd->callbackSite == CUPTI_API_ENTER) {
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    }
}

static void report(void) {
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    pthread_mutex_lock(&mu);
    fprintf(stderr,
            "fixture-report: pid=%d kernels=%llu drops=%zu duration_sum=%llu graph_kernels=%llu zero_ts=%llu "
            "end_before_start=%llu start_zero=%llu end_zero=%llu devices=%llu rank=%d local_rank=%d world_size=%d "
            "request_threads=%d nvtx_callbacks=%llu allreduces=%llu allreduce_first_end=%llu allreduce_end_offsets=%llu\n",
            (int)getpid(), kernels, drops, duration_sum, graph_kernels, zero_ts, end_before_start, start_zero, end_zero,
            devices, rank, local_rank, world_size, n_request_tids, nvtx_callbacks, allreduces, allreduce_first_end,
            allreduce_end_offsets);
    pthread_mutex_unlock(&mu);
}

static int env_int(const char *name) {
    const char *v = getenv(name);
    return v ? atoi(v) : -1;
}

EXPORT int InitializeInjection(void) {
    const char *mode = getenv("SIM_FIXTURE_MODE");
    rank = env_int("RANK");
    local_rank = env_int("LOCAL_RANK");
    world_size = env_int("WORLD_SIZE");
    if (cuptiSubscribe(&subscriber, on_callback, NULL) != CUPTI_SUCCESS) return 0;
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    if (getenv("SIM_FIXTURE_NVTX") != NULL) {
        Dl_info cupti;
        if (dladdr((void *)cuptiGetVersion, &cupti) && cupti.dli_fname) setenv("NVTX_INJECTION64_PATH", cupti.dli_fname, 0);
        cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX);
    }
    cuptiActivityRegisterCallbacks(requested, completed);
    if (mode != NULL && strcmp(mode, "always") == 0) cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    atexit(report);
    fprintf(stderr, "fixture: pid=%d initialized\n", (int)getpid());
    return 1;
}
