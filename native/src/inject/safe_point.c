/* Deciding whether a stopped thread is at a point where it may call pthread_create.
 *
 * pthread_create takes the stack-cache lock, allocates (malloc: the thread's arena lock) and
 * sets up static TLS under the loader's TLS lock. A thread that already holds one of those
 * locks would deadlock on a non-recursive one, or re-enter the loader's half-updated tables
 * through a recursive one. A thread holds such a lock only while it is inside the code that
 * took it, so it is safe when neither its program counter nor any return address on its
 * stack lies in that code. We test:
 *   1. pc not in ld.so (nor in a replacement allocator: jemalloc, tcmalloc, mimalloc), and not
 *      in libc/libdl/libpthread unless the thread sits in a system call (libc's internal
 *      helpers such as _int_malloc have no exported symbol, so libc code counts as unsafe
 *      while the thread executes it, but a syscall wrapper holds nothing);
 *   2. no word of the live stack (sp upwards, up to 256 KiB) points into that code or into a
 *      lock-taking libc function (allocator, dl*, pthread_create/join/exit, fork, exit...).
 *      Covers a thread blocked in a futex inside malloc, a thread running a library
 *      constructor inside dlopen, and a signal handler that interrupted malloc (the
 *      interrupted pc is saved on the stack). Stale words (a dead return address left in an
 *      uninitialised slot of a live frame) can only make us wait longer: a process whose
 *      every thread keeps such a word is refused with exit 10, never injected unsafely.
 *   3. One exception to 2, for fork: a process forked without exec (a worker of a
 *      multiprocessing server, vprof-simgpu's workers) keeps a dead return address into fork
 *      in the frame that called fork, for its whole life, which would refuse every such
 *      worker. fork holds pthread_create's locks (malloc arenas, stdio list, stack cache)
 *      only between taking them and _Fork's return, and in that window the thread only waits
 *      on those locks (futex) and clones; the atfork handlers it runs outside that window
 *      hold only the atfork lock, which pthread_create does not take. So a fork word on the
 *      stack of a thread blocked in a sleeping or waiting system call (nanosleep, poll,
 *      epoll_wait, read, wait4...) is not a held lock, and is ignored there; anywhere else
 *      (running, in futex, in clone) it still makes the thread unsafe. */
#include "safe_point.h"
#include "elf_symbols.h"
#include "hijack.h"

#include <errno.h>
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
    "dl_iterate_phdr", "__tls_get_addr",
    /* threads, fork, exit: stack cache, TLS and at-fork locks */
    "pthread_create", "pthread_join", "pthread_exit", "pthread_detach", "pthread_atfork",
    "__pthread_create_2_1", "allocate_stack",
    "exit", "_exit", "quick_exit", "__run_exit_handlers", "__cxa_finalize", "__cxa_thread_atexit_impl",
    "__libc_thread_freeres", "__call_tls_dtors",
};

/* Families matched by prefix (internal helpers that appear in .symtab when it is present). */
static const char *const lock_holder_prefixes[] = {
    "_int_", "__malloc", "tcache", "arena_", "mallinfo", "__libc_dl", "_dl_", "__dl", "__nptl_",
    "pthread_tryjoin", "pthread_timedjoin", "pthread_clockjoin", "__pthread_exit", "__pthread_join",
};

/* fork and its aliases: lock holders too, but see 3. above. */
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

static int range_add(struct range_set *s, uint64_t lo, uint64_t hi, const char *what) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct addr_range *v = realloc(s->v, cap * sizeof *v);
        if (!v) return -ENOMEM;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = (struct addr_range){lo, hi, what};
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
    struct range_set *set;
    struct range_set *fork_set;
    uint64_t bias;
    int err;
};

static void collect(void *vctx, const char *name, uint64_t value, uint64_t size) {
    struct collect_ctx *c = vctx;
    if (!safe_point_name_holds_locks(name)) return;
    struct range_set *set = is_fork_name(name) ? c->fork_set : c->set;
    if (range_add(set, c->bias + value, c->bias + value + (size ? size : 1), "libc lock holder"))
        c->err = -ENOMEM;
}

int safe_point_map_build(pid_t pid, const struct maps *m, struct safe_point_map *out) {
    memset(out, 0, sizeof *out);
    const char *done[8];
    int ndone = 0;
    for (size_t i = 0; i < m->n; i++) {
        const struct map_entry *e = &m->v[i];
        if (e->path[0] != '/') continue;
        const char *base = path_basename(e->path);
        if ((is_loader(base) || is_allocator(base)) && e->perms[2] == 'x') {
            if (range_add(&out->lock_holders, e->start, e->end, base)) return -ENOMEM;
            continue;
        }
        if (!is_libc_family(base)) continue;
        if (e->perms[2] == 'x' && range_add(&out->libc_text, e->start, e->end, base)) return -ENOMEM;
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
        struct collect_ctx c = {&out->lock_holders, &out->fork_code, elf_load_bias(&img, lowest->start, lowest->offset), 0};
        elf_for_each_function(&img, collect, &c);
        elf_close(&img);
        if (c.err) return c.err;
    }
    range_sort(&out->lock_holders);
    range_sort(&out->libc_text);
    range_sort(&out->fork_code);
    return 0;
}

void safe_point_map_free(struct safe_point_map *sp) {
    free(sp->lock_holders.v);
    free(sp->libc_text.v);
    free(sp->fork_code.v);
    memset(sp, 0, sizeof *sp);
}

const char *safe_point_check(const struct safe_point_map *sp, const struct maps *m, int mem_fd,
                             const struct arch_regs *r) {
    uint64_t pc = arch_pc(r);
    const struct addr_range *hit = range_find(&sp->lock_holders, pc);
    if (hit) return "executing in the dynamic loader or a lock-taking libc function";
    int waiting = is_waiting_syscall(arch_syscall_nr(r, mem_fd));
    if (!waiting && range_find(&sp->fork_code, pc)) return "executing in fork";
    if (range_find(&sp->libc_text, pc) && !arch_in_syscall(r, mem_fd))
        return "executing inside libc (not in a system call)";

    uint64_t sp_addr = arch_sp(r);
    const struct map_entry *stack = maps_find(m, sp_addr);
    if (!stack) return "stack pointer outside any mapping";
    size_t len = (size_t)(stack->end - sp_addr);
    if (len > STACK_SCAN_BYTES) len = STACK_SCAN_BYTES;
    len &= ~(size_t)7;
    static uint64_t words[STACK_SCAN_BYTES / 8];
    if (mem_read(mem_fd, sp_addr & ~(uint64_t)7, words, len) != 0) return "stack not readable";
    for (size_t i = 0; i < len / 8; i++)
        if (range_find(&sp->lock_holders, words[i]))
            return "a loader/allocator/thread function is on its stack";
        else if (!waiting && range_find(&sp->fork_code, words[i]))
            return "fork is on its stack and it is not blocked in a waiting system call";
    return NULL;
}
