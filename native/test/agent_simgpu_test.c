/*
 * agent_simgpu_test.c: the agent inside vprof-simgpu (the synthetic GPU
 * process over the CUPTI test double), injected through CUDA_INJECTION64_PATH
 * and armed through VPROF_ARM, with this test as its front end: it maps the
 * region, heartbeats, drains the ring and counts what arrived.
 * Skipped (and says so) when vprof-simgpu has not been built.
 */
#include "agent_frontend.h"

static int passed, failed;
char agent_path[PATH_MAX + 32];
static char simgpu_path[PATH_MAX + 32];



static int profilerRangesCaptureExactlyTheKernelsLaunchedInside(void)
{
    /* Paced: each range's work completes long before the next range begins (see cut short below). */
    char *argv[] = { simgpu_path, "--steps", "300", "--kernels-per-step", "40", "--step-us", "2000",
                     "--profiler-range", "50:100", "--profiler-range", "200:230", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    start(&r, "mode=profiler,repeat=0,kinds=15,capture=7", NULL, argv);
    CHECK(finish(&r, &t, 1));
    CHECK(exited_cleanly(&r));
    CHECK(stat_of(&r, "kernels_in_profiler_ranges=") == 3200);
    CHECK(r.control != NULL);
    CHECK(r.control->state == VPROF_STATE_EXITED);
    CHECK(t.ranges_begun == 2 && t.ranges_ended == 2);
    CHECK(t.begin_source == VPROF_SOURCE_PROFILER && t.end_source == VPROF_SOURCE_PROFILER);
    CHECK(t.kernels_in_range == 3200 && t.kernels_outside == 0);
    CHECK(!t.unknown_desc);
    CHECK(t.cupti_drops == 0 && t.invalid == 0 && r.control->ring_drops == 0);
    CHECK(t.clock_syncs >= 4);
    CHECK(r.control->ranges == 2);
    cleanup(&r);
    return 1;
}

static int repeatOneStopsAfterTheFirstRange(void)
{
    char *argv[] = { simgpu_path, "--steps", "300", "--kernels-per-step", "40",
                     "--profiler-range", "50:100", "--profiler-range", "200:230", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    start(&r, "mode=profiler,repeat=1", NULL, argv);
    CHECK(finish(&r, &t, 1));
    CHECK(exited_cleanly(&r));
    CHECK(t.ranges_begun == 1 && t.ranges_ended == 1);
    CHECK(t.kernels_in_range == 2000 && t.kernels_outside == 0);
    cleanup(&r);
    return 1;
}

static int nvtxRangeCapturesExactlyItsKernels(void)
{
    char *argv[] = { simgpu_path, "--steps", "30", "--kernels-per-step", "40", "--nvtx",
                     "--nvtx-range", "prefill:10:20", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    start(&r, "mode=nvtx,name=prefill", NULL, argv);
    CHECK(finish(&r, &t, 1));
    CHECK(exited_cleanly(&r));
    CHECK(stat_of(&r, "kernels_in_nvtx_ranges=") == 400);
    CHECK(t.ranges_begun == 1 && t.ranges_ended == 1);
    CHECK(t.begin_source == VPROF_SOURCE_NVTX && t.end_source == VPROF_SOURCE_NVTX);
    CHECK(t.kernels_in_range == 400 && t.kernels_outside == 0);
    cleanup(&r);
    return 1;
}

static int modeNoneCapturesFromArmingUntilExit(void)
{
    char *argv[] = { simgpu_path, "--steps", "20", "--kernels-per-step", "10", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    start(&r, "mode=none", NULL, argv);
    CHECK(finish(&r, &t, 1));
    CHECK(exited_cleanly(&r));
    CHECK(stat_of(&r, "kernels=") == 200);
    CHECK(t.ranges_begun == 1 && t.ranges_ended == 1);
    CHECK(t.begin_source == VPROF_SOURCE_COMMAND && t.end_source == VPROF_SOURCE_EXIT);
    CHECK(t.kernels_in_range == 200);
    CHECK(t.memcpys == (uint64_t)stat_of(&r, "memcpys="));
    cleanup(&r);
    return 1;
}

static int smallRingAccountsForEveryKernelLaunchedInTheRange(void)
{
    char *argv[] = { simgpu_path, "--steps", "300", "--kernels-per-step", "40",
                     "--profiler-range", "0:300", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    /* Kernels only, and nobody drains until the end: the 64 KiB ring must overflow. */
    start(&r, "mode=profiler,kinds=1", "64k", argv);
    CHECK(finish(&r, &t, 0));
    CHECK(exited_cleanly(&r));
    CHECK(t.ranges_ended == 1);
    CHECK(t.end_ring_drops_kernels > 0);
    CHECK(r.control->ring_drops_kernels == t.end_ring_drops_kernels);
    CHECK(t.kernels_in_range + t.end_ring_drops_kernels + t.end_cupti_drops + t.invalid ==
          (uint64_t)stat_of(&r, "kernels_in_profiler_ranges="));
    cleanup(&r);
    return 1;
}

static int silentFrontEndGetsTheAgentDisarmed(void)
{
    char *argv[] = { simgpu_path, "--steps", "100000", "--kernels-per-step", "4", "--step-us",
                     "1000", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    start(&r, "mode=none", NULL, argv);
    const uint64_t deadline = monotonic_ns() + 30ull * 1000000000ull;
    while (!try_map(&r) && monotonic_ns() < deadline)
        usleep(1000);
    CHECK(r.control != NULL);
    r.control->heartbeat_timeout_ns = 200000000ull; /* and never beat */
    while (__atomic_load_n(&r.control->state, __ATOMIC_ACQUIRE) != VPROF_STATE_CAPTURING &&
           t.ranges_begun == 0 && monotonic_ns() < deadline) {
        vprof_ring_read(&r.ring, count, &t, SIZE_MAX);
        usleep(1000);
    }
    while (__atomic_load_n(&r.control->state, __ATOMIC_ACQUIRE) != VPROF_STATE_DORMANT &&
           monotonic_ns() < deadline) {
        vprof_ring_read(&r.ring, count, &t, SIZE_MAX);
        usleep(2000);
    }
    CHECK(r.control->state == VPROF_STATE_DORMANT);
    CHECK(strstr(r.control->reason, "silent") != NULL);
    vprof_ring_read(&r.ring, count, &t, SIZE_MAX);
    CHECK(t.ranges_ended == 1 && t.end_source == VPROF_SOURCE_HEARTBEAT);
    kill(r.pid, SIGTERM);
    CHECK(finish(&r, &t, 1));
    CHECK(exited_cleanly(&r)); /* the target ran on */
    cleanup(&r);
    return 1;
}

static int disarmAndRearmByCommandStartAFreshArming(void)
{
    char *argv[] = { simgpu_path, "--steps", "100000", "--kernels-per-step", "4", "--step-us",
                     "1000", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    start(&r, "mode=none", NULL, argv);
    const uint64_t deadline = monotonic_ns() + 30ull * 1000000000ull;
    while (!try_map(&r) && monotonic_ns() < deadline)
        usleep(1000);
    CHECK(r.control != NULL);
    struct vprof_control *c = r.control;
    for (int round = 0; round < 2; round++) {
        /* let some kernels through, then DISARM, then ARM again */
        while (t.kernels_in_range < (uint64_t)(round + 1) * 100u && monotonic_ns() < deadline)
            turn(&r, &t, 1);
        c->cmd = VPROF_CMD_DISARM;
        uint64_t seq = c->cmd_seq + 1;
        __atomic_store_n(&c->cmd_seq, seq, __ATOMIC_RELEASE);
        while (__atomic_load_n(&c->cmd_ack, __ATOMIC_ACQUIRE) != seq && monotonic_ns() < deadline)
            turn(&r, &t, 1);
        CHECK(c->cmd_result == VPROF_RESULT_OK && c->state == VPROF_STATE_DORMANT);
        if (round == 1)
            break;
        c->cmd = VPROF_CMD_ARM;
        c->cmd_range_mode = VPROF_RANGE_NONE;
        c->cmd_kinds = VPROF_KIND_KERNEL;
        c->cmd_range_repeat = 0;
        c->frontend_pid = getpid();
        seq = c->cmd_seq + 1;
        __atomic_store_n(&c->cmd_seq, seq, __ATOMIC_RELEASE);
        while (__atomic_load_n(&c->cmd_ack, __ATOMIC_ACQUIRE) != seq && monotonic_ns() < deadline)
            turn(&r, &t, 1);
        CHECK(c->cmd_result == VPROF_RESULT_OK && c->state == VPROF_STATE_CAPTURING);
    }
    turn(&r, &t, 1);
    CHECK(t.ranges_begun == 2 && t.ranges_ended == 2 && t.end_source == VPROF_SOURCE_COMMAND);
    CHECK(t.last_index == 1); /* the second arming counts its ranges from 1 again */
    CHECK(!t.unknown_desc);   /* ... and re-sent its names and shapes */
    kill(r.pid, SIGTERM);
    CHECK(finish(&r, &t, 1));
    CHECK(exited_cleanly(&r));
    cleanup(&r);
    return 1;
}

int main(void)
{
    if (!find_native("vprof-simgpu", simgpu_path, sizeof simgpu_path))
        return 0;
    RUN(profilerRangesCaptureExactlyTheKernelsLaunchedInside);
    RUN(repeatOneStopsAfterTheFirstRange);
    RUN(nvtxRangeCapturesExactlyItsKernels);
    RUN(modeNoneCapturesFromArmingUntilExit);
    RUN(smallRingAccountsForEveryKernelLaunchedInTheRange);
    RUN(silentFrontEndGetsTheAgentDisarmed);
    RUN(disarmAndRearmByCommandStartAFreshArming);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
