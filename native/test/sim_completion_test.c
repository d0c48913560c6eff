/*
 * The CUPTI test double's asynchronous completion (VPROF_SIM_COMPLETION,
 * VPROF_SIM_DISABLED_IN_FLIGHT): GPU work completes after its launch returns,
 * flushes return only what their flag allows, and work in flight when its
 * kind is disabled is lost, zeroed or kept.
 */
#include "sim_client.h"

#define MS 1000000ull

static long kernels_delivered(void) { return client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]; }

TEST(aDefaultFlushWaitsUntilTheKernelHasCompleted) {
    simcuda_stream s = client_setup_kernels(1 << 16, 4);
    uint64_t before = realtime_ns();
    simcuda_launch_kernel(s, "k", GRID, BLOCK, 200 * MS);
    EXPECT_LT(realtime_ns() - before, 200 * MS); /* the launch did not wait for the kernel */
    EXPECT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
    EXPECT_EQ(kernels_delivered(), 0); /* in flight: its buffer is not complete */
    simcuda_synchronize();
    EXPECT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
    EXPECT_EQ(kernels_delivered(), 1);
    const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
    EXPECT_GE(k->start, before);
    EXPECT_EQ(k->end, k->start + 200 * MS);
    EXPECT_EQ(k->completed, k->end);
    EXPECT_GE(client.delivered_at[0], k->end);
    client_teardown();
}

TEST(aForcedFlushReturnsIncompleteRecordsWithoutTimestamps) {
    client_setup(1 << 16, 4);
    simcuda_stream a = simcuda_stream_create(), b = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_launch_kernel(a, "done", GRID, BLOCK, 1000);
    simcuda_synchronize();
    simcuda_launch_kernel(b, "running", GRID, BLOCK, 300 * MS); /* not waited for */
    EXPECT_EQ(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
    EXPECT_EQ(kernels_delivered(), 2);
    const CUpti_ActivityKernel10 *done = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
    const CUpti_ActivityKernel10 *running = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 1)->kernel;
    EXPECT_STREQ(done->name, "done");
    EXPECT_NE(done->start, 0);
    EXPECT_EQ(done->end, done->start + 1000);
    /* H13: incomplete = timestamps not filled; everything else is there */
    EXPECT_STREQ(running->name, "running");
    EXPECT_EQ(running->start, 0);
    EXPECT_EQ(running->end, 0);
    EXPECT_EQ(running->completed, 0);
    EXPECT_NE(running->correlationId, 0);
    EXPECT_EQ(running->streamId, b);
    EXPECT_EQ(running->gridX, 132);
    client_teardown();
}

/* Three kernels done, two in flight, then the kind is disabled. */
static void launch_then_disable(simcuda_stream s) {
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    for (int i = 0; i < 3; i++) simcuda_launch_kernel(s, "done", GRID, BLOCK, 1000);
    simcuda_synchronize();
    for (int i = 0; i < 2; i++) simcuda_launch_kernel(s, "in_flight", GRID, BLOCK, 30 * MS);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_synchronize(); /* too late: they were in flight when their kind went off */
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

TEST(workInFlightWhenItsKindIsDisabledIsLostByDefault) {
    client_setup(1 << 16, 4);
    launch_then_disable(simcuda_stream_create());
    EXPECT_EQ(kernels_delivered(), 3);
    for (long i = 0; i < kernels_delivered(); i++)
        EXPECT_STREQ(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel.name, "done");
    client_teardown();
}

TEST(withZeroWorkInFlightAtDisableComesBackWithoutTimestamps) {
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", "zero");
    client_setup(1 << 16, 4);
    launch_then_disable(simcuda_stream_create());
    EXPECT_EQ(kernels_delivered(), 5);
    int zeroed = 0;
    for (long i = 0; i < kernels_delivered(); i++) {
        const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel;
        if (k->start == 0 && k->end == 0) zeroed += strcmp(k->name, "in_flight") == 0;
    }
    EXPECT_EQ(zeroed, 2);
    client_teardown();
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", NULL);
}

TEST(withKeptWorkInFlightAtDisableCompletesNormally) {
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", "kept");
    client_setup(1 << 16, 4);
    launch_then_disable(simcuda_stream_create());
    EXPECT_EQ(kernels_delivered(), 5);
    for (long i = 0; i < kernels_delivered(); i++) {
        const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel;
        EXPECT_NE(k->start, 0);
        EXPECT_GT(k->end, k->start);
    }
    client_teardown();
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", NULL);
}

TEST(memcpyAndMemsetCompleteAsynchronouslyToo) {
    client_setup(1 << 16, 4);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    simcuda_launch_kernel(s, "ahead", GRID, BLOCK, 40 * MS); /* the copy and set queue behind it */
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 1 << 20, s);
    simcuda_memset(1 << 20, 0, s);
    cuptiActivityFlushAll(0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MEMCPY], 0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MEMSET], 0);
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MEMCPY], 1);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MEMSET], 1);
    const CUpti_ActivityMemcpy6 *m = &client_nth(CUPTI_ACTIVITY_KIND_MEMCPY, 0)->memcpy;
    const CUpti_ActivityMemset4 *z = &client_nth(CUPTI_ACTIVITY_KIND_MEMSET, 0)->memset;
    EXPECT_NE(m->start, 0);
    EXPECT_GE(z->start, m->end);
    client_teardown();
}

