/* Borrowing one thread of a running process through ptrace. */
#include "hijack.h"
#include "inject.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int mem_read(int mem_fd, uint64_t addr, void *buf, size_t len) {
    ssize_t n = pread(mem_fd, buf, len, (off_t)addr);
    if (n < 0) return -errno;
    return (size_t)n == len ? 0 : -EIO;
}

int mem_write(int mem_fd, uint64_t addr, const void *buf, size_t len) {
    ssize_t n = pwrite(mem_fd, buf, len, (off_t)addr);
    if (n < 0) return -errno;
    return (size_t)n == len ? 0 : -EIO;
}

static void remember_signal(struct hijack *h, int sig) {
    if (h->nsignals < HIJACK_MAX_SIGNALS) h->signals[h->nsignals++] = sig;
}

/* Waits for the next stop of the thread. deadline_ms < 0 waits without limit.
 * Returns 0 with *status, -ETIMEDOUT, or -ESRCH when the thread is gone. */
static int wait_stop(struct hijack *h, long long deadline_ms, int *status) {
    long delay_us = 20;
    for (;;) {
        pid_t r = waitpid(h->tid, status, __WALL | (deadline_ms < 0 ? 0 : WNOHANG));
        if (r == h->tid) {
            if (WIFEXITED(*status) || WIFSIGNALED(*status)) {
                h->stopped = 0;
                h->seized = 0;
                return -ESRCH;
            }
            h->stopped = 1;
            return 0;
        }
        if (r < 0 && errno != EINTR) return -errno;
        if (r == 0) {
            if (inject_now_ms() >= deadline_ms) return -ETIMEDOUT;
            inject_sleep_us(delay_us);
            if (delay_us < 1000) delay_us *= 2;
        }
    }
}

static int resume(struct hijack *h, int request, int sig) {
    if (ptrace(request, h->tid, NULL, (void *)(long)sig) != 0) return -errno;
    h->stopped = 0;
    return 0;
}

static int is_event_stop(int status) { return (status >> 16) == PTRACE_EVENT_STOP; }

int hijack_attach(struct hijack *h, pid_t pid, pid_t tid, int mem_fd, long long deadline_ms) {
    memset(h, 0, sizeof *h);
    h->pid = pid;
    h->tid = tid;
    h->mem_fd = mem_fd;
    /* SEIZE, unlike ATTACH, sends no SIGSTOP: the target sees no signal, no group-stop. */
    if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) != 0) return -errno;
    h->seized = 1;
    if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) != 0) return -errno;
    for (;;) {
        int status, rc = wait_stop(h, deadline_ms, &status);
        if (rc) return rc;
        int sig = WSTOPSIG(status);
        if (is_event_stop(status)) {
            if (sig != SIGTRAP) return -EBUSY; /* group-stop: the process was stopped (SIGSTOP) */
            break;                             /* our interrupt */
        }
        /* A signal was about to be delivered: keep it for later, this stop serves as ours. The
         * interrupt stop still pending will show up during our first resume and is skipped. */
        remember_signal(h, sig);
        break;
    }
    return arch_get_regs(tid, &h->saved);
}

/* Writes back what we changed. Called with the thread stopped. */
static int restore(struct hijack *h) {
    int rc = 0;
    if (h->stack_len) {
        rc = mem_write(h->mem_fd, h->stack_addr, h->stack_orig, h->stack_len);
        if (rc == 0) h->stack_len = 0;
    }
    if (h->fp_saved && arch_set_fpregs(h->tid, &h->saved_fp) != 0) rc = -EIO;
    if (arch_set_regs(h->tid, &h->saved) != 0) rc = -EIO;
    if (rc == 0) h->dirty = 0;
    return rc;
}

void hijack_release(struct hijack *h) {
    if (!h->seized) return;
    if (h->stopped) {
        if (h->dirty && restore(h) != 0)
            inject_error("could not restore thread %d of process %d; it may misbehave", (int)h->tid,
                         (int)h->pid);
        /* Detaching with the first signal delivers it as the kernel would have, with full
         * siginfo, and with syscall-restart decided on the restored registers. */
        int first = h->nsignals ? h->signals[0] : 0;
        if (ptrace(PTRACE_DETACH, h->tid, NULL, (void *)(long)first) == 0) {
            for (int i = 1; i < h->nsignals; i++) syscall(SYS_tgkill, h->pid, h->tid, h->signals[i]);
        }
    }
    /* A thread that never reached a stop cannot be detached by request; the kernel detaches it
     * (and drops the pending interrupt) when this process exits. */
    h->seized = 0;
    h->stopped = 0;
}

int hijack_syscall(struct hijack *h, uint64_t insn, long nr, const uint64_t args[6], uint64_t *ret) {
    struct arch_regs r = h->saved;
    arch_prepare_syscall(&r, insn, nr, args);
    h->dirty = 1;
    if (arch_set_regs(h->tid, &r) != 0) return -errno;
    for (int steps = 0; steps < 16; steps++) {
        int rc = resume(h, PTRACE_SINGLESTEP, 0);
        if (rc) return rc;
        int status;
        rc = wait_stop(h, -1, &status);
        if (rc) return rc;
        if (is_event_stop(status)) continue; /* the leftover interrupt stop */
        int sig = WSTOPSIG(status);
        if (sig != SIGTRAP) { remember_signal(h, sig); }
        if (arch_get_regs(h->tid, &r) != 0) return -errno;
        if (arch_syscall_done(&r, insn)) {
            *ret = arch_return_value(&r);
            return 0;
        }
        if (arch_pc(&r) != insn) return -EFAULT; /* somewhere unexpected: give up, restore */
    }
    return -ETIMEDOUT;
}

int hijack_call(struct hijack *h, uint64_t fn, uint64_t trap, const uint64_t args[6], uint64_t *ret) {
    if (!h->fp_saved) {
        if (arch_get_fpregs(h->tid, &h->saved_fp) != 0) return -errno;
        h->fp_saved = 1;
    }
    struct arch_regs r = h->saved;
    uint8_t bytes[16];
    uint64_t addr = 0;
    size_t len = arch_prepare_call(&r, fn, trap, args, &addr, bytes);
    h->dirty = 1;
    if (len) {
        int rc = mem_read(h->mem_fd, addr, h->stack_orig, len);
        if (rc) return rc;
        h->stack_addr = addr;
        h->stack_len = len;
        rc = mem_write(h->mem_fd, addr, bytes, len);
        if (rc) return rc;
    }
    if (arch_set_regs(h->tid, &r) != 0) return -errno;
    int sig = 0;
    for (;;) {
        int rc = resume(h, PTRACE_CONT, sig);
        if (rc) return rc;
        sig = 0;
        int status;
        rc = wait_stop(h, -1, &status);
        if (rc) return rc;
        if (is_event_stop(status)) continue; /* leftover interrupt; a group-stop is left too */
        int s = WSTOPSIG(status);
        if (arch_get_regs(h->tid, &r) != 0) return -errno;
        if (s == SIGTRAP && arch_at_trap(&r, trap)) {
            *ret = arch_return_value(&r);
            return 0;
        }
        if (s == SIGSEGV || s == SIGBUS || s == SIGILL || s == SIGFPE) {
            /* Our call faulted. Delivering the signal would kill the target; suppress it and
             * let release restore the thread to where it was. */
            return -EFAULT;
        }
        /* Any other signal belongs to the program: deliver it now, inside our call, as it
         * would be delivered inside any library call. */
        sig = s;
    }
}
