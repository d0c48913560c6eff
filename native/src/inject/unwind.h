/* The call chain of a stopped thread of another process, from the unwind tables (.eh_frame_hdr
 * and .eh_frame) of the code it runs, read through /proc/PID/mem. */
#ifndef VPROF_INJECT_UNWIND_H
#define VPROF_INJECT_UNWIND_H

#include "arch.h"
#include "proc.h"

#include <stdint.h>

#define UNWIND_MAX_FRAMES 256

struct unwind_frame {
    uint64_t pc;    /* frame 0: the thread's pc; others: the return address */
    uint64_t sp;    /* the frame's stack pointer */
    int exact;      /* pc is where execution stopped (frame 0, or interrupted by a signal), not a
                       return address: look it up as is rather than at pc - 1 */
    int signal;     /* this frame is a signal trampoline (sigreturn): its caller was interrupted */
};

struct unwind_result {
    int n;          /* frames found, innermost first */
    int complete;   /* reached the outermost frame (the return-address rule of _start or clone
                       is "undefined") */
    char why[200];  /* when not complete: why the walk stopped after frame n - 1 */
    struct unwind_frame f[UNWIND_MAX_FRAMES];
};

struct unwinder; /* caches of one target: modules and table pages */

/* Returns NULL when out of memory. mem_fd: /proc/PID/mem of the target, open for reading. */
struct unwinder *unwinder_new(int mem_fd);
void unwinder_free(struct unwinder *u);

/* Unwinds the thread whose registers are r, with the target's mappings m (read after the
 * thread stopped). The caches are dropped first: libraries may have come and gone. */
void unwind_thread(struct unwinder *u, const struct maps *m, const struct arch_regs *r,
                   struct unwind_result *out);

/* "the lookup address" of a frame: pc for an exact frame, the call instruction (pc - 1) else. */
static inline uint64_t unwind_lookup_pc(const struct unwind_frame *f) { return f->exact ? f->pc : f->pc - 1; }

#endif
