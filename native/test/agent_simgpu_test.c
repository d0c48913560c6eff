/*
 * agent_simgpu_test.c: the agent inside vprof-simgpu (the synthetic GPU
 * process over the CUPTI test double), injected through CUDA_INJECTION64_PATH
 * and armed through VPROF_ARM, with this test as its front end: it maps the
 * region, heartbeats, drains the ring and counts what arrived.
 * Skipped (and says so) when vprof-simgpu has not been built.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ring.h"

static int passed, failed;
static char agent_path[PATH_MAX + 32], simgpu_path[PATH_MAX + 32];

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "  %s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, __func__, #cond); \
    return 0; } } while (0)
static pid_t running_target;

#define RUN(test) do { running_target = 0; int ok_ = test(); \
    if (!ok_ && running_target > 0) { kill(running_target, SIGKILL); waitpid(running_target, NULL, 0); \
        char p_[64]; snprintf(p_, sizeof p_, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)running_target); \
        unlink(p_); } \
    if (ok_) { passed++; printf("ok   %s\n", #test); } \
    else { failed++; printf("FAIL %s\n", #test); } fflush(stdout); } while (0)

#define MAX_IDS 4096

/* What the ring said. */
struct tally {
    uint64_t kernels_in_range, kernels_outside, memcpys, markers, strings, descs, clock_syncs;
    uint64_t ranges_begun, ranges_ended, cupti_drops, zero_ts;
    uint64_t end_ring_drops_kernels, end_cupti_drops;
    uint32_t begin_source, end_source, last_index;
    int in_range;
    int unknown_desc;     /* a KERNEL before its KERNEL_DESC, or a DESC before its STRING */
    unsigned char string_seen[MAX_IDS], desc_seen[MAX_IDS];
};

static void count(const struct vprof_record_header *h, void *arg)
{
    struct tally *t = arg;
    switch (h->type) {
    case VPROF_REC_STRING: {
        const struct vprof_rec_string *s = (const void *)h;
        if (s->id < MAX_IDS)
            t->string_seen[s->id] = 1;
        t->strings++;
        break;
    }
    case VPROF_REC_KERNEL_DESC: {
        const struct vprof_rec_kernel_desc *d = (const void *)h;
        if (d->name_id >= MAX_IDS || !t->string_seen[d->name_id])
            t->unknown_desc = 1;
        if (d->id < MAX_IDS)
            t->desc_seen[d->id] = 1;
        t->descs++;
        break;
    }
    case VPROF_REC_KERNEL: {
        const struct vprof_rec_kernel *k = (const void *)h;
        if (k->desc_id >= MAX_IDS || !t->desc_seen[k->desc_id])
            t->unknown_desc = 1;
        if (t->in_range)
            t->kernels_in_range++;
        else
            t->kernels_outside++;
        break;
    }
    case VPROF_REC_MEMCPY: t->memcpys++; break;
    case VPROF_REC_MARKER: t->markers++; break;
    case VPROF_REC_CLOCK_SYNC: t->clock_syncs++; break;
    case VPROF_REC_DROPS: {
        const struct vprof_rec_drops *d = (const void *)h;
        if (d->reason == VPROF_DROPS_CUPTI)
            t->cupti_drops += d->count;
        else
            t->zero_ts += d->count;
        break;
    }
    case VPROF_REC_RANGE: {
        const struct vprof_rec_range *r = (const void *)h;
        if (getenv("DBG")) fprintf(stderr, "RANGE edge %u src %u idx %u corr %u flags %x launches %llu kernels %llu clipped %llu late %llu missing %llu cupti %llu\n", r->edge, r->source, r->index, r->correlation_id, r->flags, (unsigned long long)r->kernel_launches, (unsigned long long)r->kernels, (unsigned long long)r->clipped, (unsigned long long)r->rejected_late, (unsigned long long)r->kernels_missing, (unsigned long long)r->cupti_drops);
        if (r->edge == VPROF_RANGE_BEGIN) {
            t->ranges_begun++;
            t->in_range = 1;
            t->begin_source = r->source;
            t->last_index = r->index;
            if (r->index == 1) { /* a new arming: ids restart */
                memset(t->string_seen, 0, sizeof t->string_seen);
                memset(t->desc_seen, 0, sizeof t->desc_seen);
            }
        } else {
            t->ranges_ended++;
            t->in_range = 0;
            t->end_source = r->source;
            t->end_ring_drops_kernels += r->ring_drops_kernels;
            t->end_cupti_drops += r->cupti_drops;
        }
        break;
    }
    default:
        break;
    }
}

