/* One injection: find a safe thread in the target, make it start a loader thread, report.
 * The strategy and its reasoning are written at the top of inject_main.c. */
#include "session.h"
#include "access.h"
#include "arch.h"
#include "elf_symbols.h"
#include "hijack.h"
#include "inject.h"
#include "safe_point.h"
#include "stub_layout.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define RTLD_DLOPEN_FLAG 0x80000000ull /* glibc's __RTLD_DLOPEN, wanted by __libc_dlopen_mode */
#define MAX_THREADS 8192
#define THREAD_EXIT_WAIT_MS 2000

/* Libraries searched for the symbols, in order: glibc >= 2.34 has everything in libc. */
static const char *const symbol_libs[] = {"libc.so.", "libc-2.", "libdl.so.", "libdl-",
                                          "libpthread.so.", "libpthread-"};

static int lookup_in(pid_t pid, const struct maps *m, const char *prefix, const char *name,
                     uint64_t *addr) {
    const struct map_entry *e = maps_find_library(m, prefix);
    if (!e) return -ENOENT;
    char file[PATH_MAX + 32];
    snprintf(file, sizeof file, "/proc/%d/root%s", (int)pid, e->path);
    struct elf_image img;
    int rc = elf_open(file, &img);
    if (rc) return rc;
    uint64_t value;
    rc = elf_lookup(&img, name, &value, NULL);
    if (rc == 0) *addr = elf_load_bias(&img, e->start, e->offset) + value;
    elf_close(&img);
    return rc;
}

static uint64_t resolve_one(pid_t pid, const struct maps *m, const char *name) {
    uint64_t addr = 0;
    for (size_t i = 0; i < sizeof symbol_libs / sizeof *symbol_libs; i++)
        if (lookup_in(pid, m, symbol_libs[i], name, &addr) == 0) return addr;
    return 0;
}

/* Finds a system-call instruction in libc's executable mapping by reading the live text. */
static uint64_t find_syscall_insn(const struct maps *m, int mem_fd) {
    const struct map_entry *lowest = maps_find_library(m, "libc.so.");
    if (!lowest) lowest = maps_find_library(m, "libc-2.");
    if (!lowest) return 0;
    static uint8_t buf[64 * 1024];
    for (size_t i = 0; i < m->n; i++) {
        const struct map_entry *e = &m->v[i];
        if (strcmp(e->path, lowest->path) != 0 || e->perms[2] != 'x') continue;
        for (uint64_t a = e->start; a < e->end; a += sizeof buf - 8) {
            size_t len = e->end - a < sizeof buf ? (size_t)(e->end - a) : sizeof buf;
            if (mem_read(mem_fd, a, buf, len) != 0) break;
            long off = arch_find_syscall_insn(buf, len);
            if (off >= 0) return a + (uint64_t)off;
        }
    }
    return 0;
}

int session_resolve(pid_t pid, const struct maps *m, int mem_fd, struct target_symbols *s,
                    char *msg, size_t len) {
    memset(s, 0, sizeof *s);
    if (!maps_find_library(m, "libc.so.") && !maps_find_library(m, "libc-2.")) {
        snprintf(msg, len, "process %d has no glibc mapped (statically linked, or another C "
                 "library): late injection needs glibc's dlopen and pthread_create", (int)pid);
        return EXIT_OTHER;
    }
    s->dlopen = resolve_one(pid, m, "dlopen");
    s->dlopen_mode = RTLD_NOW;
    if (!s->dlopen) {
        /* glibc < 2.34 without libdl loaded: the loader entry libc uses itself. */
        s->dlopen = resolve_one(pid, m, "__libc_dlopen_mode");
        s->dlopen_mode = RTLD_NOW | RTLD_DLOPEN_FLAG;
    }
    s->dlerror = resolve_one(pid, m, "dlerror"); /* optional: only the error text needs it */
    s->pthread_create = resolve_one(pid, m, "pthread_create");
    s->pthread_self = resolve_one(pid, m, "pthread_self");
    s->pthread_detach = resolve_one(pid, m, "pthread_detach");
    s->syscall_insn = find_syscall_insn(m, mem_fd);
    const char *missing = !s->dlopen ? "dlopen" : !s->pthread_create ? "pthread_create"
                        : !s->pthread_self ? "pthread_self" : !s->pthread_detach ? "pthread_detach"
                        : !s->syscall_insn ? "a system-call instruction" : NULL;
    if (missing) {
        snprintf(msg, len, "cannot find %s in process %d's C library (glibc older than 2.34 "
                 "without libpthread/libdl loaded?)", missing, (int)pid);
        return EXIT_OTHER;
    }
    return 0;
}

