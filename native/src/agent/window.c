/* window.c: see window.h. */
#include "agent/window.h"

#include <string.h>

_Static_assert(sizeof(struct vprof_window_snap) % sizeof(uint32_t) == 0, "the snapshot is copied in words");
_Static_assert(sizeof(struct vprof_range_counts) % sizeof(uint64_t) == 0, "the counts are copied in words");

/* The structs are copied a word at a time; these types may alias their fields. */
typedef uint32_t word32 __attribute__((may_alias));
typedef uint64_t word64 __attribute__((may_alias));

void vprof_window_publish(struct vprof_window *w, const struct vprof_window_snap *snap)
{
    const uint32_t seq = __atomic_load_n(&w->seq, __ATOMIC_RELAXED);
    __atomic_store_n(&w->seq, seq + 1u, __ATOMIC_RELAXED);
    /* Release stores order the odd seq before each word: a reader that sees any new word
       then sees seq changed on its second look. */
    const word32 *src = (const word32 *)snap;
    word32 *dst = (word32 *)&w->snap;
    for (size_t i = 0; i < sizeof *snap / sizeof(uint32_t); i++)
        __atomic_store_n(&dst[i], src[i], __ATOMIC_RELEASE);
    __atomic_store_n(&w->seq, seq + 2u, __ATOMIC_RELEASE);
}

void vprof_window_read(const struct vprof_window *w, struct vprof_window_snap *out)
{
    for (;;) {
        const uint32_t before = __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE);
        if (before & 1u)
            continue; /* a writer is inside: a few stores, under a lock that never waits on us */
        /* Acquire loads keep the second look at seq after every word; a torn copy is thrown away. */
        const word32 *src = (const word32 *)&w->snap;
        word32 *dst = (word32 *)out;
        for (size_t i = 0; i < sizeof *out / sizeof(uint32_t); i++)
            dst[i] = __atomic_load_n(&src[i], __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&w->seq, __ATOMIC_RELAXED) == before)
            return;
    }
}

void vprof_window_reset_counts(struct vprof_window *w)
{
    word64 *p = (word64 *)&w->counts;
    for (size_t i = 0; i < sizeof w->counts / sizeof(uint64_t); i++)
        __atomic_store_n(&p[i], 0u, __ATOMIC_RELAXED);
}

void vprof_window_counts(const struct vprof_window *w, struct vprof_range_counts *out)
{
    const word64 *src = (const word64 *)&w->counts;
    word64 *dst = (word64 *)out;
    for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++)
        dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}
