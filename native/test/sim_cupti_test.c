/*
 * Tests of the CUPTI test double through its public faces only: the cupti*
 * functions an agent calls and the simcuda_* driver API. A tiny in-test
 * subscriber (a buffer pool and a callback log) stands in for the agent.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */
#include "sim/simgpu_driver.h"
#include "test.h"


/* ---- the in-test subscriber ---- */

#define POOL_BUFFERS 16
#define NAME_LOG 8
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t buffer_size, max_records;
    int give_none;
    uint8_t *free[POOL_BUFFERS];
    int nfree;
    /* what completed buffers held */
    long kernels, memcpys, memsets, markers, api_records, buffers, other;
    long misaligned, out_of_bounds, over_max;
    pthread_t last_completion_thread;
    long completions_off_main;
    CUpti_ActivityKernel10 first_kernel;
    CUpti_ActivityKernel10 kernels_seen[4];
    CUpti_ActivityMarker2 markers_seen[4];
    CUpti_ActivityMemcpy6 first_memcpy;
} sub = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };
static pthread_t main_thread;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    pthread_mutex_lock(&sub.mu);
    *buffer = NULL;
    *size = 0;
    *max_records = sub.max_records;
    if (!sub.give_none && sub.nfree > 0) {
        *buffer = sub.free[--sub.nfree];
        *size = sub.buffer_size;
    }
    pthread_mutex_unlock(&sub.mu);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    (void)ctx; (void)stream;
    pthread_mutex_lock(&sub.mu);
    CUpti_Activity *r = NULL;
    long in_buffer = 0;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
        in_buffer++;
        if (((uintptr_t)r & 7u) != 0) sub.misaligned++;
        if ((uint8_t *)r >= buffer + size) sub.out_of_bounds++;
        switch (r->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            if (sub.kernels < 4) memcpy(&sub.kernels_seen[sub.kernels], r, sizeof sub.first_kernel);
            if (sub.kernels++ == 0) memcpy(&sub.first_kernel, r, sizeof sub.first_kernel);
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            if (sub.memcpys++ == 0) memcpy(&sub.first_memcpy, r, sizeof sub.first_memcpy);
            break;
        case CUPTI_ACTIVITY_KIND_MEMSET: sub.memsets++; break;
        case CUPTI_ACTIVITY_KIND_MARKER:
            if (sub.markers < 4) memcpy(&sub.markers_seen[sub.markers], r, sizeof(CUpti_ActivityMarker2));
            sub.markers++;
            break;
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER: sub.api_records++; break;
        default: sub.other++;
        }
    }
    if (sub.max_records && in_buffer > (long)sub.max_records) sub.over_max++;
    sub.buffers++;
    sub.last_completion_thread = pthread_self();
    if (!pthread_equal(pthread_self(), main_thread)) sub.completions_off_main++;
    if (sub.nfree < POOL_BUFFERS) sub.free[sub.nfree++] = buffer;
    pthread_cond_broadcast(&sub.cv);
    pthread_mutex_unlock(&sub.mu);
}

#define LOG_MAX 32
static struct {
    int n;
    CUpti_CallbackDomain domain[LOG_MAX];
    CUpti_CallbackId cbid[LOG_MAX];
    int site[LOG_MAX]; /* -1 for NVTX (one callback, no site) */
    uint32_t correlation[LOG_MAX];
    char text[LOG_MAX][64]; /* functionName, or the NVTX message/domain name */
} cblog;

