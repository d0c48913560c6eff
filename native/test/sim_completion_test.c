/*
 * The CUPTI test double's asynchronous completion (VPROF_SIM_COMPLETION,
 * VPROF_SIM_DISABLED_IN_FLIGHT): GPU work completes after its launch returns,
 * flushes return only what their flag allows, and work in flight when its
 * kind is disabled is lost, zeroed or kept.
 */
#include "sim_client.h"

#define MS 1000000ull

static long kernels_delivered(void) { return client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]; }

static int a_default_flush_waits_until_the_kernel_has_completed(void) {
    int ok = 1;
    client_setup(1 << 16, 4);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    uint64_t before = realtime_ns();
    simcuda_launch_kernel(s, "k", GRID, BLOCK, 200 * MS);
    CHECK(realtime_ns() - before < 200 * MS); /* the launch did not wait for the kernel */
    CHECK(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);
    CHECK(kernels_delivered() == 0); /* in flight: its buffer is not complete */
    simcuda_synchronize();
    CHECK(cuptiActivityFlushAll(0) == CUPTI_SUCCESS);
    CHECK(kernels_delivered() == 1);
    const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
    CHECK(k->start >= before && k->end == k->start + 200 * MS && k->completed == k->end);
    CHECK(client.delivered_at[0] >= k->end);
    client_teardown();
    return ok;
}

static int a_forced_flush_returns_incomplete_records_without_timestamps(void) {
    int ok = 1;
    client_setup(1 << 16, 4);
    simcuda_stream a = simcuda_stream_create(), b = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_launch_kernel(a, "done", GRID, BLOCK, 1000);
    simcuda_synchronize();
    simcuda_launch_kernel(b, "running", GRID, BLOCK, 300 * MS); /* not waited for */
    CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
    CHECK(kernels_delivered() == 2);
    const CUpti_ActivityKernel10 *done = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
    const CUpti_ActivityKernel10 *running = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 1)->kernel;
    CHECK(strcmp(done->name, "done") == 0 && done->start != 0 && done->end == done->start + 1000);
    /* H13: incomplete = timestamps not filled; everything else is there */
    CHECK(strcmp(running->name, "running") == 0 && running->start == 0 && running->end == 0 && running->completed == 0);
    CHECK(running->correlationId != 0 && running->streamId == b && running->gridX == 132);
    client_teardown();
    return ok;
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

static int work_in_flight_when_its_kind_is_disabled_is_lost_by_default(void) {
    int ok = 1;
    client_setup(1 << 16, 4);
    launch_then_disable(simcuda_stream_create());
    CHECK(kernels_delivered() == 3);
    for (long i = 0; i < kernels_delivered(); i++)
        CHECK(strcmp(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel.name, "done") == 0);
    client_teardown();
    return ok;
}

static int with_zero_work_in_flight_at_disable_comes_back_without_timestamps(void) {
    int ok = 1;
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", "zero");
    client_setup(1 << 16, 4);
    launch_then_disable(simcuda_stream_create());
    CHECK(kernels_delivered() == 5);
    int zeroed = 0;
    for (long i = 0; i < kernels_delivered(); i++) {
        const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel;
        if (k->start == 0 && k->end == 0) zeroed += strcmp(k->name, "in_flight") == 0;
    }
    CHECK(zeroed == 2);
    client_teardown();
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", NULL);
    return ok;
}

static int with_kept_work_in_flight_at_disable_completes_normally(void) {
    int ok = 1;
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", "kept");
    client_setup(1 << 16, 4);
    launch_then_disable(simcuda_stream_create());
    CHECK(kernels_delivered() == 5);
    for (long i = 0; i < kernels_delivered(); i++) {
        const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i)->kernel;
        CHECK(k->start != 0 && k->end > k->start);
    }
    client_teardown();
    sim_switch("VPROF_SIM_DISABLED_IN_FLIGHT", NULL);
    return ok;
}

