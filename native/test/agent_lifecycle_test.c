/*
 * agent_lifecycle_test.c: libvprof.so loaded into a process, as CUDA or
 * LD_PRELOAD would, without a GPU. Each scenario runs in a forked child so
 * that it gets a fresh agent (one per process).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vprof_ring.h"
#include "test.h"

static char agent_path[PATH_MAX + 32];
static char real_cupti[PATH_MAX];

struct mapped {
    struct vprof_control *control;
    size_t size;
};

static void region_path(pid_t pid, char *out, size_t size)
{
    snprintf(out, size, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)pid);
}

static int map_region(pid_t pid, struct mapped *m)
{
    char path[64];
    region_path(pid, path, sizeof path);
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return -1;
    struct stat st;
    fstat(fd, &st);
    m->size = (size_t)st.st_size;
    m->control = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return m->control == MAP_FAILED ? -1 : 0;
}

static uint32_t state_of(const struct mapped *m)
{
    return __atomic_load_n(&m->control->state, __ATOMIC_ACQUIRE);
}

static void *load_agent(void)
{
    void *h = dlopen(agent_path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        fprintf(stderr, "  dlopen %s: %s\n", agent_path, dlerror());
    return h;
}

/* Sends a command and waits (bounded) for the agent's ack; returns cmd_result or -1. */
static int command(struct mapped *m, uint32_t cmd, uint32_t mode)
{
    struct vprof_control *c = m->control;
    c->cmd = cmd;
    c->cmd_range_mode = mode;
    c->cmd_kinds = VPROF_KINDS_DEFAULT;
    c->frontend_pid = getpid();
    const uint64_t seq = c->cmd_seq + 1;
    __atomic_store_n(&c->cmd_seq, seq, __ATOMIC_RELEASE);
    for (int i = 0; i < 1000; i++) { /* up to 10 s; the agent polls every 10 ms */
        if (__atomic_load_n(&c->cmd_ack, __ATOMIC_ACQUIRE) == seq)
            return (int)c->cmd_result;
        usleep(10000);
    }
    return -1;
}

TEST(realCuptiWithoutDriverFailsWithItsOwnErrorAndTheProcessGoesOn)
{
    if (real_cupti[0] == '\0')
        SKIP("no real libcupti here");
    setenv("VPROF_CUPTI_LIB", real_cupti, 1);
    void *h = load_agent();
    ASSERT(h != NULL);
    struct mapped m;
    ASSERT_EQ(map_region(getpid(), &m), 0);
    ASSERT_EQ(m.control->magic, VPROF_MAGIC);
    ASSERT_EQ(state_of(&m), VPROF_STATE_DORMANT);
    ASSERT(m.control->agent_flags & VPROF_AGENT_INJECTED_LATE);
    int (*init)(void) = (int (*)(void))dlsym(h, "InitializeInjection");
    ASSERT(init != NULL);
    ASSERT_EQ(init(), 1);
    ASSERT_EQ(init(), 1); /* idempotent */
    ASSERT_EQ(state_of(&m), VPROF_STATE_FAILED);
    ASSERT_CONTAINS(m.control->reason, "cuptiSubscribe failed: CUPTI_ERROR_UNKNOWN");
    ASSERT(m.control->agent_flags & VPROF_AGENT_INJECTED_AT_LAUNCH);
    ASSERT(!(m.control->agent_flags & VPROF_AGENT_INJECTED_LATE));
    ASSERT(m.control->agent_flags & VPROF_AGENT_CUPTI_LOADED);
    /* A front end that arms it anyway is told so. */
    ASSERT_EQ(command(&m, VPROF_CMD_ARM, VPROF_RANGE_NONE), VPROF_RESULT_FAILED);
    ASSERT_EQ(state_of(&m), VPROF_STATE_FAILED);
}

