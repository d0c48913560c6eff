/*
 * agent_simgpu_test.c: the agent inside vprof-simgpu (the synthetic GPU
 * process over the CUPTI test double), injected through CUDA_INJECTION64_PATH
 * and armed through VPROF_ARM, with this test as its front end: it maps the
 * region, heartbeats, drains the ring and counts what arrived.
 * Skipped (and says so) when vprof-simgpu has not been built.
 */
#include "agent_frontend.h"

char agent_path[PATH_MAX + 32];
static char simgpu_path[PATH_MAX + 32];

/* The tally saw one range, begun and ended by these sources, with n kernels in it. */
#define ASSERT_ONE_RANGE(t, begun_by, ended_by, n) do { \
        ASSERT_EQ((t).ranges_begun, 1);                 \
        ASSERT_EQ((t).ranges_ended, 1);                 \
        ASSERT_EQ((t).begin_source, begun_by);          \
        ASSERT_EQ((t).end_source, ended_by);            \
        ASSERT_EQ((t).kernels_in_range, n);             \
    } while (0)

TEST(profilerRangesCaptureExactlyTheKernelsLaunchedInside)
{
    /* Paced: each range's work completes long before the next range begins (see cut short below). */
    char *argv[] = { simgpu_path, "--steps", "300", "--kernels-per-step", "40", "--step-us", "2000",
                     "--profiler-range", "50:100", "--profiler-range", "200:230", NULL };
    static struct tally t;
    struct run r;
    ASSERT(run_to_exit(&r, &t, "mode=profiler,repeat=0,kinds=15,capture=7", argv, NULL));
    ASSERT_EQ(stat_of(&r, "kernels_in_profiler_ranges="), 3200);
    ASSERT(r.control != NULL);
    ASSERT_EQ(r.control->state, VPROF_STATE_EXITED);
    ASSERT_EQ(t.ranges_begun, 2);
    ASSERT_EQ(t.ranges_ended, 2);
    ASSERT_EQ(t.begin_source, VPROF_SOURCE_PROFILER);
    ASSERT_EQ(t.end_source, VPROF_SOURCE_PROFILER);
    ASSERT_EQ(t.kernels_in_range, 3200);
    ASSERT_EQ(t.kernels_outside, 0);
    ASSERT(!t.unknown_desc);
    ASSERT_EQ(t.cupti_drops, 0);
    ASSERT_EQ(t.invalid, 0);
    ASSERT_EQ(r.control->ring_drops, 0);
    ASSERT_GE(t.clock_syncs, 4);
    ASSERT_EQ(r.control->ranges, 2);
    cleanup(&r);
}

TEST(repeatOneStopsAfterTheFirstRange)
{
    char *argv[] = { simgpu_path, "--steps", "300", "--kernels-per-step", "40",
                     "--profiler-range", "50:100", "--profiler-range", "200:230", NULL };
    static struct tally t;
    struct run r;
    ASSERT(run_to_exit(&r, &t, "mode=profiler,repeat=1", argv, NULL));
    ASSERT_EQ(t.ranges_begun, 1);
    ASSERT_EQ(t.ranges_ended, 1);
    ASSERT_EQ(t.kernels_in_range, 2000);
    ASSERT_EQ(t.kernels_outside, 0);
    cleanup(&r);
}

TEST(nvtxRangeCapturesExactlyItsKernels)
{
    char *argv[] = { simgpu_path, "--steps", "30", "--kernels-per-step", "40", "--nvtx",
                     "--nvtx-range", "prefill:10:20", NULL };
    static struct tally t;
    struct run r;
    ASSERT(run_to_exit(&r, &t, "mode=nvtx,name=prefill", argv, NULL));
    ASSERT_EQ(stat_of(&r, "kernels_in_nvtx_ranges="), 400);
    ASSERT_ONE_RANGE(t, VPROF_SOURCE_NVTX, VPROF_SOURCE_NVTX, 400);
    ASSERT_EQ(t.kernels_outside, 0);
    cleanup(&r);
}

TEST(modeNoneCapturesFromArmingUntilExit)
{
    char *argv[] = { simgpu_path, "--steps", "20", "--kernels-per-step", "10", NULL };
    static struct tally t;
    struct run r;
    ASSERT(run_to_exit(&r, &t, "mode=none", argv, NULL));
    ASSERT_EQ(stat_of(&r, "kernels="), 200);
    ASSERT_ONE_RANGE(t, VPROF_SOURCE_COMMAND, VPROF_SOURCE_EXIT, 200);
    ASSERT_EQ(t.memcpys, (uint64_t)stat_of(&r, "memcpys="));
    cleanup(&r);
}

