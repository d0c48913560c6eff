/*
 * agent.h: the agent's one piece of process-wide state and the functions the
 * agent's files call on each other. Nothing here is exported from libvprof.so.
 *
 * Threads and locks
 *   state_lock   : every state change (commands, profiler and NVTX callbacks on
 *                  application threads, the drain, heartbeat, exit). It IS held
 *                  across cuptiActivityFlushAll when the control thread closes a
 *                  range, so the buffer-completed callback must never take it.
 *                  Application callbacks holding it make no CUPTI call that
 *                  flushes or disables: they stamp, count and enable only.
 *   convert_lock : the intern tables and the capture's per-buffer tallies; held
 *                  by buffer-completed while it converts one buffer and adds its
 *                  tallies to the range's counts, at ARM while the tables are
 *                  reset, and (inside state_lock) while a range begins or its END
 *                  is written, so that a buffer is wholly the range it was judged
 *                  against. Never held across a CUPTI call that can complete
 *                  buffers (a flush).
 *   pool.lock    : a spinlock for one push or pop of a CUPTI buffer.
 *   window       : no lock; a seqlock whose writers hold state_lock (window.h).
 *
 * A range's life (capture.c, drain.c):
 *   begin    (callback or command)   window OPEN, kinds and launch counting on
 *   stamp    (callback or command)   the stop's time and id; window STOPPING;
 *                                    kinds stay on: work launched in the range
 *                                    may still be running (cudaProfilerStop
 *                                    does not synchronize)
 *   drain    (control thread, ticks) FlushAll(0) until every counted launch has
 *                                    its record, at most VPROF_DRAIN_MAX_NS
 *   finish   (control thread)        disable, FlushAll(FORCED), END record
 * A begin during the drain closes the old range where it stands (CUT_SHORT).
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
#include "agent/window.h"
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
    uint32_t cupti_facts;             /* VPROF_CUPTI_*, also in the control block */

    /* the arming, under state_lock; hot_* are read without it on callback fast paths */
    int armed;
    struct vprof_arming arm;
    int32_t holder_pid;
    uint32_t range_index;
    int range_open;
    uint32_t enabled_kinds;           /* VPROF_KIND_* currently enabled in CUPTI */
    uint64_t range_cupti_drops0;
    int hot_mode;                     /* atomic: the armed mode, or -1 when not armed */
    int hot_range_open;               /* atomic: a range is open (or draining) */

    /* the range's end, stamped where it happened, closed by the drain (under state_lock) */
    struct vprof_window window;
    int stopping;                     /* end stamped, drain running */
    int hot_stopping;                 /* atomic copy for the control thread */
    int counting;                     /* driver API callbacks on: launches counted */
    int hot_counting;                 /* atomic copy for the callbacks */
    int captures;                     /* atomic: stream captures in progress in the process */
    uint32_t begin_source, end_source;
    uint32_t begin_corr, end_corr;    /* the edges' own ids (0: none) */
    uint64_t end_cupti_ns, end_realtime_ns;
    uint64_t stop_mono_ns;            /* when the end was stamped: the drain's clock */
    uint32_t range_flags;             /* VPROF_WARN_* raised by this range */
    uint32_t drain_flushes;           /* FlushAll(0) calls since the stamp */
    uint32_t drain_satisfied;         /* ticks since every counted launch had its record */
    uint64_t drain_max_ns;            /* VPROF_DRAIN_MAX_NS; tests shorten it */

    /* cuptiFinalize after the last range, from the next launch's API exit callback (R7) */
    int finalize_pending;             /* atomic */

    /* the clock check (CLOCK_SYNC pairs within a range) */
    uint64_t last_sync_cupti_ns, last_sync_realtime_ns;
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

/* The drain window's limit: how long after a range's end its work may still complete. */
#define VPROF_DRAIN_MAX_NS ((uint64_t)VPROF_DRAIN_MAX_MS * 1000000ull)

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
/* A whole number, with a k/m/g (binary) suffix and an optional b where suffixes is set; 0 or -1. */
int vprof_parse_size(const char *text, int suffixes, uint64_t *out);
/* device_buffers.c: CUPTI's device buffer size and pool limit from the environment (R4). */
void vprof_set_device_buffers(struct vprof_agent *a);

