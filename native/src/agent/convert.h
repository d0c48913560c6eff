/*
 * convert.h: CUPTI activity records -> compact vprof ring records.
 *
 * The hot path of the agent: it runs once per kernel, on CUPTI's worker
 * thread or inside cuptiActivityFlushAll, and must stay allocation- and
 * syscall-free. The caller holds the capture's convert lock around a whole
 * buffer (the intern tables are not thread safe).
 */
#ifndef VPROF_AGENT_CONVERT_H
#define VPROF_AGENT_CONVERT_H

#include <stdint.h>

#include "agent/intern.h"
#include "ring.h"

struct vprof_capture {
    struct vprof_ring *ring;
    struct vprof_intern intern;
    uint64_t zero_ts_kernels; /* since the last vprof_convert_take_zero_ts */
};

/*
 * Converts one CONCURRENT_KERNEL record (Kernel9 or Kernel10: only their
 * shared prefix is read) and publishes it, sending its STRING and KERNEL_DESC
 * first if this arming has not sent them. Returns 1 if published; 0 if
 * dropped (a full ring; counted as a kernel ring drop); -1 if its timestamps
 * are both zero (counted in zero_ts_kernels, for a DROPS record).
 */
int vprof_convert_kernel(struct vprof_capture *c, const void *cupti_record);

/* Converts any record kind the agent enables; other kinds are ignored. */
void vprof_convert_activity(struct vprof_capture *c, const void *cupti_record);

/*
 * Makes sure the string has been sent in this arming; returns its id, or 0 if
 * its STRING could not be written (a full ring; nothing is marked sent).
 * A NULL or empty name is id 0 without a record.
 */
uint32_t vprof_convert_string(struct vprof_capture *c, const char *name);

#endif /* VPROF_AGENT_CONVERT_H */
