/*
 * Invalid timestamps injected by the CUPTI test double
 * (VPROF_SIM_INVALID_TS_RATE, _KINDS, VPROF_SIM_SEED): the shapes parcagpu#23
 * saw (end < start, start zero, end zero, both zero), at a given rate,
 * deterministic, counted exactly per shape.
 */
#include "sim_client.h"

#define KERNELS 2000

struct shapes { long end_before_start, start_zero, end_zero, both_zero, valid; };

/* Launches KERNELS kernels and a copy and a set per 100, lets them complete,
 * and sorts what came back by the shape of its timestamps. */
static struct shapes run_and_sort(void) {
    simcuda_stream s = client_setup_kernels(1 << 20, 8);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    for (int i = 0; i < KERNELS; i++) {
        simcuda_launch_kernel(s, "k", GRID, BLOCK, 100);
        if (i % 100 == 0) {
            simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, 64, s);
            simcuda_memset(64, 0, s);
        }
    }
    simcuda_synchronize();
    cuptiActivityFlushAll(0);
    struct shapes sh = { 0 };
    for (long i = 0; i < client.nkept; i++) {
        union client_record *r = &client.kept[i];
        uint64_t start, end;
        if (r->any.kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) { start = r->kernel.start; end = r->kernel.end; }
        else if (r->any.kind == CUPTI_ACTIVITY_KIND_MEMCPY) { start = r->memcpy.start; end = r->memcpy.end; }
        else if (r->any.kind == CUPTI_ACTIVITY_KIND_MEMSET) { start = r->memset.start; end = r->memset.end; }
        else continue;
        if (start == 0 && end == 0) sh.both_zero++;
        else if (start == 0) sh.start_zero++;
        else if (end == 0) sh.end_zero++;
        else if (end < start) sh.end_before_start++;
        else sh.valid++;
    }
    client_teardown();
    return sh;
}

static struct simcuda_stats stats_since(const struct simcuda_stats *before) {
    struct simcuda_stats now;
    simcuda_get_stats(&now);
    now.invalid_end_before_start -= before->invalid_end_before_start;
    now.invalid_start_zero -= before->invalid_start_zero;
    now.invalid_end_zero -= before->invalid_end_zero;
    now.invalid_both_zero -= before->invalid_both_zero;
    return now;
}

TEST(byDefaultEveryTimestampIsValid) {
    struct simcuda_stats before;
    simcuda_get_stats(&before);
    struct shapes sh = run_and_sort();
    EXPECT_EQ(sh.valid, KERNELS + 40);
    EXPECT_EQ(sh.both_zero + sh.start_zero + sh.end_zero + sh.end_before_start, 0);
    struct simcuda_stats st = stats_since(&before);
    EXPECT_EQ(st.invalid_both_zero + st.invalid_start_zero + st.invalid_end_zero + st.invalid_end_before_start, 0);
}

TEST(invalidTimestampsComeAtTheRateInEveryShapeAndAreCountedExactly) {
    sim_switch("VPROF_SIM_INVALID_TS_RATE", "0.05");
    struct simcuda_stats before;
    simcuda_get_stats(&before);
    struct shapes sh = run_and_sort();
    struct simcuda_stats st = stats_since(&before);
    EXPECT_EQ((long)st.invalid_end_before_start, sh.end_before_start);
    EXPECT_EQ((long)st.invalid_start_zero, sh.start_zero);
    EXPECT_EQ((long)st.invalid_end_zero, sh.end_zero);
    EXPECT_EQ((long)st.invalid_both_zero, sh.both_zero);
    long bad = sh.end_before_start + sh.start_zero + sh.end_zero + sh.both_zero;
    EXPECT_EQ(bad + sh.valid, KERNELS + 40);
    EXPECT_GT(bad, 40);
    EXPECT_LT(bad, 180); /* 5 % of 2040 is 102 */
    EXPECT_GT(sh.end_before_start, 0);
    EXPECT_GT(sh.start_zero, 0);
    EXPECT_GT(sh.end_zero, 0);
    EXPECT_GT(sh.both_zero, 0);
    sim_switch("VPROF_SIM_INVALID_TS_RATE", NULL);
}

/* Prints the shapes one seed gives (VPROF_SIM_SEED from the environment, 7
 * if unset): run in fresh processes by the next test, which compares them. */
TEST(theShapesOfASeed) {
    if (getenv("VPROF_SIM_INVALID_TS_RATE") == NULL) sim_switch("VPROF_SIM_INVALID_TS_RATE", "0.05");
    if (getenv("VPROF_SIM_SEED") == NULL) sim_switch("VPROF_SIM_SEED", "7");
    struct simcuda_stats before;
    simcuda_get_stats(&before);
    struct shapes sh = run_and_sort();
    struct simcuda_stats st = stats_since(&before);
    printf("    seed %s: %ld %ld %ld %ld (end<start, start 0, end 0, both 0)\n", getenv("VPROF_SIM_SEED"),
           sh.end_before_start, sh.start_zero, sh.end_zero, sh.both_zero);
    EXPECT_EQ((long)st.invalid_both_zero, sh.both_zero);
    EXPECT_EQ((long)st.invalid_end_zero, sh.end_zero);
}

TEST(aKindsListLimitsTheShapes) {
    sim_switch("VPROF_SIM_INVALID_TS_RATE", "0.1");
    sim_switch("VPROF_SIM_INVALID_TS_KINDS", "end-before-start,both-zero");
    struct shapes sh = run_and_sort();
    EXPECT_GT(sh.end_before_start, 0);
    EXPECT_GT(sh.both_zero, 0);
    EXPECT_EQ(sh.start_zero, 0);
    EXPECT_EQ(sh.end_zero, 0);
    sim_switch("VPROF_SIM_INVALID_TS_KINDS", NULL);
    sim_switch("VPROF_SIM_INVALID_TS_RATE", NULL);
}

/* The whole-run answer of a seed, from a fresh process (correlation ids restart). */
static int run_seed(const char *seed, char *out, size_t cap) {
    char cmd[sizeof test_self + 128];
    snprintf(cmd, sizeof cmd, "VPROF_SIM_INVALID_TS_RATE=0.05 VPROF_SIM_SEED=%s %s --case theShapesOfASeed",
             seed, test_self);
    FILE *p = popen(cmd, "r");
    if (p == NULL) return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    return pclose(p);
}

TEST(twoRunsWithOneSeedAgreeAndAnotherSeedDiffers) {
    char a[512], b[512], c[512];
    ASSERT_EQ(run_seed("7", a, sizeof a), 0);
    ASSERT_EQ(run_seed("7", b, sizeof b), 0);
    ASSERT_EQ(run_seed("8", c, sizeof c), 0);
    ASSERT_CONTAINS(a, "seed 7:");
    EXPECT_STREQ(a, b);
    ASSERT_CONTAINS(c, "seed 8:");
    EXPECT_NE(strcmp(strchr(a, ':'), strchr(c, ':')), 0);
}

TEST_MAIN(
    CASE(byDefaultEveryTimestampIsValid),
    CASE(invalidTimestampsComeAtTheRateInEveryShapeAndAreCountedExactly),
    FRESH(theShapesOfASeed),
    CASE(aKindsListLimitsTheShapes),
    CASE(twoRunsWithOneSeedAgreeAndAnotherSeedDiffers),
)
