/*
 * agent_field_test.c: the agent inside agent_field_target, programs over the
 * CUPTI test double that do what real servers do to a CUPTI agent
 * (docs/cupti-field-facts.md), with this test as the front end. These are the field scenarios of docs/cupti.md
 * acceptance scenarios at the agent's level; each test names the handling
 * whose removal would make it fail.
 */
#include "agent_frontend.h"

char agent_path[PATH_MAX + 32];
static char target_path[PATH_MAX + 32];

static long field(const struct run *r, const char *key)
{
    return stat_of(r, key);
}

/*
 * Runs the target's graph server (graph-server REPLAYS GRAPHS NODES: graphs captured while the
 * agent is dormant, replayed in one profiler range) to its exit, armed with kinds=15; `env`
 * says what CUPTI does with the node kernels.
 */
static void run_graph_server(struct run *r, struct tally *t, char *replays, char *graphs, char *nodes,
                             const char *const env[])
{
    char *argv[] = { target_path, "graph-server", replays, graphs, nodes, NULL };
    ASSERT(run_to_exit(r, t, "mode=profiler,kinds=15", argv, env));
}

/* Graph nodes delivered. Handling: membership of node kernels by their launch's id, graph ids in KERNEL_DESC. */
TEST(graphServerRecordsExactlyTheNodeKernelsReplayedInTheRange)
{
    const char *env[] = { "VPROF_SIM_GRAPH_NODES=delivered", NULL };
    static struct tally t;
    struct run r;
    run_graph_server(&r, &t, "50", "4", "12", env);
    ASSERT_EQ(field(&r, "in_range="), 50 * 13);
    ASSERT_EQ(t.ranges_begun, 1);
    ASSERT_EQ(t.ranges_ended, 1);
    ASSERT_EQ(t.kernels_in_range, 50u * 13u);
    ASSERT_EQ(t.kernels_outside, 0);
    ASSERT_EQ(t.graph_kernels, 50u * 12u); /* each with its graph id */
    ASSERT_EQ(t.cupti_drops, 0);
    ASSERT_EQ(t.invalid, 0);
    ASSERT_EQ(r.control->ring_drops, 0);
    ASSERT_EQ(t.last_end.graph_launches, 50);
    ASSERT_EQ(t.last_end.graph_kernels, 600);
    ASSERT_EQ(t.last_end.kernel_launches, 50);
    ASSERT(!(t.last_end.flags & VPROF_WARN_GRAPH_NOT_DELIVERED));
    ASSERT(!t.unknown_desc);
    cleanup(&r);
}

/* R4. Handling: vprof_set_device_buffers passes the environment's device buffer size and pool limit
   to CUPTI as it loads. A pool of 2 buffers of 100 records runs dry after 200 graph records; the
   double then tears one record's timestamps and drops the rest, as parcagpu#23 saw, and the agent
   rejects them by reason instead of publishing them. */
TEST(deviceBufferPoolFromTheEnvironmentReachesCupti)
{
    const char *env[] = { "VPROF_SIM_GRAPH_NODES=delivered", "VPROF_CUPTI_DEVICE_BUFFER_SIZE=3200",
                          "VPROF_CUPTI_DEVICE_BUFFER_POOL_LIMIT=2", NULL };
    static struct tally t;
    struct run r;
    run_graph_server(&r, &t, "50", "4", "12", env);
    ASSERT_GT(t.invalid, 0);
    ASSERT_EQ(t.by_reason[VPROF_DROPS_END_BEFORE_START], 1u);
    ASSERT_EQ(t.kernels_in_range + t.invalid, 50u * 13u);
    ASSERT_EQ(t.bad_timestamps_published, 0);
    cleanup(&r);
}

/* Graph nodes lost. Handling: graph launches counted by the driver callbacks; judge_range's loud warning. */
TEST(graphServerWhoseNodesCuptiNeverDeliversSaysSo)
{
    const char *env[] = { "VPROF_SIM_GRAPH_NODES=lost", NULL };
    static struct tally t;
    struct run r;
    run_graph_server(&r, &t, "20", "2", "8", env);
    ASSERT_EQ(t.kernels_in_range, 20);
    ASSERT_EQ(t.graph_kernels, 0); /* the eager ones only */
    ASSERT_EQ(t.last_end.graph_launches, 20);
    ASSERT_EQ(t.last_end.graph_kernels, 0);
    ASSERT(t.last_end.flags & VPROF_WARN_GRAPH_NOT_DELIVERED);
    ASSERT(r.control->warning_flags & VPROF_WARN_GRAPH_NOT_DELIVERED);
    ASSERT_CONTAINS(r.control->reason, "CUPTI delivered no graph kernel for 20 graph launches");
    cleanup(&r);
}

/* Work in flight at the stop. Handling: the drain on the control thread (kinds stay on after the stop) and
   membership by launch order (work launched after the stop is clipped). */
