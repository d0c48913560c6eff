/* Deciding whether a stopped thread is at a point where it may call pthread_create.
 *
 * pthread_create takes the stack-cache lock, allocates (malloc: the thread's arena lock) and
 * sets up static TLS under the loader's TLS lock. A thread that already holds one of those
 * locks would deadlock on a non-recursive one, or re-enter the loader's half-updated tables
 * through a recursive one. A thread holds such a lock only while it is inside the code that
 * took it, so it is safe when no frame of its call chain lies in that code.
 *
 * THE CALL CHAIN (unwind.c) is unwound from the target's own unwind tables, so only real
 * frames count: a dead return address left in an uninitialised slot of a live frame (a forked
 * worker keeps one into fork for life) is not a frame and cannot refuse a thread. A thread is
 * safe when:
 *   1. no frame is in ld.so, in a replacement allocator (jemalloc, tcmalloc, mimalloc: all of
 *      their code), or in a lock-taking libc function (allocator, dl*, pthread_create/join/
 *      exit, fork, exit, setuid & co., which hold the stack-cache lock while they signal every
 *      thread): those are found by their symbols in the target's libc file;
 *   2. each stretch of libc frames (libc, libdl, libpthread) that program code called into was
 *      entered through an exported libc function that takes none of those locks. libc's
 *      internal helpers (_int_malloc, _int_free...) have no exported symbol, and a tail call
 *      (free jumping to _int_free, sem_clockwait jumping to its slow path) leaves no frame of
 *      the exported function: when the outermost frame of a stretch is internal code, the call
 *      instruction before the program's return address says which function was called
 *      (followed through the PLT and GOT, arch_call_target); a call that cannot be followed
 *      (through a register) leaves the thread unsafe. The stretch at the very bottom of a thread's
 *      stack (clone and start_thread, __libc_start_call_main) is where the thread began, not a
 *      call into libc: it is fine as long as the thread has since called program code (a
 *      thread whose every frame is in libc is starting or exiting, and exiting frees its stack
 *      under the stack-cache lock).
 * A signal trampoline frame (sigreturn) separates the handler's frames from the interrupted
 * code's, which are checked by the same rules: a handler that interrupted malloc is refused.
 *
 * THE FALLBACK, where the walk stops before the outermost frame (code without unwind tables:
 * JIT code, hand-written assembly): the frames walked so far are checked as above, the pc must
 * not be in libc unless the thread is in a system call, and every word of the stack above the
 * last walked frame (up to 256 KiB) is scanned for an address in ld.so or a lock-taking libc
 * function. A stale word there can refuse a safe thread, never make an unsafe one look safe.
 * One relaxation, for fork: a process forked without exec keeps a dead return address into
 * fork for life. fork holds pthread_create's locks (malloc arenas, stdio list, stack cache)
 * only between taking them and _Fork's return, and in that window the thread only waits on
 * those locks (futex) and clones; so in the scan, a fork word on the stack of a thread blocked
 * in a sleeping or waiting system call (nanosleep, poll, epoll_wait, read, wait4...) is ignored. */
#include "safe_point.h"
#include "elf_symbols.h"
#include "hijack.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#define STACK_SCAN_BYTES (256 * 1024)

