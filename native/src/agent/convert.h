/*
 * convert.h: CUPTI activity records -> compact vprof ring records.
 *
 * The hot path of the agent: it runs once per record, on CUPTI's worker
 * thread or inside cuptiActivityFlushAll, and must stay allocation- and
 * syscall-free. The caller holds the capture's convert lock around a whole
 * buffer (the intern tables are not thread safe) and brackets it with
 * vprof_convert_begin_buffer / the tallies it reads afterwards.
 *
 * Every kernel, memcpy, memset and sync is judged before it is published:
 *   membership  its correlation id (launch order) against the range window
 *               (window.h): outside it is CLIPPED; the previous range's, when
 *               that range was cut short by this one, is kept inside a LATE
 *               run (RANGE edges LATE_BEGIN/LATE_END naming it);
 *   validity    start != 0, end != 0, end >= start: else ZERO_TS, START_ZERO,
 *               END_ZERO or END_BEFORE_START;
 *   plausible   a record in the range by id cannot start before the range
 *               began (1 ms of slack for clock conversion) nor end more than an
 *               hour after CUPTI handed it over (pytorch#192021 saw records
 *               1e14 ns off): else OUTSIDE_RANGE. The upper bound is loose on
 *               purpose: the test double's unpaced mode runs its virtual GPU
 *               clock minutes ahead of the host;
 *   layout      with a CUPTI whose record layout vprof has not verified, kind,
 *               device id and name are checked too: else BAD_RECORD.
 * A rejected record is counted by reason (a DROPS record per buffer, the
 * range's END totals) and never reaches the ring.
 *
 * Every loss is charged to the range whose record it was, as kept records
 * are, never by when it happened: a record of the range that the full ring
 * refused (itself, or the STRING or KERNEL_DESC it needed first) counts once
 * in the buffer's ring_dropped tallies, which reach the range's END; one of
 * the previous range (a LATE record) counts in the open LATE run, whose
 * LATE_END edge carries it, and its rejections go out as DROPS inside a LATE
 * run. NVTX markers and API records belong to the range open when their
 * buffer came (where the front end places them); records that arrive with
 * no range open, and DEVICE records, belong to none. The process counters
 * (control->ring_drops, ring_drops_kernels) count every refused claim,
 * STRING and KERNEL_DESC records and control records included, so they are
 * never below the sum of what ranges and LATE runs were charged.
 */
#ifndef VPROF_AGENT_CONVERT_H
#define VPROF_AGENT_CONVERT_H

#include <stdint.h>

#include "agent/intern.h"
#include "agent/window.h"
#include "ring.h"

#define VPROF_TS_SLACK_NS   1000000ull          /* 1 ms */
#define VPROF_TS_FUTURE_NS  3600000000000ull    /* 1 h */

/* Tallies of one record type in one buffer. */
enum vprof_tally_kind {
    VPROF_TALLY_KERNEL = 0, VPROF_TALLY_MEMCPY = 1, VPROF_TALLY_MEMSET = 2, VPROF_TALLY_OTHER = 3,
    VPROF_TALLY_API = 4, /* only ever clipped */
    VPROF_TALLY_SYNC = 5,
    VPROF_TALLY_KINDS = 6
};

struct vprof_capture {
    struct vprof_ring *ring;
    struct vprof_intern intern;

    /* the buffer being converted (vprof_convert_begin_buffer) */
    struct vprof_window_snap window;
    uint64_t now_ns;                 /* CUPTI time when the buffer was handed over */
    uint32_t last_graph_corr;        /* the range's newest graph launch, when the buffer came */
    uint64_t kept_kernels, kept_graph_kernels, kept_records, last_graph_seen;
    /* kernels of the range's launches that arrived: kept, dropped by a full ring, or invalid */
    uint64_t arrived_plain_kernels, arrived_graph_kernels;
    uint64_t kept_late;              /* records of the previous range kept in LATE runs */
    /* the range's records (not late) the full ring refused, one per record, and of them kernels */
    uint64_t ring_dropped, ring_dropped_kernels;
    int late_run;                    /* a LATE_BEGIN is open in the ring */
    /* the previous range's records the full ring refused in the open LATE run (its LATE_END says) */
    uint64_t late_ring_dropped, late_ring_dropped_kernels;
    uint64_t rejected[VPROF_TALLY_KINDS][VPROF_DROPS_REASON_MAX + 1];
    uint64_t late_rejected[VPROF_TALLY_KINDS][VPROF_DROPS_REASON_MAX + 1]; /* the previous range's */

    /* DEVICE records sent in this arming (ids below 64; others are sent each time) */
    uint64_t devices_sent;
};

/* Starts a buffer: the window it is judged against, CUPTI's time now, tallies zeroed. */
void vprof_convert_begin_buffer(struct vprof_capture *c, const struct vprof_window_snap *w,
                                uint64_t now_ns, uint32_t last_graph_corr);

/*
 * Ends a buffer: writes the DROPS records of what it rejected (the previous
 * range's inside a LATE run naming it) and closes any LATE run it left open.
 * The tallies stay for the caller to add to the range's counts.
 */
void vprof_convert_end_buffer(struct vprof_capture *c);

/* One DROPS record (a control record: it may use the ring's reserve). */
void vprof_write_drops(struct vprof_ring *ring, uint32_t reason, uint32_t record_type, uint32_t stream_id,
                       uint64_t count);

/*
 * Converts one CONCURRENT_KERNEL record (Kernel9 or Kernel10: only their
 * shared prefix is read) and publishes it, sending its STRING and KERNEL_DESC
 * first if this arming has not sent them. Returns 1 if published; 0 if
 * dropped (a full ring; counted as a kernel ring drop, in the process
 * counters and the range's or LATE run's tallies); -1 if rejected (its
 * reason counted in the buffer's tallies).
 */
int vprof_convert_kernel(struct vprof_capture *c, const void *cupti_record);

/* Converts any record kind the agent enables; other kinds are ignored. */
void vprof_convert_activity(struct vprof_capture *c, const void *cupti_record);

/*
 * Makes sure the string has been sent in this arming; returns its id, or 0 if
 * its STRING could not be written (a full ring; nothing is marked sent).
 * A NULL or empty name is id 0 without a record. Interned by content.
 */
uint32_t vprof_convert_string(struct vprof_capture *c, const char *name);

#endif /* VPROF_AGENT_CONVERT_H */
