/*
 * window.h: which records belong to the capture range, and what the range
 * counted, shared by three kinds of threads (the launch counters take no lock):
 *
 *   edges      the application's profiler and NVTX callbacks and the control
 *              thread (under state_lock) open a range, stamp its end and close it;
 *   launches   the driver API callbacks, on application threads, while a range
 *              is open or draining: they count kernel and graph launches and
 *              remember the highest correlation id they saw;
 *   records    buffer-completed (under convert_lock) reads a snapshot once per
 *              buffer, decides each record, and adds its tallies once per buffer;
 *              an edge that opens a range or writes an END takes convert_lock
 *              too, so no buffer straddles it.
 *
 * Membership is by launch order (docs/design.md §4): a record belongs to the range
 * when its correlation id lies above the BEGIN's and below the END's (a graph
 * launch's node kernels share the launch's id). An edge without an id of its
 * own (NVTX, a command, TREE) takes the highest id the launch callbacks saw;
 * with no id at all, or ids that do not grow, the record's timestamps decide.
 *
 * The snapshot is a seqlock: writers (one at a time: they hold state_lock)
 * change a copy and publish it: seq odd, the words, seq even; a reader
 * retries until it reads one even value on both sides. Every shared word is
 * read and written atomically (no plain store races a reader's load), and the
 * ordering is acquire/release on the words themselves rather than fences
 * (Boehm, "Can seqlocks get along with programming language memory models?",
 * 2012), which ThreadSanitizer can follow. Counters are relaxed atomics.
 */
#ifndef VPROF_AGENT_WINDOW_H
#define VPROF_AGENT_WINDOW_H

#include <stdint.h>

#include "vprof_ring.h"

enum vprof_window_state {
    VPROF_WINDOW_NONE     = 0, /* no range: every record is clipped */
    VPROF_WINDOW_OPEN     = 1, /* records of launches after the begin are kept */
    VPROF_WINDOW_STOPPING = 2  /* end stamped; records launched before it are still kept */
};

/* What a buffer's records are judged against. */
struct vprof_window_snap {
    uint32_t state;           /* enum vprof_window_state */
    uint32_t begin_corr;      /* 0: the begin had no id; timestamps bound it */
    uint32_t end_corr;        /* STOPPING: records need a lower id; 0: no id, timestamps decide */
    uint32_t ts_membership;   /* ids did not grow: membership by timestamps only */
    uint64_t begin_ns;        /* CUPTI ns of the begin */
    uint64_t end_ns;          /* CUPTI ns of the stop (STOPPING) */
    uint32_t prev_begin_corr; /* a range the next one cut short: its records that come */
    uint32_t prev_end_corr;   /* now are kept in LATE runs; both 0 when there is none */
    uint32_t prev_index;      /* that range's index, named by the LATE edges */
    uint32_t capture_id;      /* the arming's, for the LATE edges */
    uint32_t check_records;   /* unverified CUPTI record layout: sanity-check each record */
    uint32_t max_device;      /* device ids at or above this fail the sanity check */
};

/* Per-range tallies; reset when a range begins. */
struct vprof_range_counts {
    uint64_t kernel_launches;  /* launch callbacks (API exit, success) with an id inside the range */
    uint64_t graph_launches;
    uint32_t max_corr;         /* highest correlation id any driver API callback saw in the range */
    uint32_t last_graph_corr;  /* id of the newest graph launch in the range */
    uint64_t kernels;          /* kernel records kept */
    uint64_t graph_kernels;    /* of which with a graph id */
    uint64_t last_graph_seen;  /* kept kernels carrying last_graph_corr */
    uint64_t records;          /* memcpy and memset records kept */
    uint64_t buffers;          /* buffers CUPTI asked vprof for in the range */
    /* kernel records of the range's launches that arrived (kept, dropped by a
       full ring, or rejected as invalid; not clipped, not late): what the drain
       compares with the launches */
    uint64_t plain_kernels_arrived;
    uint64_t graph_kernels_arrived;
    uint64_t arrived_rejected; /* of all kinds, rejected as invalid */
    uint64_t late;             /* records of the previous range kept in LATE runs */
    uint64_t ring_drops;       /* the range's records the full ring refused (convert.h says which) */
    uint64_t ring_drops_kernels; /* of which kernels */
    uint64_t rejected[VPROF_DROPS_REASON_MAX + 1]; /* by VPROF_DROPS_* (CUPTI's own drops not here) */
};

struct vprof_window {
    uint32_t seq;
    struct vprof_window_snap snap;
    struct vprof_range_counts counts;
};

/*
 * Writers (state_lock held): makes *snap the window. A writer reads the current
 * one plainly (w->snap: no one else writes it), changes a copy, publishes it.
 */
void vprof_window_publish(struct vprof_window *w, const struct vprof_window_snap *snap);

/* A consistent copy of the snapshot (any thread, never blocks a writer). */
void vprof_window_read(const struct vprof_window *w, struct vprof_window_snap *out);

/* Zeroes the range's counters (state_lock held, before the range opens). */
void vprof_window_reset_counts(struct vprof_window *w);

/* A relaxed snapshot of the counters. */
void vprof_window_counts(const struct vprof_window *w, struct vprof_range_counts *out);

/* Raises *at to v if v is higher (relaxed). */
static inline void vprof_atomic_max32(uint32_t *at, uint32_t v)
{
    uint32_t cur = __atomic_load_n(at, __ATOMIC_RELAXED);
    while (v > cur && !__atomic_compare_exchange_n(at, &cur, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

#endif /* VPROF_AGENT_WINDOW_H */