TEST(stopWithoutSynchronizeRecordsEveryKernelLaunchedBeforeIt)
{
    char *argv[] = { target_path, "unsync-stop", NULL };
    static struct tally t;
    struct run r;
    ASSERT(run_to_exit(&r, &t, "mode=profiler,kinds=15", argv, NULL));
    ASSERT_EQ(t.ranges_ended, 1);
    ASSERT_EQ(t.kernels_in_range, 201);
    ASSERT_EQ(t.kernels_outside, 0); /* the 700 ms one included, none after */
    ASSERT_EQ(t.invalid, 0);
    ASSERT_EQ(t.cupti_drops, 0);
    ASSERT_EQ(t.last_end.kernel_launches, 201);
    ASSERT_EQ(t.last_end.kernels, 201);
    ASSERT_EQ(t.last_end.kernels_missing, 0);
    ASSERT_EQ(t.last_end.flags, 0);
    /* It waited for the long kernel: its END came about 700 ms after the stop. */
    ASSERT_GE(t.last_end.drained_cupti_ns - t.last_end.cupti_ns, 600000000ull);
    ASSERT_LT(t.last_end.drained_cupti_ns - t.last_end.cupti_ns, VPROF_DRAIN_LIMIT_NS);
    cleanup(&r);
}

/* Invalid timestamps, at the agent. Handling: timestamp validation by reason (convert.c judge). */
TEST(invalidTimestampsAreCountedByReasonAndNeverPublished)
{
    char *argv[] = { target_path, "invalid-ts", NULL };
    const char *env[] = { "VPROF_SIM_INVALID_TS_RATE=0.01", NULL };
    static struct tally t;
    struct run r;
    ASSERT(run_to_exit(&r, &t, "mode=profiler,kinds=1", argv, env));
    const long ebs = field(&r, "end_before_start="), sz = field(&r, "start_zero="), ez = field(&r, "end_zero="),
               bz = field(&r, "both_zero=");
    ASSERT_GT(ebs + sz + ez + bz, 0);
    ASSERT_EQ(t.by_reason[VPROF_DROPS_END_BEFORE_START], (uint64_t)ebs);
    ASSERT_EQ(t.by_reason[VPROF_DROPS_START_ZERO], (uint64_t)sz);
    ASSERT_EQ(t.by_reason[VPROF_DROPS_END_ZERO], (uint64_t)ez);
    ASSERT_EQ(t.by_reason[VPROF_DROPS_ZERO_TS], (uint64_t)bz);
    ASSERT_EQ(t.kernels_in_range + t.invalid, 2000);
    ASSERT_EQ(t.bad_timestamps_published, 0);
    ASSERT_EQ(t.last_end.rejected_end_before_start, (uint64_t)ebs);
    ASSERT_EQ(t.last_end.rejected_zero_ts, (uint64_t)bz);
    cleanup(&r);
}

/* A second CUPTI client. Handling: re-registering the buffer callbacks at range begin and judge_range naming
   the other client; the target runs on. */
TEST(kinetoLikeClientIsNamedAndTheTargetRunsOn)
{
    char *argv[] = { target_path, "kineto", NULL };
    static struct tally t;
    struct run r;
    ASSERT(run_to_exit(&r, &t, "mode=profiler,kinds=15", argv, NULL));
    ASSERT_GT(field(&r, "kineto_records="), 0);
    ASSERT_EQ(t.ranges_ended, 2);
    ASSERT(t.first_end.flags & (VPROF_WARN_RECORDS_MISSING | VPROF_WARN_NO_RECORDS | VPROF_WARN_BUFFERS_TAKEN));
    ASSERT_LT(t.first_end.kernels, 300);
    ASSERT_EQ(t.first_end.kernel_launches, 300);
    ASSERT_CONTAINS(r.control->reason, "torch.profiler");
    ASSERT_EQ(t.last_end.kernels, 100);
    ASSERT_EQ(t.last_end.flags, 0); /* the callbacks were taken back */
    cleanup(&r);
}

/* R12. Handling: the agent as NVTX's injection (InitializeInjectionNvtx2 forwarding to the libcupti the
   agent loads), which `vprof run` and `launch` name in NVTX_INJECTION64_PATH. */
TEST(nvtxUsedBeforeCudaIsSeenWhenTheAgentIsTheNvtxInjection)
{
    char *argv[] = { target_path, "nvtx-before-cuda", NULL };
    static struct tally t;
    char nvtx_env[PATH_MAX + 64];
    snprintf(nvtx_env, sizeof nvtx_env, "NVTX_INJECTION64_PATH=%s", agent_path);
    const char *env[] = { nvtx_env, NULL };
    memset(&t, 0, sizeof t);
    struct run r;
    start_env(&r, "mode=nvtx,name=window,kinds=15", NULL, argv, env);
    finish_cleanly(&r, &t);
    ASSERT_EQ(t.ranges_begun, 1);
    ASSERT_EQ(t.kernels_in_range, 100);
    ASSERT_EQ(t.kernels_outside, 0);
    ASSERT_GT(t.markers, 0);
    cleanup(&r);
    /* Without it NVTX looked for its injection before the agent could name CUPTI: the range is never seen. */
    memset(&t, 0, sizeof t);
    start_env(&r, "mode=nvtx,name=window,kinds=15", NULL, argv, NULL);
    finish_cleanly(&r, &t);
    ASSERT_EQ(t.ranges_begun, 0);
    ASSERT_EQ(t.kernels_in_range, 0);
    cleanup(&r);
}