/* The i-th logged callback was cbid of domain at site. */
#define EXPECT_CALLBACK(i, dom, id, at) do {   \
        EXPECT_EQ(cblog.domain[i], dom);       \
        EXPECT_EQ(cblog.cbid[i], id);          \
        EXPECT_EQ(cblog.site[i], at);          \
    } while (0)

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)userdata;
    if (cblog.n == LOG_MAX) return;
    int i = cblog.n++;
    cblog.domain[i] = domain;
    cblog.cbid[i] = cbid;
    cblog.site[i] = -1;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        const CUpti_CallbackData *cd = data;
        cblog.site[i] = cd->callbackSite;
        cblog.correlation[i] = cd->correlationId;
        snprintf(cblog.text[i], sizeof cblog.text[i], "%s", cd->functionName);
    } else if (domain == CUPTI_CB_DOMAIN_NVTX) {
        const CUpti_NvtxData *nd = data;
        const char *text = nd->functionName;
        if (cbid == CUPTI_CBID_NVTX_nvtxRangePushA) text = ((const nvtxRangePushA_params *)nd->functionParams)->message;
        if (cbid == CUPTI_CBID_NVTX_nvtxDomainCreateA) text = ((const nvtxDomainCreateA_params *)nd->functionParams)->name;
        if (cbid == CUPTI_CBID_NVTX_nvtxDomainRangePushEx)
            text = ((const nvtxDomainRangePushEx_params *)nd->functionParams)->core.eventAttrib->message.ascii;
        snprintf(cblog.text[i], sizeof cblog.text[i], "%s", text);
    }
}

static CUpti_SubscriberHandle handle;

/* Subscribes and registers a pool of `n` buffers of `size` bytes. */
static void setup(size_t size, int n, size_t max_records) {
    pthread_mutex_lock(&sub.mu);
    for (int i = 0; i < sub.nfree; i++) free(sub.free[i]);
    memset(&sub.kernels, 0, sizeof sub - offsetof(__typeof__(sub), kernels));
    sub.buffer_size = size;
    sub.max_records = max_records;
    sub.give_none = 0;
    sub.nfree = 0;
    for (int i = 0; i < n; i++) sub.free[sub.nfree++] = aligned_alloc(8, size);
    pthread_mutex_unlock(&sub.mu);
    memset(&cblog, 0, sizeof cblog);
    if (cuptiSubscribe(&handle, on_callback, NULL) != CUPTI_SUCCESS) { fprintf(stderr, "subscribe failed\n"); exit(1); }
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) exit(1);
}

/* Buffers the double kept (handed out but never completed) are leaked: the
 * double owns them until completion, as CUPTI does. */
static void teardown(void) {
    cuptiUnsubscribe(handle);
    cuptiFinalize();
    size_t ignored;
    cuptiActivityGetNumDroppedRecords(NULL, 0, &ignored);
}

static const simcuda_dim3 GRID = { 132, 2, 1 }, BLOCK = { 128, 1, 1 };

/* VPROF_SIM_COMPLETION=at-launch for tests about something else than completion. */
static void at_launch_completion(int on) {
    if (on) setenv("VPROF_SIM_COMPLETION", "at-launch", 1);
    else unsetenv("VPROF_SIM_COMPLETION");
    simcuda_config_reload();
}

/* ---- tests ---- */

TEST(recordsAreProducedOnlyWhileTheirKindIsEnabled) {
    setup(1 << 16, 4, 0);
    simcuda_stream s = simcuda_stream_create();
    for (int i = 0; i < 10; i++) simcuda_launch_kernel(s, "before", GRID, BLOCK, 1000);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    for (int i = 0; i < 25; i++) simcuda_launch_kernel(s, "during", GRID, BLOCK, 1000);
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 4096, s); /* MEMCPY is not enabled */
    simcuda_synchronize(); /* work still in flight when its kind is disabled is lost */
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    for (int i = 0; i < 10; i++) simcuda_launch_kernel(s, "after", GRID, BLOCK, 1000);
    EXPECT_EQ(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
    EXPECT_EQ(sub.kernels, 25);
    EXPECT_EQ(sub.memcpys, 0);
    EXPECT_STREQ(sub.first_kernel.name, "during");
    teardown();
}