static int memcpy_and_memset_complete_asynchronously_too(void) {
    int ok = 1;
    client_setup(1 << 16, 4);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    simcuda_launch_kernel(s, "ahead", GRID, BLOCK, 40 * MS); /* the copy and set queue behind it */
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 1 << 20, s);
    simcuda_memset(1 << 20, 0, s);
    cuptiActivityFlushAll(0);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_MEMCPY] == 0 && client.by_kind[CUPTI_ACTIVITY_KIND_MEMSET] == 0);
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_MEMCPY] == 1 && client.by_kind[CUPTI_ACTIVITY_KIND_MEMSET] == 1);
    const CUpti_ActivityMemcpy6 *m = &client_nth(CUPTI_ACTIVITY_KIND_MEMCPY, 0)->memcpy;
    const CUpti_ActivityMemset4 *z = &client_nth(CUPTI_ACTIVITY_KIND_MEMSET, 0)->memset;
    CHECK(m->start != 0 && z->start >= m->end);
    client_teardown();
    return ok;
}

static long full_buffers_target;
static int enough_buffers(void) { return client.buffers >= full_buffers_target; }

static int the_worker_returns_a_full_buffer_only_once_its_records_are_complete(void) {
    int ok = 1;
    /* 4 KiB holds 18 kernel records: 36 kernels of 5 ms fill two buffers */
    client_setup(4096, 8);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    for (int i = 0; i < 37; i++) simcuda_launch_kernel(s, "k", GRID, BLOCK, 5 * MS);
    full_buffers_target = 2;
    CHECK(client_await(enough_buffers)); /* no flush: the worker delivers full buffers */
    pthread_mutex_lock(&client.mu);
    for (long i = 0; i < client.nkept; i++)
        CHECK(client.delivered_at[i] >= client.kept[i].kernel.end); /* never before its work ended */
    pthread_mutex_unlock(&client.mu);
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    CHECK(kernels_delivered() == 37);
    client_teardown();
    return ok;
}

static int with_at_launch_records_are_complete_when_written(void) {
    int ok = 1;
    sim_switch("VPROF_SIM_COMPLETION", "at-launch");
    client_setup(1 << 16, 4);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_launch_kernel(s, "k", GRID, BLOCK, 300 * MS);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityFlushAll(0);
    CHECK(kernels_delivered() == 1 && client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel.end != 0);
    client_teardown();
    sim_switch("VPROF_SIM_COMPLETION", NULL);
    return ok;
}

/* The process ends with a 10-s kernel still queued: the context's teardown
 * completes it, so the at-exit flush delivers it whole, without sleeping. */
static int shutdown_completes_issued_work_without_waiting_for_it(void) {
    int ok = 1;
    client_setup(1 << 16, 4);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_launch_kernel(s, "long", GRID, BLOCK, 10000 * MS);
    uint64_t t0 = realtime_ns();
    simcuda_shutdown();
    CHECK(realtime_ns() - t0 < 5000 * MS);
    CHECK(kernels_delivered() == 1);
    const CUpti_ActivityKernel10 *k = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
    CHECK(k->start != 0 && k->end == k->start + 10000 * MS);
    return ok;
}

int main(int argc, char **argv) {
    static const struct sim_test tests[] = {
        TEST(a_default_flush_waits_until_the_kernel_has_completed),
        TEST(a_forced_flush_returns_incomplete_records_without_timestamps),
        TEST(work_in_flight_when_its_kind_is_disabled_is_lost_by_default),
        TEST(with_zero_work_in_flight_at_disable_comes_back_without_timestamps),
        TEST(with_kept_work_in_flight_at_disable_completes_normally),
        TEST(memcpy_and_memset_complete_asynchronously_too),
        TEST(the_worker_returns_a_full_buffer_only_once_its_records_are_complete),
        TEST(with_at_launch_records_are_complete_when_written),
        FRESH(shutdown_completes_issued_work_without_waiting_for_it),
    };
    return run_tests(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
