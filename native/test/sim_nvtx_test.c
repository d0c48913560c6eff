/*
 * NVTX in the CUPTI test double reaches CUPTI only through NVTX's one-time
 * injection load: NVTX_INJECTION64_PATH naming CUPTI (here, the double) at
 * the program's first NVTX call. Each test runs in a fresh process, since
 * NVTX looks for its injection once per process.
 */
#include "sim_client.h"

#include "cupti_abi.h" /* with the NVTX parameter structs */

static int nvtx_callbacks;
static void CUPTIAPI count_nvtx(void *u, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)u; (void)cbid; (void)data;
    nvtx_callbacks += domain == CUPTI_CB_DOMAIN_NVTX;
}

static CUpti_SubscriberHandle nvtx_sub;

static void subscribe_for_nvtx(void) {
    client_setup(1 << 16, 8);
    cuptiUnsubscribe(client_handle); /* keep the buffers, take NVTX callbacks here */
    cuptiSubscribe(&nvtx_sub, count_nvtx, NULL);
    cuptiEnableDomain(1, nvtx_sub, CUPTI_CB_DOMAIN_NVTX);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER);
}

static const char *double_path(void) {
    Dl_info self;
    return dladdr((void *)cuptiGetVersion, &self) && self.dli_fname ? self.dli_fname : "";
}

static void push_pop(const char *name) {
    simcuda_nvtx_push(name);
    simcuda_nvtx_pop();
}

TEST(nvtxNamedBeforeItsFirstCallReachesCupti) {
    setenv("NVTX_INJECTION64_PATH", double_path(), 1);
    push_pop("before_init"); /* NVTX before CUDA: the injection loads here */
    subscribe_for_nvtx();
    simcuda_init();
    push_pop("after_init");
    cuptiActivityFlushAll(0);
    EXPECT_EQ(nvtx_callbacks, 2);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MARKER], 2);
}

/* What an agent that sets the variable at cuInit meets when NVTX came first. */
TEST(nvtxFirstCalledWithoutTheVariableStaysDarkForGood) {
    unsetenv("NVTX_INJECTION64_PATH");
    push_pop("before_init");
    setenv("NVTX_INJECTION64_PATH", double_path(), 1); /* too late */
    subscribe_for_nvtx();
    simcuda_init();
    push_pop("after_init");
    simcuda_nvtx_domain_push("vllm", "decode");
    simcuda_nvtx_domain_pop("vllm");
    cuptiActivityFlushAll(0);
    EXPECT_EQ(nvtx_callbacks, 0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_MARKER], 0);
}

TEST(anInjectionWithoutNvtxInitLeavesNvtxDark) {
    setenv("NVTX_INJECTION64_PATH", "libc.so.6", 1); /* loads, has no InitializeInjectionNvtx2 */
    subscribe_for_nvtx();
    push_pop("r");
    setenv("NVTX_INJECTION64_PATH", "/nonexistent/libcupti.so", 1);
    push_pop("r");
    EXPECT_EQ(nvtx_callbacks, 0);
}

TEST_MAIN(
    FRESH(nvtxNamedBeforeItsFirstCallReachesCupti),
    FRESH(nvtxFirstCalledWithoutTheVariableStaysDarkForGood),
    FRESH(anInjectionWithoutNvtxInitLeavesNvtxDark),
)
