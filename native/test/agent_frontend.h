/*
 * agent_frontend.h: a minimal front end for the agent tests that run a real
 * target process with the agent injected (agent_simgpu_test, agent_field_test):
 * it starts the target armed through VPROF_ARM, maps its region, heartbeats,
 * drains the ring and tallies what arrived.
 */
#ifndef VPROF_TEST_AGENT_FRONTEND_H
#define VPROF_TEST_AGENT_FRONTEND_H

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
#include "test.h"

extern char agent_path[PATH_MAX + 32];

/* The agent's drain limit (agent.h VPROF_DRAIN_MAX_NS). */
#define VPROF_DRAIN_LIMIT_NS 2000000000ull
static pid_t running_target;

/* After each case (test_after_each): a failed one leaves no target running and no region behind. */
static void frontend_after_each(int failed)
{
    if (failed && running_target > 0) {
        kill(running_target, SIGKILL);
        waitpid(running_target, NULL, 0);
        char path[64];
        snprintf(path, sizeof path, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)running_target);
        unlink(path);
    }
    running_target = 0;
}

#define MAX_IDS 4096

/* What the ring said. */
struct tally {
    uint64_t kernels_in_range, kernels_outside, memcpys, markers, strings, descs, clock_syncs;
    uint64_t ranges_begun, ranges_ended, cupti_drops, invalid, clipped;
    uint64_t by_reason[VPROF_DROPS_REASON_MAX + 1];
    struct vprof_rec_range first_end, last_end; /* the first and the latest END */
    uint64_t graph_kernels;            /* kernels whose KERNEL_DESC has a graph id */
    uint64_t bad_timestamps_published; /* kernels in the ring with a zero or backwards timestamp */
    unsigned char desc_graph[MAX_IDS];
    uint64_t end_ring_drops_kernels, end_cupti_drops;
    uint32_t begin_source, end_source, last_index;
    int in_range;
    int unknown_desc;     /* a KERNEL before its KERNEL_DESC, or a DESC before its STRING */
    unsigned char string_seen[MAX_IDS], desc_seen[MAX_IDS];
};

/* Whether the STRING or KERNEL_DESC `id` arrived before a record naming it (none past MAX_IDS did). */
static inline int seen_before(const unsigned char seen[MAX_IDS], uint32_t id)
{
    return id < MAX_IDS && seen[id];
}

static inline void count(const struct vprof_record_header *h, void *arg)
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
        if (!seen_before(t->string_seen, d->name_id))
            t->unknown_desc = 1;
        if (d->id < MAX_IDS) {
            t->desc_seen[d->id] = 1;
            t->desc_graph[d->id] = d->graph_id != 0;
        }
        t->descs++;
        break;
    }
    case VPROF_REC_KERNEL: {
        const struct vprof_rec_kernel *k = (const void *)h;
        if (!seen_before(t->desc_seen, k->desc_id))
            t->unknown_desc = 1;
        else if (t->desc_graph[k->desc_id])
            t->graph_kernels++;
        if (k->start == 0 || k->end == 0 || k->end < k->start)
            t->bad_timestamps_published++;
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
        else if (d->reason == VPROF_DROPS_CLIPPED)
            t->clipped += d->count;
        else
            t->invalid += d->count;
        if (d->reason <= VPROF_DROPS_REASON_MAX)
            t->by_reason[d->reason] += d->count;
        break;
    }
    case VPROF_REC_RANGE: {
        const struct vprof_rec_range *r = (const void *)h;
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
            if (t->ranges_ended == 1)
                t->first_end = *r;
            t->last_end = *r;
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

static inline uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Starts argv[0] with the agent injected and armed by `arm`; extra_env is NULL or "K=V" strings, NULL-ended. */
static inline void start_env(struct run *r, const char *arm, const char *ring_size, char *const argv[],
                             const char *const extra_env[])
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
        unsetenv("NVTX_INJECTION64_PATH");
        for (int i = 0; extra_env != NULL && extra_env[i] != NULL; i++)
            putenv((char *)extra_env[i]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    running_target = r->pid;
    r->err_fd = fds[0];
    fcntl(r->err_fd, F_SETFL, O_NONBLOCK);
}

static inline void start(struct run *r, const char *arm, const char *ring_size, char *const argv[])
{
    start_env(r, arm, ring_size, argv, NULL);
}

static inline int finish(struct run *r, struct tally *t, int drain_while_running);
static inline int exited_cleanly(const struct run *r);

/* Runs argv to its exit with the agent armed by `arm`, draining all along; 1 if it exited 0. */
static inline int run_to_exit(struct run *r, struct tally *t, const char *arm, char *const argv[],
                              const char *const extra_env[])
{
    memset(t, 0, sizeof *t);
    start_env(r, arm, NULL, argv, extra_env);
    return finish(r, t, 1) && exited_cleanly(r);
}

static inline int try_map(struct run *r)
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

static inline void read_stderr(struct run *r)
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
static inline void turn(struct run *r, struct tally *t, int drain)
{
    if (try_map(r)) {
        __atomic_store_n(&r->control->heartbeat_ns, monotonic_ns(), __ATOMIC_RELEASE);
        if (drain)
            vprof_ring_read(&r->ring, count, t, SIZE_MAX);
    }
    read_stderr(r);
}

/* Runs until the target exits (bounded), then drains what is left. Returns 0 on time-out. */
static inline int finish(struct run *r, struct tally *t, int drain_while_running)
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

static inline void cleanup(struct run *r)
{
    char path[64];
    snprintf(path, sizeof path, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)r->pid);
    unlink(path); /* our job as the front end */
    if (r->control != NULL)
        munmap(r->control, r->size);
}

