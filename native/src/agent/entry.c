/*
 * entry.c: how the agent comes alive and goes away.
 *
 *   constructor          LD_PRELOAD, or a late dlopen into a running process:
 *                        region + control thread. When CUDA_INJECTION64_PATH
 *                        names this library, InitializeInjection does it instead:
 *                        a process that loads us only as its NVTX injection
 *                        (below) and never initializes CUDA gets no region.
 *   InitializeInjection  called by libcuda during cuInit when CUDA_INJECTION64_PATH
 *                        names this library: loads and subscribes CUPTI (dormant).
 *   InitializeInjectionNvtx2
 *                        called by NVTX when NVTX_INJECTION64_PATH names this
 *                        library (`vprof run` and `launch` set it, so NVTX used
 *                        before CUDA initializes is seen, R12): loads the libcupti
 *                        the agent will use, by the agent's own search, and hands
 *                        NVTX to it; CUDA's injection later finds the same one.
 *   first ARM            when InitializeInjection never came (LD_PRELOAD without
 *                        it, or late injection): CUPTI is loaded then, lazily.
 *   exit                 ends an open range, state EXITED, removes the region
 *                        unless a front end still reads it.
 *   fork (child)         forgets the parent's region, makes its own.
 * All of them are idempotent and none of them can stop the target.
 */
#include "agent/agent.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static int process_hooks_installed;

/* Whether a path list (LD_PRELOAD, CUDA_INJECTION64_PATH) names this library. */
static int names_us(const char *list, const char *self)
{
    if (list == NULL || list[0] == '\0' || self[0] == '\0')
        return 0;
    if (strstr(list, self) != NULL)
        return 1;
    const char *base = strrchr(self, '/');
    base = base != NULL ? base + 1 : self;
    return strstr(list, base) != NULL;
}

static void take_pending_arm(struct vprof_agent *a)
{
    const char *text = getenv("VPROF_ARM");
    if (text == NULL || text[0] == '\0')
        return;
    char why[VPROF_REASON_MAX] = "";
    if (vprof_parse_arm(text, &a->pending, why, sizeof why) == 0) {
        __atomic_store_n(&a->pending_arm, 1, __ATOMIC_RELEASE);
        /* `vprof run` waits for this region: name it now, before CUPTI can fail, so that a
         * process that exits at once keeps its region (and its FAILED reason) for that front end
         * (vprof_region_close_at_exit). */
        __atomic_store_n(&a->control->frontend_pid, a->pending.frontend_pid, __ATOMIC_RELEASE);
    } else
        vprof_warn(a, why); /* stays DORMANT; the front end sees why */
}

static void on_exit_handler(void);
static void on_fork_child(void);

static void learn_self_path(struct vprof_agent *a)
{
    Dl_info info;
    if (a->self_path[0] == '\0' && dladdr((void *)&learn_self_path, &info) != 0 && info.dli_fname != NULL)
        snprintf(a->self_path, sizeof a->self_path, "%s", info.dli_fname);
}

/* Region, control thread and hooks for the current process; call with start_lock held. */
static void start_for_this_process(struct vprof_agent *a)
{
    if (a->ready && a->pid == getpid())
        return;
    learn_self_path(a);
    const int by_cuda = names_us(getenv("CUDA_INJECTION64_PATH"), a->self_path);
    a->launch_injected = a->injection_called || by_cuda || names_us(getenv("LD_PRELOAD"), a->self_path);
    a->injection_expected = by_cuda && !a->injection_called && a->cupti_state == 0;

    char why[VPROF_REASON_MAX] = "";
    if (vprof_region_create(a, why, sizeof why) != 0) {
        /* Nothing to report into: one line on stderr, then out of the way. */
        fprintf(stderr, "vprof: agent inactive in pid %d: %s\n", (int)getpid(), why);
        return;
    }
    take_pending_arm(a);
    if (!process_hooks_installed) {
        process_hooks_installed = 1;
        atexit(on_exit_handler);
        pthread_atfork(NULL, NULL, on_fork_child);
    }
    if (vprof_control_thread_start(a) != 0) {
        pthread_mutex_lock(&a->state_lock);
        vprof_fail(a, "cannot start the agent's control thread; the agent is off");
        pthread_mutex_unlock(&a->state_lock);
    }
}

/* Applies VPROF_ARM now, if CUPTI need not wait for InitializeInjection. State lock held. */
static void arm_from_env_now(struct vprof_agent *a)
{
    if (!__atomic_load_n(&a->pending_arm, __ATOMIC_ACQUIRE) || a->injection_expected)
        return;
    __atomic_store_n(&a->pending_arm, 0, __ATOMIC_RELEASE);
    char why[VPROF_REASON_MAX] = "";
    if (vprof_arm(a, &a->pending, why, sizeof why) != VPROF_RESULT_OK && a->cupti_state != -1 &&
        why[0] != '\0')
        vprof_warn(a, why);
}

