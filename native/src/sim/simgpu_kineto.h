/* simgpu_kineto.h: vprof-simgpu's Kineto-like second CUPTI client (--kineto-at). */
#ifndef VPROF_SIMGPU_KINETO_H
#define VPROF_SIMGPU_KINETO_H

#include <stdint.h>

struct simgpu_kineto_stats {
    uint64_t records;           /* records in its own buffers */
    uint64_t kernels;           /* of which kernel records */
    uint64_t foreign_buffers;   /* buffers of another client that CUPTI handed it */
    uint64_t teardowns;         /* cuptiFinalize done by its teardown */
    uint64_t teardowns_skipped; /* teardown skipped: another tool held the subscription */
};

/* A torch.profiler run begins: its callbacks, optionally its clock, its kinds. */
void simgpu_kineto_start(int tsc);
/* It ends: a device synchronize (skipped when the simulated GPU is unpaced:
 * its clock runs far ahead and its work is complete at launch), kinds off,
 * forced flush, teardown attempt. Its callbacks stay registered. */
void simgpu_kineto_stop(int synchronize);
void simgpu_kineto_stats(struct simgpu_kineto_stats *out);

#endif