/* ---- capture.c (call with state_lock held unless said otherwise) ---------- */
void vprof_set_state(struct vprof_agent *a, uint32_t state);
/* The agent stops for good; the reason is a sentence for the person. */
void vprof_fail(struct vprof_agent *a, const char *reason);
/* Records a warning in control->reason without changing the state. */
void vprof_warn(struct vprof_agent *a, const char *reason);
/* A warning with its VPROF_WARN_* flag, for the process (sticky) and the open range. */
void vprof_warn_flag(struct vprof_agent *a, uint32_t flag, const char *reason);
/* Opens a range (source, and the edge's correlation id or 0); a draining range is cut short. */
void vprof_begin_range(struct vprof_agent *a, uint32_t source, uint32_t corr);
/* Stamps the open range's end (no CUPTI call that flushes): the drain closes it. */
void vprof_stamp_end(struct vprof_agent *a, uint32_t source, uint32_t corr);
/* Closes a stamped range: disable, FlushAll(FORCED), END. Control thread or exit only. */
void vprof_finish_range(struct vprof_agent *a);
/* The drain's "every counted launch has its record"; see drain.c. */
int vprof_drain_satisfied(struct vprof_agent *a);
/* One drain tick; returns 1 when the range was finished. See drain.c. */
int vprof_drain_step(struct vprof_agent *a, uint64_t now_mono_ns);
/* Turns the driver API callbacks that count launches on or off. */
void vprof_counting(struct vprof_agent *a, int on);
/* The buffer callbacks (again): another client may have replaced them (R1). */
int vprof_register_buffers(struct vprof_agent *a);
/* From a launch's API exit callback (no lock held): cuptiFinalize if the agent asked for it. */
void vprof_finalize_if_pending(struct vprof_agent *a);
/* Loads libcupti and subscribes (dormant callbacks only). 0, or -1 after vprof_fail. */
int vprof_cupti_start(struct vprof_agent *a);
/* Returns an enum vprof_cmd_result; why gets a sentence when it is not OK. */
uint32_t vprof_arm(struct vprof_agent *a, const struct vprof_arming *req, char *why, size_t why_size);
/* Ends any open range with the given source (draining it) and returns to DORMANT; why, when not
 * NULL, becomes the control block's reason (the cause wins over the closed range's warnings). */
void vprof_disarm(struct vprof_agent *a, uint32_t source, const char *why);
/*
 * Ends an open range with the given source, on the control thread: stamps it,
 * drains it (state_lock is released between ticks, at most VPROF_DRAIN_MAX_NS
 * per range) and finishes it; then ARMED or, repeat reached, DORMANT.
 * drain = 0 (exit) finishes at once.
 */
void vprof_end_range(struct vprof_agent *a, uint32_t source, int drain);
/* A CLOCK_SYNC record, with the clock check of a range (state_lock held). */
void vprof_write_clock_sync(struct vprof_agent *a);
/* RANGE_BEGIN / RANGE_END commands (--range-scope tree). Returns an enum vprof_cmd_result. */
uint32_t vprof_tree_edge(struct vprof_agent *a, int begin, char *why, size_t why_size);

/* ---- callbacks.c: what CUPTI calls ---------------------------------------- */
void CUPTIAPI vprof_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
void CUPTIAPI vprof_buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer, size_t size,
                                     size_t valid_size);
void CUPTIAPI vprof_on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                const void *data);

/* ---- env.c ---------------------------------------------------------------- */
/* RANK, LOCAL_RANK, WORLD_SIZE into the control block (-1 where unset). */
void vprof_read_rank_env(struct vprof_agent *a);

/* ---- arm_env.c ------------------------------------------------------------ */
/* Parses VPROF_ARM's text (syntax in arm_env.c). 0, or -1 with a sentence in why. */
int vprof_parse_arm(const char *text, struct vprof_arming *out, char *why, size_t why_size);

/* ---- control_thread.c ----------------------------------------------------- */
int vprof_control_thread_start(struct vprof_agent *a);
void vprof_control_thread_stop(struct vprof_agent *a);

#endif /* VPROF_AGENT_AGENT_H */