static inline long stat_of(const struct run *r, const char *key)
{
    const char *p = strstr(r->stderr_text, key);
    return p != NULL ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* 1 if the target exited 0; otherwise says how it ended and what it wrote (a sanitizer's report). */
static inline int exited_cleanly(const struct run *r)
{
    if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0)
        return 1;
    fprintf(stderr, "  the target %s %d; its stderr:\n%s\n",
            WIFSIGNALED(r->status) ? "died of signal" : "exited",
            WIFSIGNALED(r->status) ? WTERMSIG(r->status) : WEXITSTATUS(r->status), r->stderr_text);
    return 0;
}

/* Drains the target to its exit; the case fails unless it exits in time and cleanly. */
static inline void finish_cleanly(struct run *r, struct tally *t)
{
    ASSERT(finish(r, t, 1));
    ASSERT(exited_cleanly(r));
}

/* Stops a target that runs until told (`sig`: the signal it waits for), then finish_cleanly. */
static inline void stop_cleanly(struct run *r, struct tally *t, int sig)
{
    kill(r->pid, sig);
    finish_cleanly(r, t);
}

/*
 * Sets agent_path to the built libvprof.so and target to `name` next to this test (or one
 * directory up); returns 0, after saying "skipped", when either is missing.
 */
static inline int find_native(const char *name, char *target, size_t target_size)
{
    char dir[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0)
        return 0;
    dir[n] = '\0';
    *strrchr(dir, '/') = '\0';
    snprintf(agent_path, PATH_MAX + 32, "%s/../libvprof.so", dir);
    snprintf(target, target_size, "%s/%s", dir, name);
    if (access(target, X_OK) != 0)
        snprintf(target, target_size, "%s/../%s", dir, name);
    if (access(target, X_OK) != 0 || access(agent_path, R_OK) != 0) {
        printf("%s or libvprof.so not built: skipped\n0 passed, 0 failed\n", name);
        return 0;
    }
    signal(SIGPIPE, SIG_IGN);
    return 1;
}

/* A front-end test's main: finds `name` (as find_native does, into target) and runs cases, or skips. */
static inline int frontend_main(int argc, char **argv, const char *name, char *target, size_t target_size,
                                const struct test_case *cases, size_t n)
{
    if (!find_native(name, target, target_size))
        return 0;
    test_after_each = frontend_after_each;
    return test_main(argc, argv, cases, n);
}

#endif /* VPROF_TEST_AGENT_FRONTEND_H */
