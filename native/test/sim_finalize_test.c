/*
 * cuptiFinalize in the CUPTI test double (buffers back, subscription gone, a
 * later client starts afresh), the launch cost a capture leaves until then
 * (VPROF_SIM_POST_CAPTURE_COST_NS, PyTorch #146604), and a client's
 * timestamp callback (cuptiActivityRegisterTimestampCallback).
 */
#include "sim_client.h"

static int finalize_returns_every_buffer_and_drops_the_subscription(void) {
    int ok = 1;
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiEnableCallback(1, client_handle, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
    for (int i = 0; i < 3; i++) simcuda_launch_kernel(s, "k", GRID, BLOCK, 1000);
    simcuda_synchronize();
    long handed_out = client.requests;
    CHECK(cuptiFinalize() == CUPTI_SUCCESS);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] == 3);
    CHECK(client.buffers == handed_out); /* every buffer CUPTI held, records or not */
    int before = calls.n;
    simcuda_launch_kernel(s, "after", GRID, BLOCK, 1000); /* no callback, no record */
    CHECK(calls.n == before);
    CHECK(cuptiActivityFlushAll(0) == CUPTI_ERROR_INVALID_OPERATION); /* callbacks forgotten */
    CHECK(cuptiEnableCallback(1, client_handle, CUPTI_CB_DOMAIN_RUNTIME_API, 1) == CUPTI_ERROR_INVALID_PARAMETER);
    /* a new client (Kineto re-attaching) starts from scratch */
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_launch_kernel(s, "again", GRID, BLOCK, 1000);
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] == 1);
    client_teardown();
    return ok;
}

/* Finalize from an API exit callback, as H13 recommends. */
static int finalized_in_callback;
static void finalize_on_exit(CUpti_CallbackDomain d, CUpti_CallbackId cbid, const CUpti_CallbackData *cd) {
    (void)d;
    (void)cbid;
    if (cd->callbackSite == CUPTI_API_EXIT && !finalized_in_callback) {
        finalized_in_callback = 1;
        cuptiFinalize();
    }
}

static int finalize_from_an_api_exit_callback_detaches_cleanly(void) {
    int ok = 1;
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    on_api_call = finalize_on_exit;
    cuptiEnableCallback(1, client_handle, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
    simcuda_launch_kernel(0, "k", GRID, BLOCK, 1000);
    CHECK(finalized_in_callback == 1);
    CHECK(client.buffers >= 1); /* the kernel's buffer came back, incomplete or not */
    CHECK(cuptiSubscribe(&client_handle, client_callback, NULL) == CUPTI_SUCCESS); /* free again */
    cuptiUnsubscribe(client_handle);
    return ok;
}

/* Thread CPU time of n kernel launches, in ns per launch. */
static double launch_cost(int n) {
    simcuda_stream s = simcuda_stream_create();
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (int i = 0; i < n; i++) simcuda_launch_kernel(s, "k", GRID, BLOCK, 10);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
}

/* 1 us a launch against about 50 ns without: far beyond any noise of a loaded machine. */
static int a_capture_leaves_a_launch_cost_until_finalize(void) {
    int ok = 1;
    sim_switch("VPROF_SIM_POST_CAPTURE_COST_NS", "1000");
    client_setup(1 << 16, 8);
    double before = launch_cost(20000);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    double after_capture = launch_cost(20000);
    cuptiUnsubscribe(client_handle);
    cuptiFinalize();
    double after_finalize = launch_cost(20000);
    printf("    ns per launch: %.0f before, %.0f after a capture, %.0f after cuptiFinalize\n", before, after_capture,
           after_finalize);
    CHECK(after_capture > before + 500);
    CHECK(after_finalize < before + 500);
    sim_switch("VPROF_SIM_POST_CAPTURE_COST_NS", "0"); /* off: nothing stays */
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    double untaxed = launch_cost(20000);
    CHECK(untaxed < before + 500);
    client_teardown();
    sim_switch("VPROF_SIM_POST_CAPTURE_COST_NS", NULL);
    return ok;
}

static uint64_t monotonic_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int records_after_a_timestamp_callback_carry_the_clients_clock(void) {
    int ok = 1;
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_launch_kernel(s, "before", GRID, BLOCK, 1000);
    CHECK(cuptiActivityRegisterTimestampCallback(NULL) == CUPTI_ERROR_INVALID_PARAMETER);
    CHECK(cuptiActivityRegisterTimestampCallback(monotonic_clock) == CUPTI_SUCCESS);
    uint64_t t = 0, mono = monotonic_clock();
    cuptiGetTimestamp(&t);
    CHECK(t >= mono && t - mono < 1000000000ull); /* cuptiGetTimestamp follows it */
    simcuda_launch_kernel(s, "after", GRID, BLOCK, 1000);
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] == 2);
    const CUpti_ActivityKernel10 *a = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
    const CUpti_ActivityKernel10 *b = &client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 1)->kernel;
    CHECK(strcmp(a->name, "before") == 0 && a->start > realtime_ns() - 60000000000ull); /* CLOCK_REALTIME */
    CHECK(strcmp(b->name, "after") == 0 && b->start < mono + 60000000000ull && b->start + 60000000000ull > mono);
    CHECK(b->end == b->start + 1000);
    client_teardown(); /* finalize forgets the callback */
    cuptiGetTimestamp(&t);
    CHECK(t > realtime_ns() - 60000000000ull);
    return ok;
}

int main(int argc, char **argv) {
    static const struct sim_test tests[] = {
        TEST(finalize_returns_every_buffer_and_drops_the_subscription),
        TEST(finalize_from_an_api_exit_callback_detaches_cleanly),
        TEST(a_capture_leaves_a_launch_cost_until_finalize),
        TEST(records_after_a_timestamp_callback_carry_the_clients_clock),
    };
    return run_tests(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