TEST(kernelRecordsCarryTheLaunchAndAStreamClock) {
    setup(1 << 16, 4, 0);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    char name[32];
    strcpy(name, "flash_fwd_kernel");
    uint64_t before;
    cuptiGetTimestamp(&before);
    simcuda_launch_kernel(s, name, GRID, BLOCK, 5000);
    strcpy(name, "overwritten");          /* the record's name must not change */
    simcuda_synchronize();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const CUpti_ActivityKernel10 *k = &sub.first_kernel;
    EXPECT_EQ(sub.kernels, 1);
    EXPECT_EQ(k->kind, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    EXPECT_STREQ(k->name, "flash_fwd_kernel");
    EXPECT_GE(k->start, before);
    EXPECT_EQ(k->end, k->start + 5000);
    EXPECT_EQ(k->streamId, s);
    EXPECT_EQ(k->deviceId, 0);
    EXPECT_NE(k->contextId, 0);
    EXPECT_EQ(k->gridX, 132);
    EXPECT_EQ(k->gridY, 2);
    EXPECT_EQ(k->gridZ, 1);
    EXPECT_EQ(k->blockX, 128);
    EXPECT_EQ(k->blockY, 1);
    EXPECT_GT(k->registersPerThread, 0);
    EXPECT_NE(k->correlationId, 0);
    EXPECT_EQ(k->graphId, 0);
    EXPECT_EQ(sub.misaligned, 0);
    EXPECT_EQ(sub.out_of_bounds, 0);
    teardown();
}

TEST(workOnOneStreamQueuesAndStreamsOverlap) {
    at_launch_completion(1); /* the clock is the subject here, not when records complete */
    setup(1 << 16, 4, 0);
    simcuda_stream a = simcuda_stream_create(), b = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL);
    /* 10 s of virtual work: nothing here waits for it, it only keeps a busy */
    simcuda_launch_kernel(a, "long", GRID, BLOCK, 10000000000ull);
    simcuda_launch_kernel(a, "queued", GRID, BLOCK, 1000);
    simcuda_launch_kernel(b, "parallel", GRID, BLOCK, 1000);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    EXPECT_EQ(sub.kernels, 3);
    const CUpti_ActivityKernel10 *lng = &sub.kernels_seen[0], *queued = &sub.kernels_seen[1], *parallel = &sub.kernels_seen[2];
    EXPECT_EQ(lng->kind, CUPTI_ACTIVITY_KIND_KERNEL);
    EXPECT_STREQ(lng->name, "long");
    EXPECT_EQ(queued->start, lng->end);
    EXPECT_EQ(queued->end, queued->start + 1000);
    EXPECT_LT(parallel->start, lng->end);
    EXPECT_EQ(parallel->streamId, b);
    EXPECT_EQ(queued->streamId, a);
    teardown();
    at_launch_completion(0);
}

TEST(dropsAreCountedWhenNoBufferIsGivenAndResetWhenRead) {
    setup(1 << 16, 4, 0);
    sub.give_none = 1;
    simcuda_stream s = simcuda_stream_create(), other = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER);
    for (int i = 0; i < 7; i++) simcuda_launch_kernel(s, "k", GRID, BLOCK, 100);
    for (int i = 0; i < 2; i++) simcuda_launch_kernel(other, "k", GRID, BLOCK, 100);
    simcuda_nvtx_push("r");
    simcuda_nvtx_pop();
    size_t dropped = 99;
    EXPECT_EQ(cuptiActivityGetNumDroppedRecords(simcuda_context(), s, &dropped), CUPTI_SUCCESS);
    EXPECT_EQ(dropped, 7);
    EXPECT_EQ(cuptiActivityGetNumDroppedRecords(simcuda_context(), s, &dropped), CUPTI_SUCCESS);
    EXPECT_EQ(dropped, 0);
    /* (NULL, 0): everything else, streams and markers alike, then nothing */
    EXPECT_EQ(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped), CUPTI_SUCCESS);
    EXPECT_EQ(dropped, 4);
    EXPECT_EQ(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped), CUPTI_SUCCESS);
    EXPECT_EQ(dropped, 0);
    /* buffers again: records flow, no new drops */
    sub.give_none = 0;
    simcuda_launch_kernel(s, "k", GRID, BLOCK, 100);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    EXPECT_EQ(sub.kernels, 1);
    EXPECT_EQ(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped), CUPTI_SUCCESS);
    EXPECT_EQ(dropped, 0);
    teardown();
}

