/* Borrowing one thread of a running process through ptrace: stop it, run system calls or a
 * function call on it, and give it back exactly as it was. */
#ifndef VPROF_INJECT_HIJACK_H
#define VPROF_INJECT_HIJACK_H

#include "arch.h"

#include <stdint.h>
#include <sys/types.h>

#define HIJACK_MAX_SIGNALS 8

struct hijack {
    pid_t pid, tid;
    int mem_fd;             /* /proc/PID/mem, opened by the caller */
    int seized;             /* PTRACE_SEIZE succeeded: we are the tracer */
    int stopped;            /* the thread sits in a ptrace stop we control */
    int dirty;              /* registers/stack changed: release must restore them */
    int fp_saved;
    int nsignals;           /* signals that arrived while we held the thread; redelivered */
    int signals[HIJACK_MAX_SIGNALS];
    struct arch_regs saved;
    struct arch_fpregs saved_fp;
    uint64_t stack_addr;    /* bytes below sp we wrote (a return address), and what was there */
    size_t stack_len;
    uint8_t stack_orig[16];
};

/* Seizes tid (a thread of pid) and interrupts it. Waits for the stop until deadline_ms
 * (CLOCK_MONOTONIC ms). Returns 0 with the thread stopped and its registers saved, or -errno:
 * EPERM/ESRCH from PTRACE_SEIZE, ETIMEDOUT, EBUSY (process in group-stop). On error the
 * struct still needs hijack_release. */
int hijack_attach(struct hijack *h, pid_t pid, pid_t tid, int mem_fd, long long deadline_ms);

/* Runs one system call on the stopped thread by single-stepping the existing system-call
 * instruction at insn. Returns 0 and the raw result in *ret (-4095..-1 are -errno), or -errno. */
int hijack_syscall(struct hijack *h, uint64_t insn, long nr, const uint64_t args[6], uint64_t *ret);

/* Calls fn(args) on the stopped thread, returning to the trap instruction at trap; saves the
 * FP state first. Blocks until the call returns: a started call cannot be abandoned without
 * leaving the thread inside it. Returns 0 with *ret, or -errno (EFAULT: the call faulted, the
 * fault was suppressed and the thread restored; ESRCH: the process died). */
int hijack_call(struct hijack *h, uint64_t fn, uint64_t trap, const uint64_t args[6], uint64_t *ret);

/* Puts back every register, FP register and stack byte we changed, detaches, and re-raises
 * the signals that arrived meanwhile. Safe to call in any state, any number of times. */
void hijack_release(struct hijack *h);

/* Reads/writes target memory through /proc/PID/mem. Return 0 or -errno. */
int mem_read(int mem_fd, uint64_t addr, void *buf, size_t len);
int mem_write(int mem_fd, uint64_t addr, const void *buf, size_t len);

#endif