static long full_buffers_target;
static int enough_buffers(void) { return client.buffers >= full_buffers_target; }

TEST(theWorkerReturnsAFullBufferOnlyOnceItsRecordsAreComplete) {
    /* 4 KiB holds 18 kernel records: 36 kernels of 5 ms fill two buffers */
    simcuda_stream s = client_setup_kernels(4096, 8);
    for (int i = 0; i < 37; i++) simcuda_launch_kernel(s, "k", GRID, BLOCK, 5 * MS);
    full_buffers_target = 2;
    EXPECT(client_await(enough_buffers)); /* no flush: the worker delivers full buffers */
    pthread_mutex_lock(&client.mu);
    for (long i = 0; i < client.nkept; i++)
        EXPECT_GE(client.delivered_at[i], client.kept[i].kernel.end); /* never before its work ended */
    pthread_mutex_unlock(&client.mu);
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    EXPECT_EQ(kernels_delivered(), 37);
    client_teardown();
}

TEST(withAtLaunchRecordsAreCompleteWhenWritten) {
    sim_switch("VPROF_SIM_COMPLETION", "at-launch");
    simcuda_stream s = client_setup_kernels(1 << 16, 4);
    simcuda_launch_kernel(s, "k", GRID, BLOCK, 300 * MS);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityFlushAll(0);
    EXPECT_EQ(kernels_delivered(), 1);
    EXPECT_NE(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel.end, 0);
    client_teardown();
    sim_switch("VPROF_SIM_COMPLETION", NULL);
}

/* The process ends with a 10-s kernel still queued: the context's teardown
 * completes it, so the at-exit flush delivers it whole, without sleeping. */
TEST(shutdownCompletesIssuedWorkWithoutWaitingForIt) {
    simcuda_stream s = client_setup_kernels(1 << 16, 4);
    simcuda_launch_kernel(s, "long", GRID, BLOCK, 10000 * MS);
    uint64_t t0 = realtime_ns();
    simcuda_shutdown();
    EXPECT_LT(realtime_ns() - t0, 5000 * MS);
    EXPECT_EQ(kernels_delivered(), 1);
    const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
    EXPECT_NE(k->start, 0);
    EXPECT_EQ(k->end, k->start + 10000 * MS);
}

TEST_MAIN(
    CASE(aDefaultFlushWaitsUntilTheKernelHasCompleted),
    CASE(aForcedFlushReturnsIncompleteRecordsWithoutTimestamps),
    CASE(workInFlightWhenItsKindIsDisabledIsLostByDefault),
    CASE(withZeroWorkInFlightAtDisableComesBackWithoutTimestamps),
    CASE(withKeptWorkInFlightAtDisableCompletesNormally),
    CASE(memcpyAndMemsetCompleteAsynchronouslyToo),
    CASE(theWorkerReturnsAFullBufferOnlyOnceItsRecordsAreComplete),
    CASE(withAtLaunchRecordsAreCompleteWhenWritten),
    FRESH(shutdownCompletesIssuedWorkWithoutWaitingForIt),
)
