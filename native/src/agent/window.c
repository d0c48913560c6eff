/* window.c: see window.h. */
#include "agent/window.h"

#include <string.h>

_Static_assert(sizeof(struct vprof_window_snap) % sizeof(uint32_t) == 0, "the snapshot is copied in words");
_Static_assert(sizeof(struct vprof_range_counts) % sizeof(uint64_t) == 0, "the counts are copied in words");

void vprof_window_write_begin(struct vprof_window *w)
{
    __atomic_store_n(&w->seq, w->seq + 1u, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

void vprof_window_write_end(struct vprof_window *w)
{
    __atomic_store_n(&w->seq, w->seq + 1u, __ATOMIC_RELEASE);
}

void vprof_window_read(const struct vprof_window *w, struct vprof_window_snap *out)
{
    for (;;) {
        const uint32_t before = __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE);
        if (before & 1u)
            continue; /* a writer is inside: a few stores, under a lock that never waits on us */
        /* Field by field with relaxed loads: a torn copy is thrown away below. */
        const uint32_t *src = (const uint32_t *)&w->snap;
        uint32_t *dst = (uint32_t *)out;
        for (size_t i = 0; i < sizeof *out / sizeof(uint32_t); i++)
            dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&w->seq, __ATOMIC_RELAXED) == before)
            return;
    }
}

void vprof_window_reset_counts(struct vprof_window *w)
{
    uint64_t *p = (uint64_t *)&w->counts;
    for (size_t i = 0; i < sizeof w->counts / sizeof(uint64_t); i++)
        __atomic_store_n(&p[i], 0u, __ATOMIC_RELAXED);
}

void vprof_window_counts(const struct vprof_window *w, struct vprof_range_counts *out)
{
    const uint64_t *src = (const uint64_t *)&w->counts;
    uint64_t *dst = (uint64_t *)out;
    for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++)
        dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}
