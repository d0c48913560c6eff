/*
 * cuptisim_helpers.c: the helper threads libcuda starts when CUDA initializes.
 *
 * A real CUDA process is never single-threaded after cuInit. Stacks taken from live CUDA
 * processes (gdb `thread apply all bt` in NVIDIA/nccl#901, #1550, ik_llama.cpp#1152) show:
 *   "cuda-EvtHandlr"   blocked in poll() on the driver's event fds, timeout 100 ms, forever;
 *   "cuda0000...."     blocked in pthread_cond_timedwait() (a driver worker waiting for work).
 * Both started from libcuda through start_thread/clone. The double starts the same two, with
 * the same names and the same blocking calls, so that late injection meets the threads it
 * meets in a real target (where it usually borrows one of them). Nothing they do is a GPU
 * figure. They live until the process exits, as libcuda's do.
 */
#include "sim/cuptisim_helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#define EVENT_POLL_MS 100
#define WORKER_WAIT_MS 1000

static pthread_once_t helpers_once = PTHREAD_ONCE_INIT;
static atomic_int disabled;
static int event_fds[2] = {-1, -1};
static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_ready = PTHREAD_COND_INITIALIZER;

/* Waits for "device events" on a pipe nobody writes: poll returns every 100 ms (or early
 * with EINTR) and the loop goes on, as the driver's event thread does. */
static void *event_handler(void *arg) {
    (void)arg;
    struct pollfd p = {.fd = event_fds[0], .events = POLLIN};
    for (;;) {
        int n = poll(&p, 1, EVENT_POLL_MS);
        if (n > 0 && (p.revents & POLLIN)) {
            char drain[64];
            (void)!read(event_fds[0], drain, sizeof drain);
        }
    }
    return NULL;
}

/* Waits for work that never comes, with a timed condition wait. */
static void *driver_worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&work_lock);
    for (;;) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += WORKER_WAIT_MS / 1000;
        pthread_cond_timedwait(&work_ready, &work_lock, &until);
    }
    pthread_mutex_unlock(&work_lock);
    return NULL;
}

static void start_one(void *(*fn)(void *), const char *name) {
    pthread_attr_t a;
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&a, 256 * 1024);
    if (pthread_create(&t, &a, fn, NULL) == 0) pthread_setname_np(t, name);
    pthread_attr_destroy(&a);
}

static void start_helpers(void) {
    if (atomic_load(&disabled)) return;
    if (pipe2(event_fds, O_CLOEXEC) != 0) return;
    start_one(event_handler, "cuda-EvtHandlr");
    start_one(driver_worker, "cuda00001400006");
}

void sim_helpers_start(void) { pthread_once(&helpers_once, start_helpers); }

void simcuda_helpers_disable(void) { atomic_store(&disabled, 1); }
