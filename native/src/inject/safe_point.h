/* Deciding whether a stopped thread is at a point where it may call pthread_create. */
#ifndef VPROF_INJECT_SAFE_POINT_H
#define VPROF_INJECT_SAFE_POINT_H

#include "arch.h"
#include "proc.h"
#include "unwind.h"

#include <stddef.h>
#include <stdint.h>

struct addr_range { uint64_t lo, hi; char *what; /* "malloc (libc.so.6)", or NULL */ };

struct range_set {
    struct addr_range *v;
    size_t n, cap;
};

struct safe_point_map {
    struct range_set lock_holders; /* code that may run with a loader/allocator/thread lock held */
    struct range_set libc_text;    /* executable mappings of libc, libdl, libpthread */
    struct range_set libc_named;   /* their exported (or .symtab) functions */
    struct range_set fork_code;    /* fork and its aliases (see safe_point.c) */
    struct unwinder *unwinder;
    int mem_fd;
};

/* Which evidence decided. */
enum safe_point_method {
    SP_CALL_CHAIN,       /* the whole call chain, unwound from the unwind tables */
    SP_CHAIN_THEN_SCAN,  /* the frames that could be unwound, then a scan of the rest of the stack */
};

struct safe_point_verdict {
    int safe;
    enum safe_point_method method;
    int frames;          /* frames of the call chain that were checked */
    uint64_t pc, sp;     /* the thread's, to tell a thread that does not move */
    char reason[320];    /* when not safe: why, naming the function ("malloc (libc.so.6) is on
                            its call chain") */
    char fallback[200];  /* SP_CHAIN_THEN_SCAN: why unwinding stopped */
};

/* Builds the map for pid from its current mappings; the ELF files are read through
 * /proc/PID/root so that processes in containers work; mem_fd (/proc/PID/mem) serves the
 * unwinder. Returns 0 or -errno. */
int safe_point_map_build(pid_t pid, const struct maps *m, int mem_fd, struct safe_point_map *out);
void safe_point_map_free(struct safe_point_map *sp);

/* Whether a symbol name belongs to the lock-holding set (exposed for tests). */
int safe_point_name_holds_locks(const char *name);

/* Decides for the thread whose registers are r; m: the target's mappings, read after it
 * stopped. u receives the call chain that was walked. */
void safe_point_check(struct safe_point_map *sp, const struct maps *m, const struct arch_regs *r,
                      struct safe_point_verdict *v, struct unwind_result *u);

/* "its call chain of 7 frames", "its call chain (3 frames), then a scan of the stack above" */
void safe_point_describe_method(const struct safe_point_verdict *v, char *buf, size_t len);

#endif