__attribute__((constructor)) static void vprof_agent_constructor(void)
{
    struct vprof_agent *a = &vprof_agent;
    pthread_mutex_lock(&start_lock);
    learn_self_path(a);
    /* libcuda calls InitializeInjection right after loading us: it starts us then. */
    const int cuda_will_call = !a->injection_called &&
                               names_us(getenv("CUDA_INJECTION64_PATH"), a->self_path) &&
                               !names_us(getenv("LD_PRELOAD"), a->self_path);
    if (!cuda_will_call)
        start_for_this_process(a);
    pthread_mutex_unlock(&start_lock);
    if (!a->ready)
        return;
    /* `vprof run` armed us through the environment: no kernel may slip by before the front end maps us. */
    pthread_mutex_lock(&a->state_lock);
    arm_from_env_now(a);
    pthread_mutex_unlock(&a->state_lock);
}

VPROF_EXPORT int InitializeInjection(void)
{
    struct vprof_agent *a = &vprof_agent;
    pthread_mutex_lock(&start_lock);
    a->injection_called = 1;
    start_for_this_process(a);
    pthread_mutex_unlock(&start_lock);
    if (!a->ready)
        return 1; /* CUDA goes on either way */
    pthread_mutex_lock(&a->state_lock);
    a->launch_injected = 1;
    a->injection_expected = 0;
    uint64_t flags = __atomic_load_n(&a->control->agent_flags, __ATOMIC_ACQUIRE);
    flags = (flags & ~(uint64_t)VPROF_AGENT_INJECTED_LATE) | VPROF_AGENT_INJECTED_AT_LAUNCH;
    __atomic_store_n(&a->control->agent_flags, flags, __ATOMIC_RELEASE);
    vprof_read_rank_env(a);
    vprof_cupti_start(a); /* on failure the state is FAILED with CUPTI's reason */
    arm_from_env_now(a);
    pthread_mutex_unlock(&a->state_lock);
    return 1;
}

VPROF_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    struct vprof_agent *a = &vprof_agent;
    pthread_mutex_lock(&start_lock);
    char why[VPROF_REASON_MAX] = "";
    NvtxInitializeInjectionNvtxFunc_t forward = NULL;
    /* The agent's own search (VPROF_CUPTI_LIB, a libcupti already loaded, CUDA_HOME, the pip
       wheel): CUDA's injection later loads this same one, never a second libcupti. */
    /* Silent when it cannot: a process that initializes CUDA later gets the same answer, with
       its reason, in its region (FAILED, or the 13.0.0 warning); one that never does is not ours. */
    if (vprof_cupti_load(&a->cupti, why, sizeof why) == 0 &&
        a->cupti.version != VPROF_CUPTI_NVTX_BROKEN_VERSION) /* NVIDIA/NVTX#125 */
        *(void **)&forward = dlsym(a->cupti.handle, "InitializeInjectionNvtx2");
    pthread_mutex_unlock(&start_lock);
    if (forward == NULL)
        return 0; /* NVTX runs on without an injection: its calls cost nothing */
    return forward(get_export_table);
}

static int lock_state_bounded(struct vprof_agent *a)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 2;
    return pthread_mutex_timedlock(&a->state_lock, &deadline) == 0;
}

/* Exported for tests and embedders: what exit does, now. */
VPROF_EXPORT void vprof_agent_shutdown(void)
{
    struct vprof_agent *a = &vprof_agent;
    if (!a->ready || a->pid != getpid())
        return;
    vprof_control_thread_stop(a);
    if (lock_state_bounded(a)) {
        if (a->range_open)
            vprof_end_range(a, VPROF_SOURCE_EXIT, 0); /* exiting: no drain window */
        a->armed = 0;
        __atomic_store_n(&a->hot_mode, -1, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&a->state_lock);
    }
    /* Else a thread is stuck holding it: exit anyway, the range stays open in the file. */
    vprof_region_close_at_exit(a);
    a->ready = 0;
}

static void on_exit_handler(void)
{
    vprof_agent_shutdown();
}

static void on_fork_child(void)
{
    struct vprof_agent *a = &vprof_agent;
    if (!a->ready)
        return;
    /* Only this thread exists now; locks another thread held stay held unless re-made. */
    pthread_mutex_init(&a->state_lock, NULL);
    pthread_mutex_init(&a->convert_lock, NULL);
    pthread_mutex_init(&start_lock, NULL);
    vprof_pool_reset_lock(&a->pool);
    a->domains_lock = 0;
    vprof_region_forget(a);
    a->control_thread_started = 0;
    a->armed = 0;
    a->range_open = 0;
    a->holder_pid = 0;
    a->pending_arm = 0;
    a->stopping = 0;
    a->finalize_pending = 0;
    __atomic_store_n(&a->hot_mode, -1, __ATOMIC_RELEASE);
    __atomic_store_n(&a->hot_range_open, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&a->hot_stopping, 0, __ATOMIC_RELEASE);
    /* The parent's range is not this process's: its callbacks count nothing, its records are clipped. */
    __atomic_store_n(&a->hot_counting, 0, __ATOMIC_RELEASE);
    a->window.snap.state = VPROF_WINDOW_NONE;
    a->capture.late_run = 0;
    /*
     * CUPTI: a subscription made by the parent lives on in this copy of
     * libcupti (subscribing again would be refused), so it is kept; a failure
     * in the parent is retried here when CUPTI is next needed.
     */
    if (a->cupti_state == -1)
        a->cupti_state = 0;
    start_for_this_process(a);
    if (a->ready && a->cupti_state == 1)
        a->injection_expected = 0; /* cuInit will not call us again in this child */
    /* VPROF_ARM, if any, is applied by the new control thread. */
}
