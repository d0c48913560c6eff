/*
 * simgpu_rendezvous.h: --rendezvous NAME --rank R --world W. Separate
 * vprof-simgpu processes (one per simulated node) meet at every eager NCCL
 * all-reduce as NCCL ranks do: each rank's kernel starts when its own stream
 * reaches it, and every rank's kernel ends at the same physical instant, when
 * the last rank's data has arrived plus the longest rank's transfer. That
 * shared end is what a merge of the nodes' captures measures clock offsets on
 * (docs/multinode.md).
 */
#ifndef VPROF_SIMGPU_RENDEZVOUS_H
#define VPROF_SIMGPU_RENDEZVOUS_H

#include <stdint.h>

#include "sim/simgpu_driver.h"

/* Joins the rendezvous NAME as rank `rank` of `world` (shared memory
 * /dev/shm/vprof-rdv.NAME, created by whichever rank comes first). Sets RANK,
 * WORLD_SIZE and LOCAL_RANK=0 as a launcher would for one GPU per node; call
 * before CUDA init. Returns 0, or -1 with a message on stderr. */
int simgpu_rendezvous_join(const char *name, int rank, int world);

/* Whether this process joined a rendezvous. */
int simgpu_rendezvous_active(void);

/* One all-reduce on `stream` with every rank: blocks until all ranks reach
 * their k-th all-reduce (or exits the process with a message after 30 s
 * without them), then launches the kernel with the shared end. */
void simgpu_rendezvous_allreduce(simcuda_stream stream, const char *name, simcuda_dim3 grid,
                                 simcuda_dim3 block, uint64_t duration_ns);

/* Leaves: the last rank out removes the shared memory. */
void simgpu_rendezvous_leave(void);

#endif