TEST(regionCarriesIdentityAndIsPrivate)
{
    setenv("VPROF_RING_SIZE", "100k", 1);
    ASSERT(load_agent() != NULL);
    char path[64];
    region_path(getpid(), path, sizeof path);
    struct stat st;
    ASSERT_EQ(stat(path, &st), 0);
    ASSERT_EQ(st.st_mode & 0777, 0600);
    ASSERT_EQ(st.st_uid, getuid());
    ASSERT_EQ(st.st_size, VPROF_CONTROL_SIZE + 131072);
    struct mapped m;
    ASSERT_EQ(map_region(getpid(), &m), 0);
    const struct vprof_control *c = m.control;
    ASSERT_EQ(c->format_version, VPROF_FORMAT_VERSION);
    ASSERT_EQ(c->control_size, VPROF_CONTROL_SIZE);
    ASSERT_EQ(c->ring_capacity, 131072);
    ASSERT_EQ(c->pid, getpid());
    ASSERT_EQ(c->uid, getuid());
    ASSERT_GT(c->start_realtime_ns, 1600000000ull * 1000000000ull);
    ASSERT_EQ(c->heartbeat_timeout_ns, 5000000000ull);
    ASSERT_CONTAINS(c->cmdline, "agent_lifecycle_test");
}

TEST(staleRegionWithOurPidIsReplaced)
{
    char path[64];
    region_path(getpid(), path, sizeof path);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, "stale", 5), 5);
    close(fd);
    ASSERT(load_agent() != NULL);
    struct mapped m;
    ASSERT_EQ(map_region(getpid(), &m), 0);
    ASSERT_EQ(m.control->magic, VPROF_MAGIC);
    ASSERT_EQ(state_of(&m), VPROF_STATE_DORMANT);
}

TEST(malformedVprofArmIsRefusedWithAReason)
{
    setenv("VPROF_ARM", "mode=sometimes,repeat=2", 1);
    ASSERT(load_agent() != NULL);
    struct mapped m;
    ASSERT_EQ(map_region(getpid(), &m), 0);
    ASSERT_EQ(state_of(&m), VPROF_STATE_DORMANT);
    ASSERT_CONTAINS(m.control->reason, "VPROF_ARM");
    ASSERT_CONTAINS(m.control->reason, "mode");
}

TEST(missingCuptiLibraryFailsAtArmWithThePath)
{
    setenv("VPROF_CUPTI_LIB", "/nonexistent/libcupti.so.13", 1);
    ASSERT(load_agent() != NULL);
    struct mapped m;
    ASSERT_EQ(map_region(getpid(), &m), 0);
    ASSERT_EQ(state_of(&m), VPROF_STATE_DORMANT); /* lazy: nothing loaded before ARM */
    ASSERT_EQ(command(&m, VPROF_CMD_ARM, VPROF_RANGE_NONE), VPROF_RESULT_FAILED);
    ASSERT_EQ(state_of(&m), VPROF_STATE_FAILED);
    ASSERT_CONTAINS(m.control->reason, "/nonexistent/libcupti.so.13");
}

TEST(exitRemovesTheRegionWhenNoFrontEndIsAttached)
{
    pid_t child = fork();
    if (child == 0) {
        exit(load_agent() != NULL ? 0 : 3);
    }
    int st = 0;
    waitpid(child, &st, 0);
    ASSERT(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 0);
    char path[64];
    region_path(child, path, sizeof path);
    ASSERT_NE(access(path, F_OK), 0);
    ASSERT_EQ(errno, ENOENT);
}

