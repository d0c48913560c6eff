/*
 * simgpu_rendezvous.c: the NCCL-like rendezvous of separate vprof-simgpu
 * processes (see simgpu_rendezvous.h).
 *
 * What the offset is measured on. The double's CUPTI clock is CLOCK_REALTIME
 * read through libc, which is what faketime (libfaketime, LD_PRELOAD) moves;
 * a "node" run under faketime therefore stamps its kernels, its CLOCK_SYNC
 * pairs and its front end's clock with the moved time, as a host whose NTP is
 * off would. The ranks need one physical time to meet on, which real NCCL
 * gets from its data arriving over the interconnect: here that is
 * CLOCK_MONOTONIC read with a raw syscall, which no LD_PRELOAD library sees
 * and all processes of this machine share. Each rank turns its own times
 * into that reference and back with a (realtime, raw monotonic) pair read
 * around the exchange, so the k-th all-reduce ends at the same physical
 * instant on every rank, whatever each rank's clock says.
 */
#include "sim/simgpu_rendezvous.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RDV_MAX_WORLD 64
#define RDV_TIMEOUT_NS 30000000000ull

struct rdv_slot {
    _Atomic uint64_t ready_ref[RDV_MAX_WORLD]; /* when each rank's stream reached the collective */
    _Atomic uint64_t duration[RDV_MAX_WORLD];
};

struct rdv_shared {
    _Atomic uint64_t arrived; /* arrivals in all collectives so far */
    _Atomic uint32_t left;
    struct rdv_slot slots[2]; /* collective k uses slots[k % 2]: see simgpu_rendezvous_allreduce */
};

static struct rdv_shared *shared;
static int my_rank, my_world;
static uint64_t collectives; /* this rank's all-reduces so far */
static char shm_name[96];

/* The physical reference: CLOCK_MONOTONIC by syscall, past any LD_PRELOAD. */
static uint64_t reference_ns(void) {
    struct timespec ts;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t own_realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts); /* through libc: the clock CUPTI (the double) uses */
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* own clock − reference, from a reference read between two own reads. */
static int64_t own_minus_reference(void) {
    uint64_t a = own_realtime_ns();
    uint64_t m = reference_ns();
    uint64_t b = own_realtime_ns();
    return (int64_t)(a + (b - a) / 2) - (int64_t)m;
}

static void set_env_int(const char *name, int v) {
    char s[16];
    snprintf(s, sizeof s, "%d", v);
    setenv(name, s, 1);
}

int simgpu_rendezvous_join(const char *name, int rank, int world) {
    if (world < 1 || world > RDV_MAX_WORLD || rank < 0 || rank >= world) {
        fprintf(stderr, "vprof-simgpu: --rank must be in 0..%d for --world %d\n", world - 1, world);
        return -1;
    }
    snprintf(shm_name, sizeof shm_name, "/vprof-rdv.%s", name);
    int fd = shm_open(shm_name, O_RDWR | O_CREAT, 0600);
    if (fd < 0 || ftruncate(fd, sizeof(struct rdv_shared)) != 0) {
        fprintf(stderr, "vprof-simgpu: cannot create the rendezvous %s in /dev/shm: %s\n", shm_name, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    void *p = mmap(NULL, sizeof(struct rdv_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        fprintf(stderr, "vprof-simgpu: cannot map the rendezvous %s: %s\n", shm_name, strerror(errno));
        return -1;
    }
    shared = p;
    my_rank = rank;
    my_world = world;
    /* A launcher gives each rank these before CUDA starts; one GPU per simulated node. */
    set_env_int("RANK", rank);
    set_env_int("WORLD_SIZE", world);
    setenv("LOCAL_RANK", "0", 1);
    return 0;
}

int simgpu_rendezvous_active(void) { return shared != NULL; }

/* Yield, then sleep longer the longer the wait: a rank waiting seconds for a peer that is still
 * starting must not take the CPU its own front end needs (the agent's heartbeat). How soon a rank
 * wakes changes nothing in the kernels' times, which come from the shared instant. */
static void pause_briefly(unsigned spins) {
    if (spins < 64) {
        sched_yield();
    } else {
        struct timespec ts = { 0, spins < 2000 ? 20000 : 1000000 }; /* 20 us, then 1 ms */
        nanosleep(&ts, NULL);
    }
}

/*
 * Slot reuse is safe with two slots: a rank writes slots[k % 2] for
 * collective k only after passing collective k-1, which needs every rank's
 * arrival at k-1, which each makes only after reading its results of k-2
 * (the previous user of the slot).
 */
void simgpu_rendezvous_allreduce(simcuda_stream stream, const char *name, simcuda_dim3 grid,
                                 simcuda_dim3 block, uint64_t duration_ns) {
    struct rdv_slot *slot = &shared->slots[collectives % 2];
    uint64_t ready_own = simcuda_stream_ready_ns(stream);
    int64_t skew = own_minus_reference();
    atomic_store(&slot->ready_ref[my_rank], (uint64_t)((int64_t)ready_own - skew));
    atomic_store(&slot->duration[my_rank], duration_ns);
    uint64_t target = (collectives + 1) * (uint64_t)my_world;
    atomic_fetch_add(&shared->arrived, 1);
    uint64_t waited_since = reference_ns();
    for (unsigned spins = 0; atomic_load(&shared->arrived) < target; spins++) {
        pause_briefly(spins);
        if ((spins & 63) == 63 && reference_ns() - waited_since > RDV_TIMEOUT_NS) {
            fprintf(stderr, "vprof-simgpu: pid=%d rank %d waited 30 s at all-reduce %llu of rendezvous %s for the other "
                    "ranks of %d; is every rank running with the same --rendezvous and --world?\n", (int)getpid(),
                    my_rank, (unsigned long long)collectives, shm_name + 1, my_world);
            exit(3);
        }
    }
    uint64_t last_ready = 0, longest = 0;
    for (int r = 0; r < my_world; r++) {
        uint64_t t = atomic_load(&slot->ready_ref[r]), d = atomic_load(&slot->duration[r]);
        if (t > last_ready) last_ready = t;
        if (d > longest) longest = d;
    }
    collectives++;
    /* The data of the last rank in, plus the longest transfer: the same physical end on every rank. */
    uint64_t end_own = (uint64_t)((int64_t)(last_ready + longest) + own_minus_reference());
    uint64_t start_own = ready_own < end_own ? ready_own : end_own - 1;
    simcuda_launch_kernel_at(stream, name, grid, block, start_own, end_own);
}

void simgpu_rendezvous_leave(void) {
    if (shared == NULL) return;
    if (atomic_fetch_add(&shared->left, 1) + 1 == (uint32_t)my_world) shm_unlink(shm_name);
    munmap(shared, sizeof(struct rdv_shared));
    shared = NULL;
}