int session_library_loaded(const struct maps *m, const char *lib, char *where, size_t len) {
    struct stat st;
    int have_st = stat(lib, &st) == 0;
    const char *base = path_basename(lib);
    for (size_t i = 0; i < m->n; i++) {
        const struct map_entry *e = &m->v[i];
        if (e->path[0] != '/') continue;
        int same_file = have_st && e->inode == st.st_ino &&
                        makedev(e->dev_major, e->dev_minor) == st.st_dev;
        if (same_file || strcmp(e->path, lib) == 0 || strcmp(path_basename(e->path), base) == 0) {
            snprintf(where, len, "%s", e->path);
            return 1;
        }
    }
    return 0;
}

/* Threads worth trying, best first: sleeping ones (blocked in a system call, where the
 * interrupted code holds nothing), then running ones. Uninterruptible (D), stopped and dead
 * threads are left out: they may not reach a ptrace stop in time. Within each group the
 * starting thread rotates, so that repeated injections do not always borrow the same one. */
static pid_t only_thread; /* --thread: borrow this thread or none */

static int candidate_threads(pid_t pid, pid_t *out, int cap) {
    static pid_t tids[MAX_THREADS];
    static unsigned rotation;
    if (!rotation) rotation = (unsigned)getpid() ^ (unsigned)inject_now_ms();
    int n = only_thread ? 1 : proc_list_threads(pid, tids, MAX_THREADS), count = 0;
    if (only_thread) tids[0] = only_thread;
    if (n <= 0) return n;
    rotation++;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < n && count < cap; k++) {
            int i = (int)((k + rotation) % (unsigned)n);
            char st = proc_thread_state(pid, tids[i]);
            if ((pass == 0 && st == 'S') || (pass == 1 && st == 'R')) out[count++] = tids[i];
        }
    return count;
}

static int seize_error(pid_t pid, int err, char *msg, size_t len) {
    if (err == ESRCH) {
        snprintf(msg, len, "process %d exited during injection", (int)pid);
        return EXIT_NO_PROCESS;
    }
    if (err == EPERM || err == EACCES) {
        struct access_facts f;
        access_gather(pid, 1, &f);
        return access_verdict(&f, 1, msg, len);
    }
    snprintf(msg, len, "ptrace on process %d failed: %s", (int)pid, strerror(err));
    return EXIT_OTHER;
}

/* What was seen of each thread during the search: the refusal message names the last reason,
 * and threads that never moved tell "stuck" apart from "busy". */
#define TRACKED 1024
struct sighting { pid_t tid; uint64_t pc, sp; int looks, moved; };
struct search_log {
    struct sighting t[TRACKED];
    int n, untracked_moved, looks;
    pid_t last_tid;
    struct safe_point_verdict last;
};

static void log_sighting(struct search_log *l, pid_t tid, const struct safe_point_verdict *v) {
    l->looks++;
    l->last_tid = tid;
    l->last = *v;
    for (int i = 0; i < l->n; i++) {
        struct sighting *s = &l->t[i];
        if (s->tid != tid) continue;
        s->moved |= s->pc != v->pc || s->sp != v->sp;
        s->looks++;
        return;
    }
    if (l->n < TRACKED) l->t[l->n++] = (struct sighting){tid, v->pc, v->sp, 1, 0};
    else l->untracked_moved = 1; /* cannot tell: count it as moving */
}

/* True when every thread was looked at more than once and was in the same place each time. */
static int all_stuck(const struct search_log *l) {
    if (l->n == 0 || l->untracked_moved) return 0;
    for (int i = 0; i < l->n; i++)
        if (l->t[i].moved || l->t[i].looks < 2) return 0;
    return 1;
}

