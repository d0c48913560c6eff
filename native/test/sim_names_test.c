/*
 * Kernel names in the CUPTI test double: one address per name for the life of
 * the process by default; with VPROF_SIM_NAME_REUSE_EVERY=N a module reload
 * every N recorded launches puts another kernel's name at the same address.
 */
#include "sim_client.h"

static const char *const LAUNCHED[] = { "kernel_a", "kernel_b", "kernel_a", "kernel_b", "kernel_a", "kernel_b" };
#define N (int)(sizeof LAUNCHED / sizeof LAUNCHED[0])

/* Launches LAUNCHED in order; records each record's name pointer and what it said on arrival. */
static void launch_all(const char *ptr[N], char said[N][32]) {
    simcuda_stream s = client_setup_kernels(1 << 16, 8);
    for (int i = 0; i < N; i++) {
        simcuda_launch_kernel(s, LAUNCHED[i], GRID, BLOCK, 1000);
        simcuda_synchronize();
        cuptiActivityFlushAll(0); /* each record read right after its launch, as a live agent would */
        const union client_record *r = client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i);
        ptr[i] = r ? r->kernel.name : NULL;
        snprintf(said[i], 32, "%s", r && r->kernel.name ? r->kernel.name : "");
    }
    client_teardown();
}

TEST(byDefaultOneNameHasOneAddress) {
    const char *ptr[N];
    char said[N][32];
    launch_all(ptr, said);
    for (int i = 0; i < N; i++) {
        EXPECT_STREQ(said[i], LAUNCHED[i]);
        for (int j = 0; j < N; j++) EXPECT_EQ(ptr[i] == ptr[j], strcmp(LAUNCHED[i], LAUNCHED[j]) == 0);
    }
}

TEST(aModuleReloadPutsAnotherNameAtTheSameAddress) {
    sim_switch("VPROF_SIM_NAME_REUSE_EVERY", "2");
    const char *ptr[N];
    char said[N][32];
    launch_all(ptr, said);
    for (int i = 0; i < N; i++) EXPECT_STREQ(said[i], LAUNCHED[i]); /* right when it arrived */
    /* launches 0 and 3 ran different kernels from the same address */
    EXPECT_EQ(ptr[0], ptr[3]);
    EXPECT_NE(strcmp(LAUNCHED[0], LAUNCHED[3]), 0);
    EXPECT_EQ(ptr[1], ptr[2]);
    EXPECT_NE(strcmp(LAUNCHED[1], LAUNCHED[2]), 0);
    EXPECT_STREQ(ptr[0], "kernel_a"); /* two reloads later: back where it started */
    sim_switch("VPROF_SIM_NAME_REUSE_EVERY", NULL);
}

TEST_MAIN(
    CASE(byDefaultOneNameHasOneAddress),
    CASE(aModuleReloadPutsAnotherNameAtTheSameAddress),
)