/* Drains until the agent's cupti_facts has `fact` (at most 30 s). */
static int await_facts(struct run *r, struct tally *t, uint32_t fact)
{
    const uint64_t deadline = monotonic_ns() + 30ull * 1000000000ull;
    while (monotonic_ns() < deadline) {
        turn(r, t, 1);
        if (r->control != NULL && (__atomic_load_n(&r->control->cupti_facts, __ATOMIC_ACQUIRE) & fact))
            return 1;
        usleep(2000);
    }
    return 0;
}

/* R7. Handling: cuptiFinalize from the next launch's exit callback once the agent is DORMANT again. */
TEST(captureThatEndedIsFinalizedSoLaunchesPayNothingAfterIt)
{
    char *argv[] = { target_path, "launch-cost", "2000", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    const char *env[] = { "AGENT_FIELD_WAIT=signal", NULL };
    start_env(&r, "mode=profiler,repeat=1,kinds=1", NULL, argv, env);
    ASSERT(await_facts(&r, &t, VPROF_CUPTI_FINALIZED));
    stop_cleanly(&r, &t, SIGUSR1);
    ASSERT_EQ(t.ranges_ended, 1);
    ASSERT_EQ(t.kernels_in_range, 100);
    ASSERT(r.control->cupti_facts & VPROF_CUPTI_FINALIZES);
    ASSERT(r.control->cupti_facts & VPROF_CUPTI_FINALIZED);
    cleanup(&r);
    /* CUDA 12.5: finalize is not safe with graphs; the agent stays subscribed. */
    memset(&t, 0, sizeof t);
    const char *old[] = { "VPROF_SIM_CUPTI_VERSION=23", NULL };
    start_env(&r, "mode=profiler,repeat=1,kinds=1", NULL, argv, old);
    finish_cleanly(&r, &t); /* it waits a second on its own */
    ASSERT_EQ(t.kernels_in_range, 100);
    ASSERT(!(r.control->cupti_facts & (VPROF_CUPTI_FINALIZES | VPROF_CUPTI_FINALIZED)));
    cleanup(&r);
}

/* R7, the lazy half. Handling: vprof_cupti_start subscribes again at the ARM after a finalize. */
TEST(armAfterAFinalizeSubscribesAgainAndRecords)
{
    char *argv[] = { target_path, "rearm", NULL };
    static struct tally t;
    memset(&t, 0, sizeof t);
    struct run r;
    const char *env[] = { "AGENT_FIELD_WAIT=signal", NULL };
    start_env(&r, "mode=profiler,repeat=1,kinds=1", NULL, argv, env);
    const uint64_t deadline = monotonic_ns() + 30ull * 1000000000ull;
    ASSERT(await_facts(&r, &t, VPROF_CUPTI_FINALIZED));
    struct vprof_control *c = r.control;
    c->cmd = VPROF_CMD_ARM;
    c->cmd_range_mode = VPROF_RANGE_PROFILER;
    c->cmd_kinds = VPROF_KIND_KERNEL;
    c->cmd_range_repeat = 1;
    c->frontend_pid = getpid();
    const uint64_t seq = c->cmd_seq + 1;
    __atomic_store_n(&c->cmd_seq, seq, __ATOMIC_RELEASE);
    while (__atomic_load_n(&c->cmd_ack, __ATOMIC_ACQUIRE) != seq && monotonic_ns() < deadline)
        turn(&r, &t, 1);
    ASSERT_EQ(c->cmd_result, VPROF_RESULT_OK);
    ASSERT(!(c->cupti_facts & VPROF_CUPTI_FINALIZED));
    stop_cleanly(&r, &t, SIGUSR1);
    ASSERT_EQ(t.ranges_ended, 2);
    ASSERT_EQ(t.kernels_in_range, 200);
    cleanup(&r);
}

int main(int argc, char **argv)
{
    static const struct test_case cases[] = {
        CASE(graphServerRecordsExactlyTheNodeKernelsReplayedInTheRange),
        CASE(deviceBufferPoolFromTheEnvironmentReachesCupti),
        CASE(graphServerWhoseNodesCuptiNeverDeliversSaysSo),
        CASE(stopWithoutSynchronizeRecordsEveryKernelLaunchedBeforeIt),
        CASE(invalidTimestampsAreCountedByReasonAndNeverPublished),
        CASE(kinetoLikeClientIsNamedAndTheTargetRunsOn),
        CASE(nvtxUsedBeforeCudaIsSeenWhenTheAgentIsTheNvtxInjection),
        CASE(captureThatEndedIsFinalizedSoLaunchesPayNothingAfterIt),
        CASE(armAfterAFinalizeSubscribesAgainAndRecords),
    };
    return frontend_main(argc, argv, "agent_field_target", target_path, sizeof target_path, cases, TEST_COUNT(cases));
}
