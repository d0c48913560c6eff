/*
 * The CUPTI test double's devices: CUPTI_ACTIVITY_KIND_DEVICE records
 * (CUpti_ActivityDevice5) for every simulated device (VPROF_SIM_DEVICE_COUNT),
 * emitted when the kind is enabled after CUDA is initialized or, enabled
 * earlier, at initialization; and the current device in every GPU record
 * (simcuda_set_device).
 */
#include "sim_client.h"

static int check_h200(const CUpti_ActivityDevice5 *d, uint32_t id) {
    int ok = 1;
    CHECK(d->id == id && d->name != NULL && strstr(d->name, "H200") != NULL && strstr(d->name, "simulated") != NULL);
    CHECK(d->numMultiprocessors == 132 && d->computeCapabilityMajor == 9 && d->computeCapabilityMinor == 0);
    CHECK(d->globalMemorySize == 141000000000ull && d->maxThreadsPerBlock == 1024 && d->numThreadsPerWarp == 32);
    CHECK(d->coreClockRate > 0 && d->globalMemoryBandwidth > 0 && d->l2CacheSize > 0);
    return ok;
}

static int enabling_the_device_kind_reports_every_device(void) {
    int ok = 1;
    sim_switch("VPROF_SIM_DEVICE_COUNT", "2");
    CHECK(simcuda_init() == 0 && simcuda_device_count() == 2);
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE);
    cuptiActivityFlushAll(0);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_DEVICE] == 2);
    ok &= check_h200(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 0)->device, 0);
    ok &= check_h200(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 1)->device, 1);
    CHECK(memcmp(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 0)->device.uuid, &client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 1)->device.uuid,
                 sizeof(CUuuid)) != 0);
    client_teardown();
    return ok;
}

static int records_carry_the_current_device(void) {
    int ok = 1;
    sim_switch("VPROF_SIM_DEVICE_COUNT", "4");
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    simcuda_launch_kernel(0, "on0", GRID, BLOCK, 1000);
    CHECK(simcuda_set_device(3) == 0);
    simcuda_launch_kernel(0, "on3", GRID, BLOCK, 1000);
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 64, 0);
    CHECK(simcuda_set_device(4) == -1); /* no such device: nothing changes */
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    CHECK(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel.deviceId == 0);
    CHECK(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 1)->kernel.deviceId == 3);
    CHECK(client_nth(CUPTI_ACTIVITY_KIND_MEMCPY, 0)->memcpy.deviceId == 3);
    simcuda_set_device(0);
    client_teardown();
    return ok;
}

/* An agent enables DEVICE in InitializeInjection, before the context exists: the
 * records come when CUDA's initialization completes. */
static int device_records_enabled_before_init_come_at_init(void) {
    int ok = 1;
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE);
    cuptiActivityFlushAll(0);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_DEVICE] == 0);
    simcuda_init();
    cuptiActivityFlushAll(0);
    CHECK(client.by_kind[CUPTI_ACTIVITY_KIND_DEVICE] == 1);
    ok &= check_h200(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 0)->device, 0);
    client_teardown();
    return ok;
}

int main(int argc, char **argv) {
    static const struct sim_test tests[] = {
        FRESH(device_records_enabled_before_init_come_at_init),
        TEST(enabling_the_device_kind_reports_every_device),
        TEST(records_carry_the_current_device),
    };
    return run_tests(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