struct run {
    pid_t pid;
    int err_fd;
    struct vprof_control *control;
    size_t size;
    struct vprof_ring ring;
    char stderr_text[8192];
    int status;
};

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void start(struct run *r, const char *arm, const char *ring_size, char *const argv[])
{
    memset(r, 0, sizeof *r);
    int fds[2];
    if (pipe(fds) != 0)
        abort();
    char arm_env[512];
    snprintf(arm_env, sizeof arm_env, "%s,frontend=%d", arm, (int)getpid());
    r->pid = fork();
    if (r->pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        setenv("CUDA_INJECTION64_PATH", agent_path, 1);
        setenv("VPROF_ARM", arm_env, 1);
        if (ring_size != NULL)
            setenv("VPROF_RING_SIZE", ring_size, 1);
        unsetenv("VPROF_CUPTI_LIB");
        execv(simgpu_path, argv);
        _exit(127);
    }
    close(fds[1]);
    running_target = r->pid;
    r->err_fd = fds[0];
    fcntl(r->err_fd, F_SETFL, O_NONBLOCK);
}

static int try_map(struct run *r)
{
    if (r->control != NULL)
        return 1;
    char path[64];
    snprintf(path, sizeof path, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)r->pid);
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size <= VPROF_CONTROL_SIZE) {
        close(fd);
        return 0;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return 0;
    struct vprof_control *c = m;
    if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) == VPROF_STATE_STARTING) {
        munmap(m, (size_t)st.st_size);
        return 0;
    }
    r->control = c;
    r->size = (size_t)st.st_size;
    vprof_ring_init(&r->ring, m, c->ring_capacity);
    return 1;
}

static void read_stderr(struct run *r)
{
    size_t have = strlen(r->stderr_text);
    ssize_t n;
    while (have + 1 < sizeof r->stderr_text &&
           (n = read(r->err_fd, r->stderr_text + have, sizeof r->stderr_text - 1 - have)) > 0) {
        have += (size_t)n;
        r->stderr_text[have] = '\0';
    }
}

/* One front-end turn: map, heartbeat, and (if drain) empty the ring. */
static void turn(struct run *r, struct tally *t, int drain)
{
    if (try_map(r)) {
        __atomic_store_n(&r->control->heartbeat_ns, monotonic_ns(), __ATOMIC_RELEASE);
        if (drain)
            vprof_ring_read(&r->ring, count, t, SIZE_MAX);
    }
    read_stderr(r);
}

/* Runs until the target exits (bounded), then drains what is left. Returns 0 on time-out. */
static int finish(struct run *r, struct tally *t, int drain_while_running)
{
    const uint64_t deadline = monotonic_ns() + 60ull * 1000000000ull;
    for (;;) {
        turn(r, t, drain_while_running);
        pid_t w = waitpid(r->pid, &r->status, WNOHANG);
        if (w == r->pid)
            break;
        if (monotonic_ns() > deadline) {
            kill(r->pid, SIGKILL);
            waitpid(r->pid, &r->status, 0);
            return 0;
        }
        usleep(2000);
    }
    turn(r, t, 1);
    while (r->control != NULL && vprof_ring_read(&r->ring, count, t, SIZE_MAX) != 0)
        ;
    read_stderr(r);
    close(r->err_fd);
    return 1;
}

static void cleanup(struct run *r)
{
    char path[64];
    snprintf(path, sizeof path, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)r->pid);
    unlink(path); /* our job as the front end */
    if (r->control != NULL)
        munmap(r->control, r->size);
}

static long stat_of(const struct run *r, const char *key)
{
    const char *p = strstr(r->stderr_text, key);
    return p != NULL ? strtol(p + strlen(key), NULL, 10) : -1;
}

static int exited_cleanly(const struct run *r)
{
    return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

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
    CHECK(t.cupti_drops == 0 && t.zero_ts == 0 && r.control->ring_drops == 0);
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
    fprintf(stderr, "DBG in %llu out %llu begun %llu ended %llu reason '%s' state %u\n",
                (unsigned long long)t.kernels_in_range, (unsigned long long)t.kernels_outside,
                (unsigned long long)t.ranges_begun, (unsigned long long)t.ranges_ended, r.control->reason, r.control->state);
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
    CHECK(t.kernels_in_range + t.end_ring_drops_kernels + t.end_cupti_drops + t.zero_ts ==
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
    char dir[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0)
        return 2;
    dir[n] = '\0';
    *strrchr(dir, '/') = '\0';
    snprintf(agent_path, sizeof agent_path, "%s/../libvprof.so", dir);
    snprintf(simgpu_path, sizeof simgpu_path, "%s/../vprof-simgpu", dir);
    if (access(simgpu_path, X_OK) != 0 || access(agent_path, R_OK) != 0) {
        printf("vprof-simgpu or libvprof.so not built: skipped\n0 passed, 0 failed\n");
        return 0;
    }
    signal(SIGPIPE, SIG_IGN);
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
