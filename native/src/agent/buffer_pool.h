/*
 * buffer_pool.h: CUPTI activity buffers, allocated before they are needed.
 *
 * CUPTI asks for a buffer on the APPLICATION thread that launched the work,
 * so handing one out must cost nothing: a pop under a tiny spinlock, never a
 * malloc. An empty pool answers "no buffer" and CUPTI drops and counts the
 * records (which the agent then reports as CUPTI drops).
 */
#ifndef VPROF_AGENT_BUFFER_POOL_H
#define VPROF_AGENT_BUFFER_POOL_H

#include <stddef.h>
#include <stdint.h>

/*
 * 16 buffers of 4 MiB by default: CUPTI fills one while the worker thread
 * converts another, and a burst of kernels between two periodic flushes
 * (~150 ms) at 1 M kernels/s with 216-byte records is about 32 MiB.
 */
#define VPROF_POOL_BUFFERS       16u
#define VPROF_POOL_DEFAULT_SIZE  (4u * 1024u * 1024u)
#define VPROF_POOL_MIN_SIZE      (1u * 1024u * 1024u)
#define VPROF_POOL_MAX_SIZE      (10u * 1024u * 1024u)

struct vprof_buffer_pool {
    int lock;                                /* spinlock: held for a push or a pop */
    uint32_t free_count;
    uint32_t total;                          /* buffers allocated, 0 before the first ARM */
    size_t size;                             /* bytes per buffer */
    uint8_t *all[VPROF_POOL_BUFFERS];
    uint8_t *free_list[VPROF_POOL_BUFFERS];
};

/* Clamps a requested size (0 = default) to [1, 10] MiB, a multiple of 8. */
size_t vprof_pool_clamp_size(size_t requested);

/*
 * Allocates the buffers (control thread, at ARM). If buffers of another size
 * exist and all are back in the pool they are replaced; if CUPTI still holds
 * some, the old size is kept. Returns 0, or -1 when out of memory.
 */
int vprof_pool_prepare(struct vprof_buffer_pool *p, size_t size);

/* A free buffer, or NULL. Lock-free-ish, allocation-free: safe on the application thread. */
uint8_t *vprof_pool_take(struct vprof_buffer_pool *p);

/* Returns a buffer that vprof_pool_take handed out; other pointers are ignored. */
void vprof_pool_give(struct vprof_buffer_pool *p, uint8_t *buffer);

/* Forgets the pool's contents without freeing (a forked child with a stale lock). */
void vprof_pool_reset_lock(struct vprof_buffer_pool *p);

#endif /* VPROF_AGENT_BUFFER_POOL_H */
