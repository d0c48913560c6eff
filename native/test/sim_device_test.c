/*
 * The CUPTI test double's devices: CUPTI_ACTIVITY_KIND_DEVICE records
 * (CUpti_ActivityDevice5) for every simulated device (VPROF_SIM_DEVICE_COUNT),
 * emitted when the kind is enabled after CUDA is initialized or, enabled
 * earlier, at initialization; and the current device in every GPU record
 * (simcuda_set_device).
 */
#include "sim_client.h"

static void check_h200(const CUpti_ActivityDevice5 *d, uint32_t id) {
    EXPECT_EQ(d->id, id);
    EXPECT_CONTAINS(d->name, "H200");
    EXPECT_CONTAINS(d->name, "simulated");
    EXPECT_EQ(d->numMultiprocessors, 132);
    EXPECT_EQ(d->computeCapabilityMajor, 9);
    EXPECT_EQ(d->computeCapabilityMinor, 0);
    EXPECT_EQ(d->globalMemorySize, 141000000000ull);
    EXPECT_EQ(d->maxThreadsPerBlock, 1024);
    EXPECT_EQ(d->numThreadsPerWarp, 32);
    EXPECT_GT(d->coreClockRate, 0);
    EXPECT_GT(d->globalMemoryBandwidth, 0);
    EXPECT_GT(d->l2CacheSize, 0);
}

TEST(enablingTheDeviceKindReportsEveryDevice) {
    sim_switch("VPROF_SIM_DEVICE_COUNT", "2");
    EXPECT_EQ(simcuda_init(), 0);
    EXPECT_EQ(simcuda_device_count(), 2);
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE);
    cuptiActivityFlushAll(0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_DEVICE], 2);
    check_h200(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 0)->device, 0);
    check_h200(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 1)->device, 1);
    EXPECT_NE(memcmp(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 0)->device.uuid,
                     &client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 1)->device.uuid, sizeof(CUuuid)), 0);
    client_teardown();
}

TEST(recordsCarryTheCurrentDevice) {
    sim_switch("VPROF_SIM_DEVICE_COUNT", "4");
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    simcuda_launch_kernel(0, "on0", GRID, BLOCK, 1000);
    EXPECT_EQ(simcuda_set_device(3), 0);
    simcuda_launch_kernel(0, "on3", GRID, BLOCK, 1000);
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 64, 0);
    EXPECT_EQ(simcuda_set_device(4), -1); /* no such device: nothing changes */
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    EXPECT_EQ(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel.deviceId, 0);
    EXPECT_EQ(client_nth(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 1)->kernel.deviceId, 3);
    EXPECT_EQ(client_nth(CUPTI_ACTIVITY_KIND_MEMCPY, 0)->memcpy.deviceId, 3);
    simcuda_set_device(0);
    client_teardown();
}

/* An agent enables DEVICE in InitializeInjection, before the context exists: the
 * records come when CUDA's initialization completes. */
TEST(deviceRecordsEnabledBeforeInitComeAtInit) {
    client_setup(1 << 16, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE);
    cuptiActivityFlushAll(0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_DEVICE], 0);
    simcuda_init();
    cuptiActivityFlushAll(0);
    EXPECT_EQ(client.by_kind[CUPTI_ACTIVITY_KIND_DEVICE], 1);
    check_h200(&client_nth(CUPTI_ACTIVITY_KIND_DEVICE, 0)->device, 0);
    client_teardown();
}

TEST_MAIN(
    FRESH(deviceRecordsEnabledBeforeInitComeAtInit),
    CASE(enablingTheDeviceKindReportsEveryDevice),
    CASE(recordsCarryTheCurrentDevice),
)