TEST(exitKeepsTheRegionForALiveFrontEndAndSaysExited)
{
    int ready[2], go[2];
    ASSERT_EQ(pipe(ready), 0);
    ASSERT_EQ(pipe(go), 0);
    pid_t child = fork();
    if (child == 0) {
        char b = 0;
        if (load_agent() == NULL)
            _exit(3);
        (void)!write(ready[1], &b, 1);
        (void)!read(go[0], &b, 1);
        exit(0);
    }
    char b;
    ASSERT_EQ(read(ready[0], &b, 1), 1);
    struct mapped m;
    ASSERT_EQ(map_region(child, &m), 0);
    m.control->frontend_pid = getpid(); /* we are its front end, and alive */
    ASSERT_EQ(write(go[1], &b, 1), 1);
    int st = 0;
    waitpid(child, &st, 0);
    ASSERT(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 0);
    ASSERT_EQ(state_of(&m), VPROF_STATE_EXITED);
    char path[64];
    region_path(child, path, sizeof path);
    ASSERT_EQ(access(path, F_OK), 0);
    unlink(path); /* the front end's job */
}

TEST(forkedChildGetsItsOwnRegionAndLeavesTheParents)
{
#if defined(__SANITIZE_THREAD__)
    /* The child starts the agent's control thread again, as a forking server's child does;
       ThreadSanitizer cannot follow a thread started after a multi-threaded process forked. */
    SKIP("ThreadSanitizer does not support threads started in the child of a multi-threaded fork");
#endif
    ASSERT(load_agent() != NULL);
    /* Fork once the agent's control thread has answered a command, as a server forks its
       workers long after start-up. gcc 12's AddressSanitizer runtime has no fork handler for
       its allocator: a fork while the new thread is still in the runtime's own set-up (which
       allocates) leaves the child's allocator locked for good. */
    struct mapped m;
    ASSERT_EQ(map_region(getpid(), &m), 0);
    ASSERT_EQ(command(&m, VPROF_CMD_DISARM, 0), VPROF_RESULT_OK);
    pid_t child = fork();
    if (child == 0) {
        struct mapped cm;
        if (map_region(getpid(), &cm) != 0 || cm.control->pid != getpid() ||
            state_of(&cm) != VPROF_STATE_DORMANT)
            exit(4);
        /* The child's control thread answers commands. */
        exit(command(&cm, VPROF_CMD_DISARM, 0) == VPROF_RESULT_OK ? 0 : 5);
    }
    int st = 0;
    waitpid(child, &st, 0);
    ASSERT(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 0);
    ASSERT_EQ(m.control->pid, getpid());
    ASSERT_EQ(state_of(&m), VPROF_STATE_DORMANT);
}

int main(int argc, char **argv)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 2;
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';
    snprintf(agent_path, sizeof agent_path, "%s/../libvprof.so", exe);
    if (access(agent_path, R_OK) != 0) {
        fprintf(stderr, "%s: %s not built\n", argv[0], agent_path);
        return 2;
    }
    const char *cuda = getenv("CUDA_HOME");
    const char *candidates[] = { "/usr/local/cuda/lib/libcupti.so.13",
                                 "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13" };
    if (cuda != NULL) {
        snprintf(real_cupti, sizeof real_cupti, "%s/lib/libcupti.so.13", cuda);
        if (access(real_cupti, R_OK) != 0)
            real_cupti[0] = '\0';
    }
    for (size_t i = 0; real_cupti[0] == '\0' && i < 2; i++)
        if (access(candidates[i], R_OK) == 0)
            snprintf(real_cupti, sizeof real_cupti, "%s", candidates[i]);
    unsetenv("VPROF_ARM");
    unsetenv("VPROF_CUPTI_LIB");
    unsetenv("CUDA_INJECTION64_PATH");

    static const struct test_case cases[] = {
        FORKED(realCuptiWithoutDriverFailsWithItsOwnErrorAndTheProcessGoesOn),
        FORKED(regionCarriesIdentityAndIsPrivate),
        FORKED(staleRegionWithOurPidIsReplaced),
        FORKED(malformedVprofArmIsRefusedWithAReason),
        FORKED(missingCuptiLibraryFailsAtArmWithThePath),
        FORKED(exitRemovesTheRegionWhenNoFrontEndIsAttached),
        FORKED(exitKeepsTheRegionForALiveFrontEndAndSaysExited),
        FORKED(forkedChildGetsItsOwnRegionAndLeavesTheParents),
    };
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