TEST(smallRingAccountsForEveryKernelLaunchedInTheRange)
{
    char *argv[] = { simgpu_path, "--steps", "300", "--kernels-per-step", "40",
                     "--profiler-range", "0:300", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    /* Kernels only, and nobody drains until the end: the 64 KiB ring must overflow. */
    start(&r, "mode=profiler,kinds=1", "64k", argv);
    ASSERT(finish(&r, &t, 0));
    ASSERT(exited_cleanly(&r));
    ASSERT_EQ(t.ranges_ended, 1);
    ASSERT_GT(t.end_ring_drops_kernels, 0);
    ASSERT_EQ(r.control->ring_drops_kernels, t.end_ring_drops_kernels);
    ASSERT_EQ(t.kernels_in_range + t.end_ring_drops_kernels + t.end_cupti_drops + t.invalid,
              (uint64_t)stat_of(&r, "kernels_in_profiler_ranges="));
    cleanup(&r);
}

/* Starts a long paced run (100,000 steps of 4 kernels, 1 ms each) armed with mode=none, with t
 * cleared, and waits until deadline for its region: 1 once it is mapped. */
static int start_long_run(struct run *r, struct tally *t, uint64_t deadline)
{
    char *argv[] = { simgpu_path, "--steps", "100000", "--kernels-per-step", "4", "--step-us",
                     "1000", NULL };
    memset(t, 0, sizeof *t);
    start(r, "mode=none", NULL, argv);
    while (!try_map(r) && monotonic_ns() < deadline)
        usleep(1000);
    return r->control != NULL;
}

TEST(silentFrontEndGetsTheAgentDisarmed)
{
    static struct tally t;
    struct run r;
    const uint64_t deadline = monotonic_ns() + 30ull * 1000000000ull;
    ASSERT(start_long_run(&r, &t, deadline));
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
    ASSERT_EQ(r.control->state, VPROF_STATE_DORMANT);
    ASSERT_CONTAINS(r.control->reason, "silent");
    vprof_ring_read(&r.ring, count, &t, SIZE_MAX);
    ASSERT_EQ(t.ranges_ended, 1);
    ASSERT_EQ(t.end_source, VPROF_SOURCE_HEARTBEAT);
    stop_cleanly(&r, &t, SIGTERM); /* the target ran on */
    cleanup(&r);
}

TEST(disarmAndRearmByCommandStartAFreshArming)
{
    static struct tally t;
    struct run r;
    const uint64_t deadline = monotonic_ns() + 30ull * 1000000000ull;
    ASSERT(start_long_run(&r, &t, deadline));
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
        ASSERT_EQ(c->cmd_result, VPROF_RESULT_OK);
        ASSERT_EQ(c->state, VPROF_STATE_DORMANT);
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
        ASSERT_EQ(c->cmd_result, VPROF_RESULT_OK);
        ASSERT_EQ(c->state, VPROF_STATE_CAPTURING);
    }
    turn(&r, &t, 1);
    ASSERT_EQ(t.ranges_begun, 2);
    ASSERT_EQ(t.ranges_ended, 2);
    ASSERT_EQ(t.end_source, VPROF_SOURCE_COMMAND);
    ASSERT_EQ(t.last_index, 1); /* the second arming counts its ranges from 1 again */
    ASSERT(!t.unknown_desc);   /* ... and re-sent its names and shapes */
    stop_cleanly(&r, &t, SIGTERM);
    cleanup(&r);
}

int main(int argc, char **argv)
{
    static const struct test_case cases[] = {
        CASE(profilerRangesCaptureExactlyTheKernelsLaunchedInside),
        CASE(repeatOneStopsAfterTheFirstRange),
        CASE(nvtxRangeCapturesExactlyItsKernels),
        CASE(modeNoneCapturesFromArmingUntilExit),
        CASE(smallRingAccountsForEveryKernelLaunchedInTheRange),
        CASE(silentFrontEndGetsTheAgentDisarmed),
        CASE(disarmAndRearmByCommandStartAFreshArming),
    };
    return frontend_main(argc, argv, "vprof-simgpu", simgpu_path, sizeof simgpu_path, cases, TEST_COUNT(cases));
}
