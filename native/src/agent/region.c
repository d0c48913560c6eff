/* region.c: /dev/shm/vprof.<pid>, the control block's identity, and its removal. */
#include "agent/agent.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t vprof_now_ns(int clock_id)
{
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t round_up_pow2(uint64_t v)
{
    uint64_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

int vprof_parse_size(const char *text, int suffixes, uint64_t *out)
{
    if (text == NULL || text[0] < '0' || text[0] > '9')
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t scale = 1;
    if (*end != '\0') {
        switch (suffixes ? *end : '\0') {
        case 'k': case 'K': scale = 1024u; break;
        case 'm': case 'M': scale = 1024u * 1024u; break;
        case 'g': case 'G': scale = 1024u * 1024u * 1024u; break;
        default: return -1;
        }
        if (end[1] != '\0' && !((end[1] == 'b' || end[1] == 'B') && end[2] == '\0'))
            return -1;
    }
    if (errno != 0 || v > UINT64_MAX / scale)
        return -1;
    *out = v * scale;
    return 0;
}

uint64_t vprof_ring_size_parse(const char *text, char *why, size_t why_size)
{
    if (text == NULL || text[0] == '\0')
        return VPROF_RING_DEFAULT;
    uint64_t bytes = 0;
    if (vprof_parse_size(text, 1, &bytes) != 0) {
        snprintf(why, why_size,
                 "VPROF_RING_SIZE=%s is not a size such as 67108864, 64m or 512k; using %u bytes",
                 text, VPROF_RING_DEFAULT);
        return VPROF_RING_DEFAULT;
    }
    if (bytes < VPROF_RING_MIN)
        bytes = VPROF_RING_MIN;
    if (bytes > VPROF_RING_MAX)
        bytes = VPROF_RING_MAX;
    return round_up_pow2(bytes);
}

static void read_cmdline(char *out, size_t size)
{
    out[0] = '\0';
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    if (n <= 0)
        return;
    while (n > 0 && out[n - 1] == '\0')
        n--;
    for (ssize_t i = 0; i < n; i++)
        if (out[i] == '\0')
            out[i] = ' ';
    out[n] = '\0';
}

static int open_exclusive(const char *path, char *why, size_t why_size)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST || attempt == 1)
            break;
        /* A file named for our pid is a leftover of an earlier process with this pid. */
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (!S_ISREG(st.st_mode) || st.st_uid != getuid()) {
            snprintf(why, why_size, "%s exists and is not ours (uid %u); remove it", path,
                     (unsigned)st.st_uid);
            return -1;
        }
        unlink(path);
    }
    snprintf(why, why_size, "cannot create %s: %s", path, strerror(errno));
    return -1;
}

int vprof_region_create(struct vprof_agent *a, char *why, size_t why_size)
{
    char ring_why[VPROF_REASON_MAX] = "";
    const uint64_t capacity = vprof_ring_size_parse(getenv("VPROF_RING_SIZE"), ring_why,
                                                    sizeof ring_why);
    a->pid = getpid();
    snprintf(a->shm_path, sizeof a->shm_path, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)a->pid);
    int fd = open_exclusive(a->shm_path, why, why_size);
    if (fd < 0)
        return -1;
    const size_t size = VPROF_CONTROL_SIZE + capacity;
    if (fchmod(fd, 0600) != 0 || ftruncate(fd, (off_t)size) != 0) {
        snprintf(why, why_size, "cannot size %s to %zu bytes: %s", a->shm_path, size, strerror(errno));
        close(fd);
        unlink(a->shm_path);
        return -1;
    }
    void *region = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (region == MAP_FAILED) {
        snprintf(why, why_size, "cannot map %s: %s", a->shm_path, strerror(errno));
        unlink(a->shm_path);
        return -1;
    }
    a->region = region;
    a->region_size = size;
    a->control = region;
    vprof_ring_init(&a->ring, region, capacity);
    a->capture.ring = &a->ring;

    struct vprof_control *c = a->control;
    c->magic = VPROF_MAGIC;
    c->format_version = VPROF_FORMAT_VERSION;
    c->control_size = VPROF_CONTROL_SIZE;
    c->ring_capacity = capacity;
    c->pid = (int32_t)a->pid;
    c->uid = (uint32_t)getuid();
    c->cupti_version = a->cupti.handle != NULL ? a->cupti.version : 0u;
    c->start_realtime_ns = vprof_now_ns(CLOCK_REALTIME);
    c->agent_flags = a->launch_injected ? VPROF_AGENT_INJECTED_AT_LAUNCH : VPROF_AGENT_INJECTED_LATE;
    if (a->cupti.handle != NULL)
        c->agent_flags |= VPROF_AGENT_CUPTI_LOADED;
    c->heartbeat_timeout_ns = 5000000000ull;
    read_cmdline(c->cmdline, sizeof c->cmdline);
    c->cupti_facts = a->cupti_facts;
    vprof_read_rank_env(a);
    if (ring_why[0] != '\0')
        snprintf(c->reason, sizeof c->reason, "%s", ring_why);
    a->ready = 1;
    /* Last: a reader trusts nothing in the region before the state leaves STARTING. */
    __atomic_store_n(&c->state, VPROF_STATE_DORMANT, __ATOMIC_RELEASE);
    return 0;
}

void vprof_region_forget(struct vprof_agent *a)
{
    if (a->region != NULL)
        munmap(a->region, a->region_size);
    a->region = NULL;
    a->control = NULL;
    a->ready = 0;
}

static int alive(int32_t pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

void vprof_region_close_at_exit(struct vprof_agent *a)
{
    if (!a->ready)
        return;
    struct vprof_control *c = a->control;
    /* FAILED stays FAILED: its reason is what a front end reading the region after us needs. */
    if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) != VPROF_STATE_FAILED)
        __atomic_store_n(&c->state, VPROF_STATE_EXITED, __ATOMIC_RELEASE);
    /* A front end still draining the ring unlinks the file when it is done. */
    const int32_t frontend = __atomic_load_n(&c->frontend_pid, __ATOMIC_ACQUIRE);
    if (!(frontend != 0 && frontend != (int32_t)a->pid && alive(frontend)))
        unlink(a->shm_path);
    /* Stays mapped: a CUPTI worker may still be completing a buffer while we exit. */
}