static int no_safe_point(pid_t pid, int timeout_ms, const struct search_log *l, char *msg, size_t len) {
    if (l->looks == 0) {
        snprintf(msg, len, "no thread of process %d could be stopped within %d ms (each was in "
                 "uninterruptible sleep or already stopped)", (int)pid, timeout_ms);
        return EXIT_TIMEOUT;
    }
    char name[32], method[300];
    proc_thread_name(pid, l->last_tid, name, sizeof name);
    safe_point_describe_method(&l->last, method, sizeof method);
    int stuck = all_stuck(l);
    snprintf(msg, len, "no thread of process %d was at a safe point within %d ms (%d look%s at %d "
             "thread%s%s); last seen: thread %d (%s): %s, decided by %s", (int)pid, timeout_ms, l->looks,
             l->looks == 1 ? "" : "s", l->n, l->n == 1 ? "" : "s",
             stuck ? ", none of which moved meanwhile" : "", (int)l->last_tid, name, l->last.reason, method);
    return stuck ? EXIT_STUCK : EXIT_TIMEOUT;
}

/* Stops threads one by one until one is at a safe point; returns 0 with h attached to it. */
static int find_safe_thread(pid_t pid, struct safe_point_map *spm, long long deadline, int timeout_ms,
                            int verbose, struct hijack *h, struct safe_point_verdict *verdict, char *msg,
                            size_t len) {
    static pid_t tids[MAX_THREADS];
    static struct search_log log;
    memset(&log, 0, sizeof log);
    for (int rounds = 0;; rounds++) {
        int n = candidate_threads(pid, tids, MAX_THREADS);
        for (int i = 0; i < n; i++) {
            int rc = hijack_attach(h, pid, tids[i], spm->mem_fd, deadline);
            if (rc == -ESRCH && kill(pid, 0) == 0) { hijack_release(h); continue; } /* thread ended */
            if (rc == -EBUSY) {
                hijack_release(h);
                snprintf(msg, len, "process %d is stopped (SIGSTOP/Ctrl-Z); resume it with "
                         "`kill -CONT %d` and retry", (int)pid, (int)pid);
                return EXIT_OTHER;
            }
            if (rc == -ETIMEDOUT) break; /* still seized; the kernel detaches it when we exit */
            if (rc) {
                hijack_release(h);
                return seize_error(pid, -rc, msg, len);
            }
            /* The maps are read with the thread stopped: its frames cannot be in a library that
             * was mapped after the read. */
            struct maps m;
            if (maps_read(pid, &m) != 0) {
                hijack_release(h);
                snprintf(msg, len, "process %d exited during injection", (int)pid);
                return EXIT_NO_PROCESS;
            }
            static struct unwind_result chain;
            safe_point_check(spm, &m, &h->saved, verdict, &chain);
            maps_free(&m);
            char method[300];
            if (verbose) safe_point_describe_method(verdict, method, sizeof method);
            if (verdict->safe) {
                if (verbose)
                    inject_error("thread %d is at a safe point (pc 0x%llx) after %d round(s), decided by %s",
                                 (int)tids[i], (unsigned long long)verdict->pc, rounds + 1, method);
                return 0;
            }
            if (verbose) inject_error("thread %d not safe: %s; decided by %s", (int)tids[i], verdict->reason, method);
            log_sighting(&log, tids[i], verdict);
            hijack_release(h);
        }
        if (inject_now_ms() >= deadline) break;
        inject_sleep_us(2000); /* let the threads move on, then look again */
    }
    return no_safe_point(pid, timeout_ms, &log, msg, len);
}

/* On the stopped, safe thread: map the scratch pages, fill them, start the loader thread.
 * Returns 0 with *pages set, or an exit code (the pages are unmapped again on failure). */
