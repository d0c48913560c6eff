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
    client_setup(1 << 16, 8);
    simcuda_stream s = simcuda_stream_create();
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
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

static int by_default_one_name_has_one_address(void) {
    int ok = 1;
    const char *ptr[N];
    char said[N][32];
    launch_all(ptr, said);
    for (int i = 0; i < N; i++) {
        CHECK(strcmp(said[i], LAUNCHED[i]) == 0);
        for (int j = 0; j < N; j++) CHECK((ptr[i] == ptr[j]) == (strcmp(LAUNCHED[i], LAUNCHED[j]) == 0));
    }
    return ok;
}

static int a_module_reload_puts_another_name_at_the_same_address(void) {
    int ok = 1;
    sim_switch("VPROF_SIM_NAME_REUSE_EVERY", "2");
    const char *ptr[N];
    char said[N][32];
    launch_all(ptr, said);
    for (int i = 0; i < N; i++) CHECK(strcmp(said[i], LAUNCHED[i]) == 0); /* right when it arrived */
    /* launches 0 and 3 ran different kernels from the same address */
    CHECK(ptr[0] == ptr[3] && strcmp(LAUNCHED[0], LAUNCHED[3]) != 0);
    CHECK(ptr[1] == ptr[2] && strcmp(LAUNCHED[1], LAUNCHED[2]) != 0);
    CHECK(strcmp(ptr[0], "kernel_a") == 0); /* two reloads later: back where it started */
    sim_switch("VPROF_SIM_NAME_REUSE_EVERY", NULL);
    return ok;
}

int main(int argc, char **argv) {
    static const struct sim_test tests[] = {
        TEST(by_default_one_name_has_one_address),
        TEST(a_module_reload_puts_another_name_at_the_same_address),
    };
    return run_tests(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
