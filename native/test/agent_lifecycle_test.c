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

static int passed, failed;
static char agent_path[PATH_MAX + 32];
static char real_cupti[PATH_MAX];

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "  %s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, __func__, #cond); \
    return 0; } } while (0)

/* Runs a scenario in a child process; the child's exit status is the verdict. */
#define RUN(test) do { fflush(stdout); pid_t pid_ = fork(); \
    if (pid_ == 0) { exit(test() ? 0 : 1); /* exit, not _exit: the agent's atexit runs */ } \
    int st_ = 0; waitpid(pid_, &st_, 0); \
    if (WIFEXITED(st_) && WEXITSTATUS(st_) == 0) { passed++; printf("ok   %s\n", #test); } \
    else { failed++; printf("FAIL %s\n", #test); } } while (0)

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

static int realCuptiWithoutDriverFailsWithItsOwnErrorAndTheProcessGoesOn(void)
{
    if (real_cupti[0] == '\0') {
        printf("     (no real libcupti here; checked nothing)\n");
        return 1;
    }
    setenv("VPROF_CUPTI_LIB", real_cupti, 1);
    void *h = load_agent();
    CHECK(h != NULL);
    struct mapped m;
    CHECK(map_region(getpid(), &m) == 0);
    CHECK(m.control->magic == VPROF_MAGIC);
    CHECK(state_of(&m) == VPROF_STATE_DORMANT);
    CHECK(m.control->agent_flags & VPROF_AGENT_INJECTED_LATE);
    int (*init)(void) = (int (*)(void))dlsym(h, "InitializeInjection");
    CHECK(init != NULL);
    CHECK(init() == 1);
    CHECK(init() == 1); /* idempotent */
    CHECK(state_of(&m) == VPROF_STATE_FAILED);
    CHECK(strstr(m.control->reason, "cuptiSubscribe failed: CUPTI_ERROR_UNKNOWN") != NULL);
    CHECK(m.control->agent_flags & VPROF_AGENT_INJECTED_AT_LAUNCH);
    CHECK(!(m.control->agent_flags & VPROF_AGENT_INJECTED_LATE));
    CHECK(m.control->agent_flags & VPROF_AGENT_CUPTI_LOADED);
    /* A front end that arms it anyway is told so. */
    CHECK(command(&m, VPROF_CMD_ARM, VPROF_RANGE_NONE) == VPROF_RESULT_FAILED);
    CHECK(state_of(&m) == VPROF_STATE_FAILED);
    return 1;
}

static int regionCarriesIdentityAndIsPrivate(void)
{
    setenv("VPROF_RING_SIZE", "100k", 1);
    CHECK(load_agent() != NULL);
    char path[64];
    region_path(getpid(), path, sizeof path);
    struct stat st;
    CHECK(stat(path, &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(st.st_uid == getuid());
    CHECK(st.st_size == VPROF_CONTROL_SIZE + 131072);
    struct mapped m;
    CHECK(map_region(getpid(), &m) == 0);
    const struct vprof_control *c = m.control;
    CHECK(c->format_version == VPROF_FORMAT_VERSION && c->control_size == VPROF_CONTROL_SIZE);
    CHECK(c->ring_capacity == 131072);
    CHECK(c->pid == getpid() && c->uid == getuid());
    CHECK(c->start_realtime_ns > 1600000000ull * 1000000000ull);
    CHECK(c->heartbeat_timeout_ns == 5000000000ull);
    CHECK(strstr(c->cmdline, "agent_lifecycle_test") != NULL);
    return 1;
}

static int staleRegionWithOurPidIsReplaced(void)
{
    char path[64];
    region_path(getpid(), path, sizeof path);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0);
    CHECK(write(fd, "stale", 5) == 5);
    close(fd);
    CHECK(load_agent() != NULL);
    struct mapped m;
    CHECK(map_region(getpid(), &m) == 0);
    CHECK(m.control->magic == VPROF_MAGIC && state_of(&m) == VPROF_STATE_DORMANT);
    return 1;
}

static int malformedVprofArmIsRefusedWithAReason(void)
{
    setenv("VPROF_ARM", "mode=sometimes,repeat=2", 1);
    CHECK(load_agent() != NULL);
    struct mapped m;
    CHECK(map_region(getpid(), &m) == 0);
    CHECK(state_of(&m) == VPROF_STATE_DORMANT);
    CHECK(strstr(m.control->reason, "VPROF_ARM") != NULL);
    CHECK(strstr(m.control->reason, "mode") != NULL);
    return 1;
}

static int missingCuptiLibraryFailsAtArmWithThePath(void)
{
    setenv("VPROF_CUPTI_LIB", "/nonexistent/libcupti.so.13", 1);
    CHECK(load_agent() != NULL);
    struct mapped m;
    CHECK(map_region(getpid(), &m) == 0);
    CHECK(state_of(&m) == VPROF_STATE_DORMANT); /* lazy: nothing loaded before ARM */
    CHECK(command(&m, VPROF_CMD_ARM, VPROF_RANGE_NONE) == VPROF_RESULT_FAILED);
    CHECK(state_of(&m) == VPROF_STATE_FAILED);
    CHECK(strstr(m.control->reason, "/nonexistent/libcupti.so.13") != NULL);
    return 1;
}

static int exitRemovesTheRegionWhenNoFrontEndIsAttached(void)
{
    pid_t child = fork();
    if (child == 0) {
        exit(load_agent() != NULL ? 0 : 3);
    }
    int st = 0;
    waitpid(child, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char path[64];
    region_path(child, path, sizeof path);
    CHECK(access(path, F_OK) != 0 && errno == ENOENT);
    return 1;
}

static int exitKeepsTheRegionForALiveFrontEndAndSaysExited(void)
{
    int ready[2], go[2];
    CHECK(pipe(ready) == 0 && pipe(go) == 0);
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
    CHECK(read(ready[0], &b, 1) == 1);
    struct mapped m;
    CHECK(map_region(child, &m) == 0);
    m.control->frontend_pid = getpid(); /* we are its front end, and alive */
    CHECK(write(go[1], &b, 1) == 1);
    int st = 0;
    waitpid(child, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(state_of(&m) == VPROF_STATE_EXITED);
    char path[64];
    region_path(child, path, sizeof path);
    CHECK(access(path, F_OK) == 0);
    unlink(path); /* the front end's job */
    return 1;
}

static int forkedChildGetsItsOwnRegionAndLeavesTheParents(void)
{
    CHECK(load_agent() != NULL);
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
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct mapped m;
    CHECK(map_region(getpid(), &m) == 0);
    CHECK(m.control->pid == getpid() && state_of(&m) == VPROF_STATE_DORMANT);
    return 1;
}

int main(int argc, char **argv)
{
    (void)argc;
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

    RUN(realCuptiWithoutDriverFailsWithItsOwnErrorAndTheProcessGoesOn);
    RUN(regionCarriesIdentityAndIsPrivate);
    RUN(staleRegionWithOurPidIsReplaced);
    RUN(malformedVprofArmIsRefusedWithAReason);
    RUN(missingCuptiLibraryFailsAtArmWithThePath);
    RUN(exitRemovesTheRegionWhenNoFrontEndIsAttached);
    RUN(exitKeepsTheRegionForALiveFrontEndAndSaysExited);
    RUN(forkedChildGetsItsOwnRegionAndLeavesTheParents);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
