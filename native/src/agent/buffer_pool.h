/*
 * buffer_pool.h: CUPTI activity buffers, allocated before they are needed.
 *
 * CUPTI asks for a buffer on the APPLICATION thread that launched the work,
 * so handing one out must cost nothing: a pop under a tiny spinlock, never a
 * malloc. When the pool is empty there are two answers, chosen by version:
 *   - CUPTI API 27 (CUDA 12.9) and later: "no buffer"; CUPTI drops and counts
 *     the records (reported as CUPTI drops) and the refusal is counted here;
 *   - older CUPTI may crash on a refusal (pytorch/kineto#1275): the pool never
 *     refuses; it allocates one more buffer on the application thread, keeps
 *     it, and counts it, up to VPROF_POOL_MAX_BUFFERS.
 */
#ifndef VPROF_AGENT_BUFFER_POOL_H
#define VPROF_AGENT_BUFFER_POOL_H

#include <stddef.h>
#include <stdint.h>

/*
 * 16 buffers of 4 MiB by default: CUPTI fills one while the worker thread
 * converts another, and a burst of kernels between two periodic flushes
 * (~150 ms) at 1 M kernels/s with 216-byte records is about 32 MiB.
 * The agent turns CUDA 13's per-thread buffers off; where CUPTI refuses, one
 * buffer stays pinned per launching thread until a flush, so the pool starts
 * at VPROF_POOL_PER_THREAD_BUFFERS instead (pages are committed only when
 * CUPTI writes them).
 */
#define VPROF_POOL_BUFFERS            16u
#define VPROF_POOL_PER_THREAD_BUFFERS 64u
#define VPROF_POOL_MAX_BUFFERS        256u  /* with the emergency ones: 1 GiB at 4 MiB */
#define VPROF_POOL_DEFAULT_SIZE  (4u * 1024u * 1024u)
#define VPROF_POOL_MIN_SIZE      (1u * 1024u * 1024u)
#define VPROF_POOL_MAX_SIZE      (10u * 1024u * 1024u)

struct vprof_buffer_pool {
    int lock;                                /* spinlock: held for a push or a pop */
    uint32_t free_count;
    uint32_t total;                          /* buffers allocated, 0 before the first ARM */
    size_t size;                             /* bytes per buffer */
    int never_refuse;                        /* CUPTI < 27: allocate rather than refuse */
    uint64_t emergency;                      /* buffers allocated on an application thread */
    uint64_t refusals;                       /* requests answered with no buffer */
    uint8_t *all[VPROF_POOL_MAX_BUFFERS];
    uint8_t *free_list[VPROF_POOL_MAX_BUFFERS];
};

/* Clamps a requested size (0 = default) to [1, 10] MiB, a multiple of 8. */
size_t vprof_pool_clamp_size(size_t requested);

/*
 * Allocates `count` buffers (control thread, at ARM) or tops the pool up to
 * that many. If buffers of another size exist and all are back in the pool
 * they are replaced; if CUPTI still holds some, the old size is kept.
 * Returns 0, or -1 when out of memory.
 */
int vprof_pool_prepare(struct vprof_buffer_pool *p, size_t size, uint32_t count);

/*
 * A free buffer; when none is free, a new one (never_refuse) or NULL. Safe on
 * the application thread: allocation-free unless the pool is empty and the
 * CUPTI version makes a refusal dangerous.
 */
uint8_t *vprof_pool_take(struct vprof_buffer_pool *p);

/* Returns a buffer that vprof_pool_take handed out; other pointers are ignored. */
void vprof_pool_give(struct vprof_buffer_pool *p, uint8_t *buffer);

/* Buffers handed out and not given back (CUPTI holds them, or gave them to someone else). */
uint32_t vprof_pool_outstanding(struct vprof_buffer_pool *p);

/* Forgets the pool's lock (a forked child with a stale lock). */
void vprof_pool_reset_lock(struct vprof_buffer_pool *p);

#endif /* VPROF_AGENT_BUFFER_POOL_H */