/* Exported (or .symtab) names of libc code that runs with such a lock held. */
static const char *const lock_holder_names[] = {
    /* allocator */
    "malloc", "free", "calloc", "realloc", "reallocarray", "memalign", "posix_memalign",
    "aligned_alloc", "valloc", "pvalloc", "mallopt", "malloc_trim", "malloc_stats", "malloc_info",
    "malloc_usable_size", "__libc_malloc", "__libc_free", "__libc_calloc", "__libc_realloc",
    "__libc_memalign", "__libc_valloc", "__libc_pvalloc", "__posix_memalign", "sysmalloc", "systrim",
    /* loader */
    "dlopen", "dlmopen", "dlclose", "dlsym", "dlvsym", "dladdr", "dladdr1", "dlinfo", "dlerror",
    "dl_iterate_phdr", "__tls_get_addr", "__libc_freeres",
    /* threads, fork, exit: stack cache, TLS, default-attribute and at-fork locks */
    "pthread_create", "pthread_join", "pthread_exit", "pthread_detach", "pthread_atfork",
    "__pthread_create_2_1", "allocate_stack", "pthread_getattr_default_np", "pthread_setattr_default_np",
    "exit", "_exit", "quick_exit", "__run_exit_handlers", "__cxa_finalize", "__cxa_thread_atexit_impl",
    "__libc_thread_freeres", "__call_tls_dtors",
    /* set*id: glibc makes every thread change its ids, holding the stack-cache lock meanwhile */
    "setuid", "seteuid", "setreuid", "setresuid", "setgid", "setegid", "setregid", "setresgid",
    "setgroups",
};

/* Families matched by prefix (internal helpers that appear in .symtab when it is present). */
static const char *const lock_holder_prefixes[] = {
    "_int_", "__malloc", "tcache", "arena_", "mallinfo", "__libc_dl", "_dl_", "__dl", "__nptl_",
    "pthread_tryjoin", "pthread_timedjoin", "pthread_clockjoin", "__pthread_exit", "__pthread_join",
};

/* fork and its aliases: lock holders too, but see the fallback above. */
static const char *const fork_names[] = {"fork", "_Fork", "__libc_fork", "vfork", "__fork"};

static int is_fork_name(const char *name) {
    for (size_t i = 0; i < sizeof fork_names / sizeof *fork_names; i++)
        if (strcmp(name, fork_names[i]) == 0) return 1;
    return 0;
}

/* System calls a thread sleeps or waits in, which fork never makes while it holds locks. */
static int is_waiting_syscall(long nr) {
    static const long waits[] = {
        SYS_nanosleep, SYS_clock_nanosleep, SYS_ppoll, SYS_pselect6, SYS_epoll_pwait,
        SYS_read, SYS_readv, SYS_recvfrom, SYS_recvmsg, SYS_accept4, SYS_wait4, SYS_waitid,
        SYS_rt_sigsuspend, SYS_rt_sigtimedwait,
#ifdef SYS_poll
        SYS_poll,
#endif
#ifdef SYS_select
        SYS_select,
#endif
#ifdef SYS_epoll_wait
        SYS_epoll_wait,
#endif
#ifdef SYS_epoll_pwait2
        SYS_epoll_pwait2,
#endif
#ifdef SYS_accept
        SYS_accept,
#endif
#ifdef SYS_pause
        SYS_pause,
#endif
    };
    for (size_t i = 0; i < sizeof waits / sizeof *waits; i++)
        if (nr == waits[i]) return 1;
    return 0;
}

int safe_point_name_holds_locks(const char *name) {
    if (is_fork_name(name)) return 1;
    for (size_t i = 0; i < sizeof lock_holder_names / sizeof *lock_holder_names; i++)
        if (strcmp(name, lock_holder_names[i]) == 0) return 1;
    for (size_t i = 0; i < sizeof lock_holder_prefixes / sizeof *lock_holder_prefixes; i++)
        if (strncmp(name, lock_holder_prefixes[i], strlen(lock_holder_prefixes[i])) == 0) return 1;
    return 0;
}

/* ---- address ranges ---- */

static int range_add(struct range_set *s, uint64_t lo, uint64_t hi, const char *what) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct addr_range *v = realloc(s->v, cap * sizeof *v);
        if (!v) return -ENOMEM;
        s->v = v;
        s->cap = cap;
    }
    char *copy = NULL;
    if (what && !(copy = strdup(what))) return -ENOMEM;
    s->v[s->n++] = (struct addr_range){lo, hi, copy};
    return 0;
}