static int start_loader_thread(struct hijack *h, const struct target_symbols *s, const char *lib,
                               uint64_t *pages, char *msg, size_t len) {
    const uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t ret;
    uint64_t mmap_args[6] = {0, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                             (uint64_t)-1, 0};
    int rc = hijack_syscall(h, s->syscall_insn, SYS_mmap, mmap_args, &ret);
    if (rc || ret > (uint64_t)-4096) {
        snprintf(msg, len, "mmap in process %d failed: %s", (int)h->pid,
                 strerror(rc ? -rc : -(int)ret));
        return EXIT_OTHER;
    }
    const uint64_t code = ret, data = ret + ps;
    size_t stub_size, trap_off;
    const uint8_t *stub = arch_stub(&stub_size, &trap_off);
    uint8_t page[4096] = {0};
    uint64_t fields[5] = {s->dlopen, s->dlerror, s->pthread_self, s->pthread_detach, s->dlopen_mode};
    memcpy(page + SH_FN_DLOPEN, fields, sizeof fields);
    memcpy(page + SH_PATH, lib, strlen(lib) + 1);
    uint64_t mprotect_args[6] = {code, ps, PROT_READ | PROT_EXEC, 0, 0, 0};
    uint64_t create_args[6] = {data + SH_THREAD, 0, code, data, 0, 0};
    uint64_t create_ret = 0;
    if ((rc = mem_write(h->mem_fd, code, stub, stub_size)) == 0 &&
        (rc = mem_write(h->mem_fd, data, page, sizeof page)) == 0 &&
        (rc = hijack_syscall(h, s->syscall_insn, SYS_mprotect, mprotect_args, &ret)) == 0 &&
        (rc = (ret == 0 ? 0 : -EACCES)) == 0 &&
        (rc = hijack_call(h, s->pthread_create, code + trap_off, create_args, &create_ret)) == 0 &&
        (int)create_ret == 0) {
        *pages = code;
        return 0;
    }
    if (rc == -ESRCH) {
        snprintf(msg, len, "process %d exited during injection", (int)h->pid);
        return EXIT_NO_PROCESS;
    }
    if (rc == 0)
        snprintf(msg, len, "pthread_create in process %d failed: %s", (int)h->pid,
                 strerror((int)create_ret));
    else
        snprintf(msg, len, "could not start the loader thread in process %d: %s%s", (int)h->pid,
                 strerror(-rc), rc == -EFAULT ? " (the call faulted; the thread was restored)" : "");
    uint64_t munmap_args[6] = {code, 2 * ps, 0, 0, 0, 0};
    if (h->stopped) hijack_syscall(h, s->syscall_insn, SYS_munmap, munmap_args, &ret);
    return EXIT_OTHER;
}

/* Unmaps the scratch pages once the loader thread has left them: on any thread, since a bare
 * munmap system call runs no user code and takes no user-space lock. */
static int unmap_pages(pid_t pid, int mem_fd, const struct target_symbols *s, uint64_t pages,
                       pid_t loader_tid, long long deadline) {
    char task[96];
    snprintf(task, sizeof task, "/proc/%d/task/%d", (int)pid, (int)loader_tid);
    while (loader_tid > 0 && access(task, F_OK) == 0) {
        if (inject_now_ms() >= deadline) return -ETIMEDOUT;
        inject_sleep_us(500);
    }
    static pid_t tids[MAX_THREADS];
    int n = candidate_threads(pid, tids, MAX_THREADS);
    const uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t args[6] = {pages, 2 * ps, 0, 0, 0, 0}, ret = 0;
    for (int i = 0; i < n; i++) {
        struct hijack h;
        int rc = hijack_attach(&h, pid, tids[i], mem_fd, deadline);
        if (rc == 0) rc = hijack_syscall(&h, s->syscall_insn, SYS_munmap, args, &ret);
        hijack_release(&h);
        if (rc == 0) return ret == 0 ? 0 : -EINVAL;
        if (rc == -ETIMEDOUT) return rc;
    }
    return -ESRCH;
}

