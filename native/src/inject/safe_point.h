/* Deciding whether a stopped thread is at a point where it may call pthread_create. */
#ifndef VPROF_INJECT_SAFE_POINT_H
#define VPROF_INJECT_SAFE_POINT_H

#include "arch.h"
#include "proc.h"

#include <stddef.h>
#include <stdint.h>

struct addr_range { uint64_t lo, hi; const char *what; };

struct range_set {
    struct addr_range *v;
    size_t n, cap;
};

struct safe_point_map {
    struct range_set lock_holders; /* code that may run with a loader/allocator/thread lock held */
    struct range_set libc_text;    /* executable mappings of libc, libdl, libpthread */
    struct range_set fork_code;    /* fork and its aliases (see safe_point.c, 3.) */
};

/* Builds the map for pid from its current mappings; the ELF files are read through
 * /proc/PID/root so that processes in containers work. Returns 0 or -errno. */
int safe_point_map_build(pid_t pid, const struct maps *m, struct safe_point_map *out);
void safe_point_map_free(struct safe_point_map *sp);

/* Whether a symbol name belongs to the lock-holding set (exposed for tests). */
int safe_point_name_holds_locks(const char *name);

/* NULL when the thread whose registers are r is at a safe point, otherwise the reason. */
const char *safe_point_check(const struct safe_point_map *sp, const struct maps *m, int mem_fd,
                             const struct arch_regs *r);

#endif