static int by_lo(const void *a, const void *b) {
    const struct addr_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sorts and merges overlapping ranges (aliases such as malloc/__libc_malloc) so that
 * range_find can binary-search: the stack scan tests tens of thousands of words. */
static void range_sort(struct range_set *s) {
    if (s->n == 0) return;
    qsort(s->v, s->n, sizeof *s->v, by_lo);
    size_t w = 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->v[i].lo < s->v[w].hi) {
            if (s->v[i].hi > s->v[w].hi) s->v[w].hi = s->v[i].hi;
            free(s->v[i].what);
        } else {
            s->v[++w] = s->v[i];
        }
    }
    s->n = w + 1;
}

static const struct addr_range *range_find(const struct range_set *s, uint64_t a) {
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a < s->v[mid].lo) hi = mid;
        else if (a >= s->v[mid].hi) lo = mid + 1;
        else return &s->v[mid];
    }
    return NULL;
}

static void range_free(struct range_set *s) {
    for (size_t i = 0; i < s->n; i++) free(s->v[i].what);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* ---- building the map ---- */

static int is_loader(const char *base) {
    return strncmp(base, "ld-linux", 8) == 0 || strncmp(base, "ld-2.", 5) == 0 ||
           strncmp(base, "ld64.so", 7) == 0 || strncmp(base, "ld-musl", 7) == 0;
}

/* Replacement allocators (LD_PRELOADed or linked): all their code counts as lock-taking. */
static int is_allocator(const char *base) {
    return strncmp(base, "libjemalloc", 11) == 0 || strncmp(base, "libtcmalloc", 11) == 0 ||
           strncmp(base, "libmimalloc", 11) == 0;
}

static int is_libc_family(const char *base) {
    return strncmp(base, "libc.so", 7) == 0 || strncmp(base, "libc-2.", 7) == 0 ||
           strncmp(base, "libdl.so", 8) == 0 || strncmp(base, "libdl-", 6) == 0 ||
           strncmp(base, "libpthread.so", 13) == 0 || strncmp(base, "libpthread-", 11) == 0;
}

struct collect_ctx {
    struct safe_point_map *sp;
    const char *lib;
    uint64_t bias;
    int err;
};

static void collect(void *vctx, const char *name, uint64_t value, uint64_t size) {
    struct collect_ctx *c = vctx;
    uint64_t lo = c->bias + value, hi = lo + (size ? size : 1);
    if (size && range_add(&c->sp->libc_named, lo, hi, NULL)) c->err = -ENOMEM;
    if (!safe_point_name_holds_locks(name)) return;
    char what[160];
    snprintf(what, sizeof what, "%s (%s)", name, c->lib);
    struct range_set *set = is_fork_name(name) ? &c->sp->fork_code : &c->sp->lock_holders;
    if (range_add(set, lo, hi, what)) c->err = -ENOMEM;
}

int safe_point_map_build(pid_t pid, const struct maps *m, int mem_fd, struct safe_point_map *out) {
    memset(out, 0, sizeof *out);
    out->mem_fd = mem_fd;
    if (!(out->unwinder = unwinder_new(mem_fd))) return -ENOMEM;
    const char *done[8];
    int ndone = 0;
    for (size_t i = 0; i < m->n; i++) {
        const struct map_entry *e = &m->v[i];
        if (e->path[0] != '/') continue;
        const char *base = path_basename(e->path);
        if ((is_loader(base) || is_allocator(base)) && e->perms[2] == 'x') {
            char what[160];
            snprintf(what, sizeof what, "%s (%s)", is_loader(base) ? "the dynamic loader" : "the allocator", base);
            if (range_add(&out->lock_holders, e->start, e->end, what)) return -ENOMEM;
            continue;
        }
        if (!is_libc_family(base)) continue;
        if (e->perms[2] == 'x' && range_add(&out->libc_text, e->start, e->end, NULL)) return -ENOMEM;
        int seen = 0;
        for (int k = 0; k < ndone; k++) seen |= strcmp(done[k], e->path) == 0;
        if (seen || ndone == 8) continue;
        done[ndone++] = e->path;
        const struct map_entry *lowest = maps_find_library(m, base);
        char file[PATH_MAX + 32];
        snprintf(file, sizeof file, "/proc/%d/root%s", (int)pid, e->path);
        struct elf_image img;
        int rc = elf_open(file, &img);
        if (rc) return rc;
        struct collect_ctx c = {out, base, elf_load_bias(&img, lowest->start, lowest->offset), 0};
        elf_for_each_function(&img, collect, &c);
        elf_close(&img);
        if (c.err) return c.err;
    }
    range_sort(&out->lock_holders);
    range_sort(&out->libc_text);
    range_sort(&out->libc_named);
    range_sort(&out->fork_code);
    return 0;
}

void safe_point_map_free(struct safe_point_map *sp) {
    range_free(&sp->lock_holders);
    range_free(&sp->libc_text);
    range_free(&sp->libc_named);
    range_free(&sp->fork_code);
    unwinder_free(sp->unwinder);
    memset(sp, 0, sizeof *sp);
}

/* ---- the decision ---- */

static void refuse(struct safe_point_verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void refuse(struct safe_point_verdict *v, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    v->safe = 0;
    vsnprintf(v->reason, sizeof v->reason, fmt, ap);
    va_end(ap);
}

/* Rule 1 on frames [0, n): no frame in lock-taking code. Returns 0 when clean. */
static int check_frames(const struct safe_point_map *sp, const struct unwind_result *u,
                        struct safe_point_verdict *v) {
    for (int i = 0; i < u->n; i++) {
        if (u->f[i].signal) continue; /* the trampoline: not a call into libc */
        uint64_t a = unwind_lookup_pc(&u->f[i]);
        const struct addr_range *hit = range_find(&sp->lock_holders, a);
        if (!hit) hit = range_find(&sp->fork_code, a);
        if (!hit) continue;
        if (i == 0) refuse(v, "it is executing in %s", hit->what);
        else refuse(v, "%s is on its call chain (frame %d)", hit->what, i);
        return -1;
    }
    return 0;
}

static int in_libc(const struct safe_point_map *sp, const struct unwind_frame *f) {
    return !f->signal && range_find(&sp->libc_text, unwind_lookup_pc(f)) != NULL;
}

/* The outermost libc frame j is internal code: an exported function jumped there (a tail
 * call) and left no frame. Which one it was, the call instruction in the caller's frame says. */
static int check_called_function(const struct safe_point_map *sp, const struct unwind_result *u, int j,
                                 struct safe_point_verdict *v) {
    uint64_t fn = 0;
    const struct unwind_frame *caller = &u->f[j + 1];
    if (caller->signal || arch_call_target(sp->mem_fd, caller->pc, &fn) != 0) {
        refuse(v, "it is inside internal C library code (0x%llx, frame %d) entered through a call "
               "that cannot be followed", (unsigned long long)unwind_lookup_pc(&u->f[j]), j);
        return -1;
    }
    const struct addr_range *hit = range_find(&sp->lock_holders, fn);
    if (!hit) hit = range_find(&sp->fork_code, fn);
    if (hit) {
        refuse(v, "%s was called and went on in internal code that takes its locks (frame %d)", hit->what, j);
        return -1;
    }
    if (!range_find(&sp->libc_named, fn)) {
        refuse(v, "it is inside internal C library code (0x%llx, frame %d) entered through 0x%llx, "
               "not an exported function", (unsigned long long)unwind_lookup_pc(&u->f[j]), j,
               (unsigned long long)fn);
        return -1;
    }
    return 0;
}

/* Rule 2: every stretch of libc frames program code called into was entered through an
 * exported function. Only stretches whose outermost frame was reached are judged. */
static int check_libc_entries(const struct safe_point_map *sp, const struct unwind_result *u,
                              struct safe_point_verdict *v) {
    for (int i = 0; i < u->n;) {
        if (!in_libc(sp, &u->f[i])) { i++; continue; }
        int j = i;
        while (j + 1 < u->n && in_libc(sp, &u->f[j + 1])) j++;
        int at_bottom = j == u->n - 1;
        if (at_bottom && !u->complete) return 0; /* cut off: the scan judges the rest */
        if (at_bottom && i == 0) {
            refuse(v, "every frame of its call chain is in the C library (the thread is starting or "
                   "exiting)");
            return -1;
        }
        if (!at_bottom && !range_find(&sp->libc_named, unwind_lookup_pc(&u->f[j])) &&
            check_called_function(sp, u, j, v))
            return -1;
        i = j + 1;
    }
    return 0;
}

/* The fallback: the pc rule and a conservative scan of the stack from `from` upwards. */
static void scan_stack(const struct safe_point_map *sp, const struct maps *m, const struct arch_regs *r,
                       uint64_t from, struct safe_point_verdict *v) {
    int waiting = is_waiting_syscall(arch_syscall_nr(r, sp->mem_fd));
    uint64_t pc = arch_pc(r);
    if (!waiting && range_find(&sp->fork_code, pc)) { refuse(v, "it is executing in fork"); return; }
    if (range_find(&sp->libc_text, pc) && !arch_in_syscall(r, sp->mem_fd)) {
        refuse(v, "it is executing inside libc (not in a system call)");
        return;
    }
    const struct map_entry *stack = maps_find(m, from);
    if (!stack) { refuse(v, "its stack pointer is outside any mapping"); return; }
    size_t len = (size_t)(stack->end - from);
    if (len > STACK_SCAN_BYTES) len = STACK_SCAN_BYTES;
    len &= ~(size_t)7;
    static uint64_t words[STACK_SCAN_BYTES / 8];
    if (mem_read(sp->mem_fd, from & ~(uint64_t)7, words, len) != 0) {
        refuse(v, "its stack is not readable");
        return;
    }
    for (size_t i = 0; i < len / 8; i++) {
        const struct addr_range *hit = range_find(&sp->lock_holders, words[i]);
        if (hit) { refuse(v, "a word on its stack points into %s", hit->what); return; }
        if (!waiting && (hit = range_find(&sp->fork_code, words[i]))) {
            refuse(v, "a word on its stack points into %s and it is not blocked in a waiting system call",
                   hit->what);
            return;
        }
    }
}

void safe_point_check(struct safe_point_map *sp, const struct maps *m, const struct arch_regs *r,
                      struct safe_point_verdict *v, struct unwind_result *u) {
    memset(v, 0, sizeof *v);
    v->safe = 1;
    v->pc = arch_pc(r);
    v->sp = arch_sp(r);
    unwind_thread(sp->unwinder, m, r, u);
    v->frames = u->n;
    v->method = u->complete ? SP_CALL_CHAIN : SP_CHAIN_THEN_SCAN;
    if (!u->complete) snprintf(v->fallback, sizeof v->fallback, "%s", u->why);
    /* The frame the walk could not get past is checked too (its pc is known), then the scan
     * starts at its stack pointer: its own slots and everything above are unknown. */
    if (check_frames(sp, u, v) || check_libc_entries(sp, u, v)) return;
    if (!u->complete) scan_stack(sp, m, r, u->n ? u->f[u->n - 1].sp : arch_sp(r), v);
}

void safe_point_describe_method(const struct safe_point_verdict *v, char *buf, size_t len) {
    if (v->method == SP_CALL_CHAIN)
        snprintf(buf, len, "its call chain of %d frame%s", v->frames, v->frames == 1 ? "" : "s");
    else
        snprintf(buf, len, "its call chain (%d frame%s), then a scan of the stack above, since %s",
                 v->frames, v->frames == 1 ? "" : "s", v->fallback);
}
