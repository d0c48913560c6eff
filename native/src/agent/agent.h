/*
 * agent.h: the agent's one piece of process-wide state and the functions the
 * agent's files call on each other. Nothing here is exported from libvprof.so.
 *
 * Threads and locks
 *   state_lock   : every state change (commands, profiler and NVTX callbacks on
 *                  application threads, heartbeat, exit). It IS held across
 *                  cuptiActivityFlushAll(FORCED) at the end of a range, so the
 *                  buffer-completed callback must never take it.
 *   convert_lock : the intern tables; held by buffer-completed while it converts
 *                  one buffer, and at ARM while the tables are reset. Never held
 *                  across a CUPTI call that can complete buffers (a flush).
 *   pool.lock    : a spinlock for one push or pop of a CUPTI buffer.
 */
#ifndef VPROF_AGENT_AGENT_H
#define VPROF_AGENT_AGENT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "agent/buffer_pool.h"
#include "agent/convert.h"
#include "agent/cupti_api.h"
#include "ring.h"
#include "vprof_ring.h"

#define VPROF_EXPORT __attribute__((visibility("default")))

/* What one ARM (command or VPROF_ARM) asks for. */
struct vprof_arming {
    uint32_t mode;          /* enum vprof_range_mode */
    uint32_t repeat;        /* ranges to record, 0 = unlimited */
    uint32_t kinds;         /* VPROF_KIND_*, 0 = VPROF_KINDS_DEFAULT */
    uint32_t buffer_size;   /* 0 = VPROF_POOL_DEFAULT_SIZE */
    int32_t frontend_pid;
    uint32_t capture_id;
    char name[VPROF_NAME_MAX];
    char domain[VPROF_NAME_MAX];
};

#define VPROF_MAX_NVTX_DOMAINS 64u

struct vprof_agent {
    /* region */
    pid_t pid;                        /* the process the region below belongs to */
    int ready;                        /* region mapped for pid */
    char shm_path[64];
    void *region;
    size_t region_size;
    struct vprof_control *control;
    struct vprof_ring ring;

    /* threads */
    pthread_mutex_t state_lock;
    pthread_t control_thread;
    int control_thread_started;
    int stop_control_thread;          /* atomic */

    /* how we got here */
    int launch_injected;              /* LD_PRELOAD or CUDA_INJECTION64_PATH names this library */
    int injection_expected;           /* CUDA_INJECTION64_PATH names it: InitializeInjection will come */
    int injection_called;
    char self_path[512];

    /* CUPTI */
    struct vprof_cupti cupti;
    int cupti_state;                  /* 0 not started, 1 subscribed, -1 failed */
    CUpti_SubscriberHandle subscriber;
    int nvtx_injection_refused;

    /* the arming, under state_lock; hot_* are read without it on callback fast paths */
    int armed;
    struct vprof_arming arm;
    int32_t holder_pid;
    uint32_t range_index;
    int range_open;
    uint32_t enabled_kinds;           /* VPROF_KIND_* currently enabled in CUPTI */
    uint64_t range_ring_drops0, range_ring_drops_kernels0, range_cupti_drops0;
    int hot_mode;                     /* atomic: the armed mode, or -1 when not armed */
    int hot_range_open;               /* atomic */
    int nvtx_domain_enabled;
    pid_t nvtx_range_tid;
    const void *nvtx_range_domain;
    uint32_t nvtx_range_depth;

    /* VPROF_ARM, waiting for CUPTI (InitializeInjection) or the control thread */
    int pending_arm;
    struct vprof_arming pending;

    /* NVTX domain handles -> names, learned from nvtxDomainCreateA */
    int domains_lock;                 /* spinlock */
    uint32_t n_domains;
    struct { const void *handle; char name[VPROF_NAME_MAX]; } domains[VPROF_MAX_NVTX_DOMAINS];

    /* conversion */
    pthread_mutex_t convert_lock;
    struct vprof_capture capture;
    struct vprof_buffer_pool pool;

    /* control thread's clocks */
    uint64_t last_clock_sync_ns;
    uint64_t last_flush_ns;
};

extern struct vprof_agent vprof_agent;

/* ---- time ---------------------------------------------------------------- */
uint64_t vprof_now_ns(int clock_id);

/* ---- region.c ------------------------------------------------------------ */
/* Creates and maps /dev/shm/vprof.<pid>, fills the identity, state DORMANT. 0 or -1 + why. */
int vprof_region_create(struct vprof_agent *a, char *why, size_t why_size);
/* Unmaps without unlinking: a forked child forgetting its parent's region. */
void vprof_region_forget(struct vprof_agent *a);
/* At exit: state EXITED; unlink unless a live front end still reads it. */
void vprof_region_close_at_exit(struct vprof_agent *a);
/* VPROF_RING_SIZE: bytes with an optional k/m/g suffix, clamped and rounded up to 2^n. */
uint64_t vprof_ring_size_parse(const char *text, char *why, size_t why_size);

/* ---- capture.c (call with state_lock held unless said otherwise) ---------- */
void vprof_set_state(struct vprof_agent *a, uint32_t state);
/* The agent stops for good; the reason is a sentence for the person. */
void vprof_fail(struct vprof_agent *a, const char *reason);
/* Records a warning in control->reason without changing the state. */
void vprof_warn(struct vprof_agent *a, const char *reason);
/* Loads libcupti and subscribes (dormant callbacks only). 0, or -1 after vprof_fail. */
int vprof_cupti_start(struct vprof_agent *a);
/* Returns an enum vprof_cmd_result; why gets a sentence when it is not OK. */
uint32_t vprof_arm(struct vprof_agent *a, const struct vprof_arming *req, char *why, size_t why_size);
/* Ends any open range with the given source and returns to DORMANT. */
void vprof_disarm(struct vprof_agent *a, uint32_t source);
/* Ends an open range with the given source; then ARMED or, repeat reached, DORMANT. */
void vprof_end_range(struct vprof_agent *a, uint32_t source);
/* A CLOCK_SYNC record (any thread; no lock needed). */
void vprof_write_clock_sync(struct vprof_agent *a);

/* ---- arm_env.c ------------------------------------------------------------ */
/* Parses VPROF_ARM's text (syntax in arm_env.c). 0, or -1 with a sentence in why. */
int vprof_parse_arm(const char *text, struct vprof_arming *out, char *why, size_t why_size);

/* ---- control_thread.c ----------------------------------------------------- */
int vprof_control_thread_start(struct vprof_agent *a);
void vprof_control_thread_stop(struct vprof_agent *a);

#endif /* VPROF_AGENT_AGENT_H */
