/*
 * The CUPTI test double's activity buffers per thread
 * (CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, 1 by default since CUDA 13)
 * and its activity attributes (device-buffer size and pool limit among them).
 */
#include "sim_client.h"

#define THREADS 4
#define LAUNCHES 10

static void *launch_some(void *arg) {
    (void)arg;
    simcuda_stream s = simcuda_stream_create();
    for (int i = 0; i < LAUNCHES; i++) simcuda_launch_kernel(s, "k", GRID, BLOCK, 1000);
    return NULL;
}

static void launch_from_threads(void) {
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, launch_some, NULL);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    simcuda_synchronize();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

/* How many delivered buffers held API records of more than one thread. */
static int mixed_buffers(void) {
    int mixed = 0;
    for (long b = 0; b < client.buffers; b++) {
        uint32_t tid = 0;
        int mix = 0;
        for (long i = 0; i < client.nkept; i++) {
            if (client.buffer_of[i] != b || client.kept[i].any.kind != CUPTI_ACTIVITY_KIND_RUNTIME) continue;
            if (tid == 0) tid = client.kept[i].api.threadId;
            else if (client.kept[i].api.threadId != tid) mix = 1;
        }
        mixed += mix;
    }
    return mixed;
}

static int distinct_request_threads(void) {
    int n = 0;
    for (long i = 0; i < client.requests && i < CLIENT_POOL; i++) {
        int seen = 0;
        for (long j = 0; j < i; j++) seen |= client.request_tids[j] == client.request_tids[i];
        n += !seen;
    }
    return n;
}

TEST(eachLaunchingThreadHasABufferOfItsOwnByDefault) {
    uint8_t v = 0;
    size_t size = sizeof v;
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 1);
    cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    client_setup(1 << 16, 16);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME); /* API records say which thread */
    launch_from_threads();
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL], THREADS * LAUNCHES);
    EXPECT_EQ(client.requests, THREADS);               /* one request per thread ... */
    EXPECT_EQ(distinct_request_threads(), THREADS);    /* ... on that thread */
    EXPECT_EQ(client.buffers, THREADS);
    EXPECT_EQ(mixed_buffers(), 0);
    client_teardown();
}

TEST(withTheAttributeOffBeforeRegisteringThreadsShareOneBuffer) {
    uint8_t off = 0;
    size_t size = sizeof off;
    EXPECT_EQ(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &off), CUPTI_SUCCESS);
    cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    client_setup(1 << 16, 16);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
    launch_from_threads();
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL], THREADS * LAUNCHES);
    EXPECT_EQ(client.buffers, 1);
    EXPECT_EQ(mixed_buffers(), 1);
    client_teardown(); /* finalize: the attribute is back to its default */
    uint8_t v = 0;
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 1);
}

TEST(cuda12VersionsShareOneBufferByDefault) {
    sim_switch("VPROF_SIM_CUPTI_VERSION", "28"); /* 12.9 Update 1 */
    uint8_t v = 1;
    size_t size = sizeof v;
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 0);
    sim_switch("VPROF_SIM_CUPTI_VERSION", NULL);
}

/* A thread that exits hands its buffer over; its records are not lost. */
TEST(aFinishedThreadsRecordsAreDelivered) {
    client_setup(1 << 16, 16);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    pthread_t t;
    pthread_create(&t, NULL, launch_some, NULL);
    pthread_join(t, NULL);
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL], LAUNCHES);
    client_teardown();
}

TEST(deviceBufferAttributesReadBackWhatWasSet) {
    size_t v = 0, size = sizeof v;
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &size, &v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 3200000);
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, &size, &v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 250);
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, &size, &v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 3);
    size_t limit = 8;
    EXPECT_EQ(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, &size, &limit), CUPTI_SUCCESS);
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, &size, &v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 8);
    limit = 250;
    cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, &size, &limit);
    size_t small = 4;
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &small, &v),
              CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT);
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_POOL_SIZE, &size, &v),
              CUPTI_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, NULL, &v), CUPTI_ERROR_INVALID_PARAMETER);
    EXPECT_EQ(cuptiActivityGetAttribute((CUpti_ActivityAttribute)999, &size, &v), CUPTI_ERROR_INVALID_PARAMETER);
}

/* Tracing holds the pre-allocated device buffers: cudaMemGetInfo shows them. */
TEST(tracingTakesDeviceMemoryForCuptisBuffers) {
    uint64_t free0 = 0, total = 0, free1 = 0;
    simcuda_mem_get_info(&free0, &total);
    EXPECT_EQ(total, 141000000000ull);
    EXPECT_EQ(free0, total);
    client_setup(1 << 16, 4);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_mem_get_info(&free1, &total);
    EXPECT_EQ(free0 - free1, 3u * 3200000u);
    client_teardown(); /* finalize frees them */
    simcuda_mem_get_info(&free1, &total);
    EXPECT_EQ(free1, free0);
}

TEST_MAIN(
    CASE(eachLaunchingThreadHasABufferOfItsOwnByDefault),
    CASE(withTheAttributeOffBeforeRegisteringThreadsShareOneBuffer),
    CASE(cuda12VersionsShareOneBufferByDefault),
    CASE(aFinishedThreadsRecordsAreDelivered),
    CASE(deviceBufferAttributesReadBackWhatWasSet),
    CASE(tracingTakesDeviceMemoryForCuptisBuffers),
)