TEST(fullBuffersCompleteOnACuptiThreadNotTheLaunchingOne) {
    /* 4 KiB holds 18 kernel records: 100 launches fill several buffers */
    setup(4096, POOL_BUFFERS, 0);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    for (int i = 0; i < 100; i++) simcuda_launch_kernel(0, "k", GRID, BLOCK, 100);
    pthread_mutex_lock(&sub.mu);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10; /* a failsafe, not a timing assertion */
    while (sub.completions_off_main == 0 && pthread_cond_timedwait(&sub.cv, &sub.mu, &deadline) == 0) {
    }
    long off_main = sub.completions_off_main;
    pthread_mutex_unlock(&sub.mu);
    EXPECT_GT(off_main, 0);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    EXPECT_EQ(sub.kernels, 100);
    EXPECT_EQ(sub.misaligned, 0);
    EXPECT_EQ(sub.out_of_bounds, 0);
    teardown();
}

/* Enables kernel records, launches n kernels on the default stream and force-flushes. */
static CUptiResult launch_kernels_and_flush(int n) {
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    for (int i = 0; i < n; i++) simcuda_launch_kernel(0, "k", GRID, BLOCK, 100);
    return cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

TEST(forcedFlushDeliversAPartialBuffer) {
    setup(1 << 20, 2, 0);
    EXPECT_EQ(launch_kernels_and_flush(3), CUPTI_SUCCESS);
    EXPECT_EQ(sub.kernels, 3);
    EXPECT_EQ(sub.buffers, 1);
    teardown();
}

TEST(maxNumRecordsLimitsEachBuffer) {
    setup(1 << 16, POOL_BUFFERS, 5);
    launch_kernels_and_flush(23);
    EXPECT_EQ(sub.kernels, 23);
    EXPECT_EQ(sub.over_max, 0);
    EXPECT_EQ(sub.buffers, 5);
    teardown();
}

TEST(aSecondSubscriberIsRefused) {
    setup(4096, 1, 0);
    CUpti_SubscriberHandle second;
    CUptiResult r = cuptiSubscribe(&second, on_callback, NULL);
    EXPECT_EQ(r, CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    const char *text = NULL;
    EXPECT_EQ(cuptiGetResultString(r, &text), CUPTI_SUCCESS);
    EXPECT_STREQ(text, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    teardown();
    EXPECT_EQ(cuptiSubscribe(&second, on_callback, NULL), CUPTI_SUCCESS); /* free again after unsubscribe */
    cuptiUnsubscribe(second);
}

TEST(profilerCallbacksFireForBothDomainsNested) {
    setup(4096, 1, 0);
    cuptiEnableCallback(1, handle, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
    cuptiEnableCallback(1, handle, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
    cuptiEnableCallback(1, handle, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    cuptiEnableCallback(1, handle, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    simcuda_launch_kernel(0, "not_enabled", GRID, BLOCK, 100); /* launch callbacks are off */
    simcuda_profiler_start();
    simcuda_profiler_stop();
    EXPECT_EQ(cblog.n, 8);
    const CUpti_CallbackDomain RT = CUPTI_CB_DOMAIN_RUNTIME_API, DRV = CUPTI_CB_DOMAIN_DRIVER_API;
    EXPECT_CALLBACK(0, RT, 171, CUPTI_API_ENTER);
    EXPECT_CALLBACK(1, DRV, 308, CUPTI_API_ENTER);
    EXPECT_CALLBACK(2, DRV, 308, CUPTI_API_EXIT);
    EXPECT_CALLBACK(3, RT, 171, CUPTI_API_EXIT);
    EXPECT_EQ(cblog.domain[4], RT);
    EXPECT_EQ(cblog.cbid[4], 172);
    EXPECT_EQ(cblog.domain[5], DRV);
    EXPECT_EQ(cblog.cbid[5], 309);
    EXPECT_STREQ(cblog.text[0], "cudaProfilerStart");
    EXPECT_STREQ(cblog.text[1], "cuProfilerStart");
    EXPECT_NE(cblog.correlation[0], 0);
    EXPECT_EQ(cblog.correlation[0], cblog.correlation[3]);
    /* only what is enabled: turn the runtime ids off */
    cuptiEnableDomain(0, handle, CUPTI_CB_DOMAIN_RUNTIME_API);
    cblog.n = 0;
    simcuda_profiler_start();
    EXPECT_EQ(cblog.n, 2);
    EXPECT_EQ(cblog.domain[0], DRV);
    EXPECT_EQ(cblog.domain[1], DRV);
    teardown();
}

TEST(nvtxCallbacksCarryTheRangeAndDomainNames) {
    setup(4096, 1, 0);
    cuptiEnableDomain(1, handle, CUPTI_CB_DOMAIN_NVTX);
    simcuda_nvtx_push("prefill");
    simcuda_nvtx_pop();
    simcuda_nvtx_domain_push("vllm", "decode");
    simcuda_nvtx_domain_pop("vllm");
    EXPECT_EQ(cblog.n, 5);
    EXPECT_EQ(cblog.cbid[0], CUPTI_CBID_NVTX_nvtxRangePushA);
    EXPECT_STREQ(cblog.text[0], "prefill");
    EXPECT_EQ(cblog.cbid[1], CUPTI_CBID_NVTX_nvtxRangePop);
    EXPECT_EQ(cblog.cbid[2], CUPTI_CBID_NVTX_nvtxDomainCreateA);
    EXPECT_STREQ(cblog.text[2], "vllm");
    EXPECT_EQ(cblog.cbid[3], CUPTI_CBID_NVTX_nvtxDomainRangePushEx);
    EXPECT_STREQ(cblog.text[3], "decode");
    EXPECT_EQ(cblog.cbid[4], CUPTI_CBID_NVTX_nvtxDomainRangePop);
    EXPECT_EQ(cblog.domain[0], CUPTI_CB_DOMAIN_NVTX);
    teardown();
}

TEST(markerRecordsOnlyWhenMarkerIsEnabled) {
    setup(1 << 16, 2, 0);
    simcuda_nvtx_push("unseen");
    simcuda_nvtx_pop();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER);
    simcuda_nvtx_push("step");
    simcuda_nvtx_pop();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    EXPECT_EQ(sub.markers, 2);
    const CUpti_ActivityMarker2 *start = &sub.markers_seen[0], *end = &sub.markers_seen[1];
    EXPECT_EQ(start->flags, CUPTI_ACTIVITY_FLAG_MARKER_START);
    EXPECT_STREQ(start->name, "step");
    EXPECT(start->domain == NULL);
    EXPECT_EQ(end->flags, CUPTI_ACTIVITY_FLAG_MARKER_END);
    EXPECT_EQ(end->id, start->id);
    EXPECT(end->name == NULL);
    EXPECT_GE(end->timestamp, start->timestamp);
    EXPECT_EQ(start->objectKind, CUPTI_ACTIVITY_OBJECT_THREAD);
    teardown();
}

TEST(aLateSubscriberRecordsFromThenOn) {
    simcuda_stream s = simcuda_stream_create();
    for (int i = 0; i < 50; i++) simcuda_launch_kernel(s, "early", GRID, BLOCK, 100); /* nobody listens */
    setup(1 << 16, 4, 0);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    for (int i = 0; i < 5; i++) simcuda_launch_kernel(s, "late", GRID, BLOCK, 100);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    EXPECT_EQ(sub.kernels, 5);
    EXPECT_STREQ(sub.first_kernel.name, "late");
    teardown();
}

TEST(mixedKindsWalkWithGetNextRecord) {
    setup(1 << 16, 4, 0);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 1 << 20, 0);
    simcuda_launch_kernel(0, "k", GRID, BLOCK, 100);
    simcuda_memset(4096, 0, 0);
    simcuda_memcpy(SIMCUDA_MEMCPY_DTOH, 64, 0);
    simcuda_synchronize();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    EXPECT_EQ(sub.kernels, 1);
    EXPECT_EQ(sub.memcpys, 2);
    EXPECT_EQ(sub.memsets, 1);
    EXPECT_EQ(sub.api_records, 4); /* one runtime record per call; DRIVER is off */
    EXPECT_EQ(sub.other, 0);
    EXPECT_EQ(sub.misaligned, 0);
    EXPECT_EQ(sub.first_memcpy.copyKind, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
    EXPECT_EQ(sub.first_memcpy.bytes, 1 << 20);
    EXPECT_GT(sub.first_memcpy.end, sub.first_memcpy.start);
    teardown();
}

static void *launch_many(void *arg) {
    simcuda_stream s = *(simcuda_stream *)arg;
    for (int i = 0; i < 20000; i++) simcuda_launch_kernel(s, "threaded", GRID, BLOCK, 10);
    return NULL;
}

TEST(concurrentLaunchersLoseNothing) {
    setup(1 << 16, POOL_BUFFERS, 0);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    pthread_t t[4];
    simcuda_stream s[4];
    for (int i = 0; i < 4; i++) {
        s[i] = simcuda_stream_create();
        pthread_create(&t[i], NULL, launch_many, &s[i]);
    }
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    size_t dropped = 0;
    cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped);
    /* the pool may run dry while the worker is behind: every record is
     * either delivered or counted as dropped */
    EXPECT_EQ(sub.kernels + (long)dropped, 80000);
    EXPECT_EQ(sub.misaligned, 0);
    EXPECT_EQ(sub.out_of_bounds, 0);
    teardown();
}

TEST(versionIsTheHeaders) {
    uint32_t v = 0;
    EXPECT_EQ(cuptiGetVersion(&v), CUPTI_SUCCESS);
    EXPECT_EQ(v, CUPTI_API_VERSION);
    EXPECT_EQ(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), CUPTI_SUCCESS);
}

int main(int argc, char **argv) {
    main_thread = pthread_self();
    /* NVTX reaches CUPTI only through its injection, named before the first NVTX call. */
    Dl_info self;
    if (dladdr((void *)cuptiGetVersion, &self) == 0 || self.dli_fname == NULL) return 1;
    setenv("NVTX_INJECTION64_PATH", self.dli_fname, 1);
    static const struct test_case cases[] = {
        CASE(versionIsTheHeaders),
        CASE(recordsAreProducedOnlyWhileTheirKindIsEnabled),
        CASE(kernelRecordsCarryTheLaunchAndAStreamClock),
        CASE(workOnOneStreamQueuesAndStreamsOverlap),
        CASE(dropsAreCountedWhenNoBufferIsGivenAndResetWhenRead),
        CASE(fullBuffersCompleteOnACuptiThreadNotTheLaunchingOne),
        CASE(forcedFlushDeliversAPartialBuffer),
        CASE(maxNumRecordsLimitsEachBuffer),
        CASE(aSecondSubscriberIsRefused),
        CASE(profilerCallbacksFireForBothDomainsNested),
        CASE(nvtxCallbacksCarryTheRangeAndDomainNames),
        CASE(markerRecordsOnlyWhenMarkerIsEnabled),
        CASE(aLateSubscriberRecordsFromThenOn),
        CASE(mixedKindsWalkWithGetNextRecord),
        CASE(concurrentLaunchersLoseNothing),
    };
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
