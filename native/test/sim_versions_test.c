/*
 * The CUPTI test double's version switch (VPROF_SIM_CUPTI_VERSION) and the
 * version-gated field behaviours behind it: a NULL buffer crashes CUPTI before
 * API version 27 (VPROF_SIM_CRASH_ON_NULL_BUFFER), and 13.0 GA deadlocks in
 * cuptiActivityDisable(CONCURRENT_KERNEL) called from an API callback
 * (VPROF_SIM_DISABLE_DEADLOCK), modelled as a bounded hang, then abort.
 */
#include "sim_client.h"

TEST(theVersionIsTheHeadersUnlessATestSetsIt) {
    uint32_t v = 0;
    EXPECT_EQ(cuptiGetVersion(&v), CUPTI_SUCCESS);
    EXPECT_EQ(v, CUPTI_API_VERSION);
    sim_switch("VPROF_SIM_CUPTI_VERSION", "130000");
    EXPECT_EQ(cuptiGetVersion(&v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 130000);
    sim_switch("VPROF_SIM_CUPTI_VERSION", "26");
    EXPECT_EQ(cuptiGetVersion(&v), CUPTI_SUCCESS);
    EXPECT_EQ(v, 26);
    sim_switch("VPROF_SIM_CUPTI_VERSION", NULL);
    EXPECT_EQ(cuptiGetVersion(NULL), CUPTI_ERROR_INVALID_PARAMETER);
}

/* A child that refuses CUPTI a buffer; it exits 0 if CUPTI only counted a drop. */
static void refuse_a_buffer(void) {
    client_setup(1 << 16, 4);
    client.give_none = 1;
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_launch_kernel(0, "k", GRID, BLOCK, 1000);
    size_t dropped = 0;
    cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped);
    _exit(dropped == 1 ? 0 : 3);
}

TEST(aNullBufferCrashesCuptiBeforeApiVersion27) {
    sim_switch("VPROF_SIM_CUPTI_VERSION", "26"); /* CUDA 12.8 */
    int status = child_status(refuse_a_buffer);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    sim_switch("VPROF_SIM_CUPTI_VERSION", "27"); /* CUDA 12.9: counted */
    status = child_status(refuse_a_buffer);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sim_switch("VPROF_SIM_CUPTI_VERSION", NULL);
    status = child_status(refuse_a_buffer);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(theNullBufferCrashFollowsItsSwitchWhateverTheVersion) {
    sim_switch("VPROF_SIM_CUPTI_VERSION", "26");
    sim_switch("VPROF_SIM_CRASH_ON_NULL_BUFFER", "0");
    int status = child_status(refuse_a_buffer);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sim_switch("VPROF_SIM_CUPTI_VERSION", NULL);
    sim_switch("VPROF_SIM_CRASH_ON_NULL_BUFFER", "1");
    status = child_status(refuse_a_buffer);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    sim_switch("VPROF_SIM_CRASH_ON_NULL_BUFFER", NULL);
}

/* Disables the kernel kind where vprof's agent did: in cudaProfilerStop's callback. */
static void disable_in_stop(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData *d) {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000 &&
        d->callbackSite == CUPTI_API_ENTER)
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

static void stop_with_disable_in_callback(void) {
    client_setup(1 << 16, 4);
    on_api_call = disable_in_stop;
    cuptiEnableCallback(1, client_handle, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    simcuda_profiler_stop();
    _exit(0);
}

static void disable_outside_callbacks(void) {
    client_setup(1 << 16, 4);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    _exit(0);
}

TEST(cupti13GaHangsThenAbortsWhenTheKernelKindIsDisabledInACallback) {
    sim_switch("VPROF_SIM_DEADLOCK_MS", "100");
    sim_switch("VPROF_SIM_CUPTI_VERSION", "130000");
    uint64_t t0 = realtime_ns();
    int status = child_status(stop_with_disable_in_callback);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    EXPECT_GE(realtime_ns() - t0, 100000000ull); /* it hung first */
    status = child_status(disable_outside_callbacks); /* the bug needs the callback */
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sim_switch("VPROF_SIM_CUPTI_VERSION", "130001"); /* 13.0 Update 1 fixed it */
    status = child_status(stop_with_disable_in_callback);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sim_switch("VPROF_SIM_DISABLE_DEADLOCK", "1"); /* forced on for any version */
    status = child_status(stop_with_disable_in_callback);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    sim_switch("VPROF_SIM_DISABLE_DEADLOCK", NULL);
    sim_switch("VPROF_SIM_CUPTI_VERSION", NULL);
    sim_switch("VPROF_SIM_DEADLOCK_MS", NULL);
}

TEST(aSwitchValueThatDoesNotParseKeepsTheDefault) {
    sim_switch("VPROF_SIM_CUPTI_VERSION", "thirteen"); /* says so on stderr */
    uint32_t v = 0;
    EXPECT_EQ(cuptiGetVersion(&v), CUPTI_SUCCESS);
    EXPECT_EQ(v, CUPTI_API_VERSION);
    sim_switch("VPROF_SIM_CUPTI_VERSION", NULL);
}

TEST_MAIN(
    CASE(theVersionIsTheHeadersUnlessATestSetsIt),
    CASE(aNullBufferCrashesCuptiBeforeApiVersion27),
    CASE(theNullBufferCrashFollowsItsSwitchWhateverTheVersion),
    CASE(cupti13GaHangsThenAbortsWhenTheKernelKindIsDisabledInACallback),
    CASE(aSwitchValueThatDoesNotParseKeepsTheDefault),
)
