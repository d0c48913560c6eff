/* buffer_pool.c: see buffer_pool.h. */
#include "agent/buffer_pool.h"

#include <sched.h>
#include <stdlib.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void lock(struct vprof_buffer_pool *p)
{
    unsigned spins = 0;
    while (__atomic_exchange_n(&p->lock, 1, __ATOMIC_ACQUIRE) != 0) {
        if (++spins % 64u == 0u)
            sched_yield(); /* the holder was preempted inside a few instructions */
        else
            cpu_relax();
    }
}

static void unlock(struct vprof_buffer_pool *p)
{
    __atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE);
}

size_t vprof_pool_clamp_size(size_t requested)
{
    size_t size = requested == 0u ? VPROF_POOL_DEFAULT_SIZE : requested;
    if (size < VPROF_POOL_MIN_SIZE)
        size = VPROF_POOL_MIN_SIZE;
    if (size > VPROF_POOL_MAX_SIZE)
        size = VPROF_POOL_MAX_SIZE;
    return size & ~(size_t)7u;
}

int vprof_pool_prepare(struct vprof_buffer_pool *p, size_t size, uint32_t count)
{
    size = vprof_pool_clamp_size(size);
    if (count > VPROF_POOL_MAX_BUFFERS)
        count = VPROF_POOL_MAX_BUFFERS;
    lock(p);
    const int replace = p->total != 0u && p->size != size && p->free_count == p->total;
    uint8_t *old[VPROF_POOL_MAX_BUFFERS];
    uint32_t old_total = 0;
    if (replace) {
        old_total = p->total;
        for (uint32_t i = 0; i < old_total; i++)
            old[i] = p->all[i];
        p->total = 0;
        p->free_count = 0;
    }
    if (p->total == 0u)
        p->size = size;
    size = p->size; /* CUPTI still holds buffers of the old size: keep it */
    const uint32_t have = p->total;
    unlock(p);
    for (uint32_t i = 0; i < old_total; i++)
        free(old[i]);
    if (have >= count)
        return 0;

    uint8_t *fresh[VPROF_POOL_MAX_BUFFERS];
    const uint32_t need = count - have;
    for (uint32_t i = 0; i < need; i++) {
        /* Page aligned (CUPTI wants 8); pages are committed only when CUPTI writes. */
        if (posix_memalign((void **)&fresh[i], 4096, size) != 0) {
            while (i > 0)
                free(fresh[--i]);
            return -1;
        }
    }
    lock(p);
    uint32_t added = 0;
    for (; added < need && p->total < VPROF_POOL_MAX_BUFFERS; added++) {
        p->all[p->total++] = fresh[added];
        p->free_list[p->free_count++] = fresh[added];
    }
    unlock(p);
    for (uint32_t i = added; i < need; i++)
        free(fresh[i]);
    return 0;
}

uint8_t *vprof_pool_take(struct vprof_buffer_pool *p)
{
    uint8_t *b = NULL;
    lock(p);
    if (p->free_count > 0u)
        b = p->free_list[--p->free_count];
    const int grow = b == NULL && p->never_refuse && p->total < VPROF_POOL_MAX_BUFFERS && p->size != 0u;
    if (b == NULL && !grow)
        p->refusals++;
    const size_t size = p->size;
    unlock(p);
    if (!grow)
        return b;
    /* The one allocation on an application thread: refusing could crash this CUPTI. */
    if (posix_memalign((void **)&b, 4096, size) != 0) {
        lock(p);
        p->refusals++;
        unlock(p);
        return NULL;
    }
    lock(p);
    if (p->total < VPROF_POOL_MAX_BUFFERS) {
        p->all[p->total++] = b;
        p->emergency++;
    } else {
        p->refusals++;
        unlock(p);
        free(b);
        return NULL;
    }
    unlock(p);
    return b;
}

void vprof_pool_give(struct vprof_buffer_pool *p, uint8_t *buffer)
{
    lock(p);
    for (uint32_t i = 0; i < p->total; i++) {
        if (p->all[i] == buffer) {
            if (p->free_count < p->total)
                p->free_list[p->free_count++] = buffer;
            break;
        }
    }
    unlock(p);
}

uint32_t vprof_pool_outstanding(struct vprof_buffer_pool *p)
{
    lock(p);
    const uint32_t n = p->total - p->free_count;
    unlock(p);
    return n;
}

void vprof_pool_reset_lock(struct vprof_buffer_pool *p)
{
    __atomic_store_n(&p->lock, 0, __ATOMIC_RELAXED);
}