int session_inject(pid_t pid, pid_t tid, const char *lib, int timeout_ms, int verbose, char *msg,
                   size_t len) {
    only_thread = tid;
    if (strlen(lib) >= SH_PATH_MAX) {
        snprintf(msg, len, "library path too long (max %d bytes)", SH_PATH_MAX - 1);
        return EXIT_USAGE;
    }
    long long t0 = inject_now_ms();
    char memname[64];
    snprintf(memname, sizeof memname, "/proc/%d/mem", (int)pid);
    int mem_fd = open(memname, O_RDWR | O_CLOEXEC);
    if (mem_fd < 0) return seize_error(pid, errno == ENOENT ? ESRCH : errno, msg, len);

    /* Ctrl-C or a kill from the front end while a thread of the target runs our call would
     * leave it returning into a trap with no tracer, killing the target: hold such signals
     * until every thread is given back. (SIGKILL cannot be held; see the README.) */
    sigset_t hold, old;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT); sigaddset(&hold, SIGTERM); sigaddset(&hold, SIGHUP);
    sigaddset(&hold, SIGQUIT); sigaddset(&hold, SIGPIPE);
    sigprocmask(SIG_BLOCK, &hold, &old);

    struct maps m = {0};
    struct safe_point_map spm = {0};
    struct target_symbols syms;
    struct hijack h = {0};
    uint64_t pages = 0;
    int code = 0, rc = maps_read(pid, &m);
    if (rc) {
        code = seize_error(pid, rc == -ENOENT ? ESRCH : -rc, msg, len);
        goto out;
    }
    if ((code = session_resolve(pid, &m, mem_fd, &syms, msg, len)) != 0) goto out;
    if ((rc = safe_point_map_build(pid, &m, mem_fd, &spm)) != 0) {
        snprintf(msg, len, "cannot read the C library of process %d: %s", (int)pid, strerror(-rc));
        code = EXIT_OTHER;
        goto out;
    }
    struct safe_point_verdict verdict;
    code = find_safe_thread(pid, &spm, t0 + timeout_ms, timeout_ms, verbose, &h, &verdict, msg, len);
    if (code) goto out;
    const pid_t borrowed = h.tid;
    code = start_loader_thread(&h, &syms, lib, &pages, msg, len);
    hijack_release(&h); /* the thread goes back to exactly where it was */
    if (code) goto out;
    long long t_started = inject_now_ms();

    /* The loader thread reports through the data page; it needs no ptrace. */
    const uint64_t data = pages + (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t done = 0;
    long long answer_deadline = inject_now_ms() + timeout_ms;
    while ((rc = mem_read(mem_fd, data + SH_DONE, &done, 8)) == 0 && done != 1 &&
           inject_now_ms() < answer_deadline)
        inject_sleep_us(200);
    if (rc) {
        snprintf(msg, len, "process %d exited while loading %s", (int)pid, lib);
        code = EXIT_NO_PROCESS;
        goto out;
    }
    if (done != 1) {
        snprintf(msg, len, "the loader thread in process %d did not answer within %d ms; %s may "
                 "still load later (2 scratch pages stay mapped at 0x%llx)", (int)pid, timeout_ms,
                 lib, (unsigned long long)pages);
        code = EXIT_TIMEOUT;
        goto out;
    }
    uint64_t handle = 0, loader_tid = 0;
    char err[SH_ERR_LEN] = {0};
    mem_read(mem_fd, data + SH_HANDLE, &handle, 8);
    mem_read(mem_fd, data + SH_TID, &loader_tid, 8);
    mem_read(mem_fd, data + SH_ERR, err, sizeof err - 1);
    long long t_loaded = inject_now_ms();

    only_thread = 0; /* a bare munmap is fine on any thread */
    if (unmap_pages(pid, mem_fd, &syms, pages, (pid_t)loader_tid, inject_now_ms() + THREAD_EXIT_WAIT_MS))
        inject_error("note: 2 scratch pages stay mapped in process %d at 0x%llx",
                     (int)pid, (unsigned long long)pages);
    if (verbose)
        inject_error("timing: safe point + thread start %lld ms, dlopen %lld ms, total %lld ms",
                     t_started - t0, t_loaded - t_started, inject_now_ms() - t0);
    if (!handle) {
        snprintf(msg, len, "dlopen of %s failed in process %d: %s", lib, (int)pid,
                 err[0] ? err : "(no dlerror text available)");
        code = EXIT_DLOPEN_FAILED;
        goto out;
    }
    char method[300];
    safe_point_describe_method(&verdict, method, sizeof method);
    snprintf(msg, len, "injected %s into %d (borrowed thread %d, safe by %s)", lib, (int)pid, (int)borrowed,
             method);
out:
    hijack_release(&h);
    safe_point_map_free(&spm);
    maps_free(&m);
    close(mem_fd);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return code;
}
