/* vprof-inject: load a shared library into a running process that was started without it.
 *
 *   vprof-inject --pid PID --lib /abs/path/libX.so [--timeout-ms N] [--thread TID] [--verbose]
 *   vprof-inject --pid PID [--lib /abs/path/libX.so] --check
 *   vprof-inject --pid PID --list-cuda
 *   vprof-inject --pid PID --explain
 *
 * STRATEGY (quoted in the README)
 *
 * The danger of late injection is not ptrace itself but running the dynamic loader inside a
 * process at an arbitrary instant. dlopen takes the loader lock and allocates; pthread_create
 * takes the stack-cache lock, the loader's TLS lock and allocates. If the thread we borrow is
 * stopped while it holds one of those locks and we make it call into the loader or the
 * allocator, it waits for itself forever (or re-enters a half-updated link map through a
 * recursive lock). So:
 *
 * 1. Never run the loader on a borrowed thread. The borrowed thread only calls
 *    pthread_create; a NEW thread, created by the injection, runs dlopen(path, RTLD_NOW). That
 *    thread holds nothing when it starts, so it simply waits its turn for any lock another
 *    thread holds, like any thread of the program; no thread of the program is kept stopped
 *    while it loads, so whoever holds the lock gets to release it.
 * 2. Borrow a thread only at a safe point, where it cannot hold a lock pthread_create needs,
 *    decided from its real call chain: the stopped thread is unwound with the target's own
 *    unwind tables (.eh_frame_hdr/.eh_frame read through /proc/PID/mem, unwind.c), and no frame
 *    may be in ld.so, a replacement allocator, or a lock-taking libc function (allocator, dl*,
 *    pthread_create/join/exit, fork, exit, set*id); each stretch of libc frames must have been
 *    entered through an exported function that takes no such lock (a tail call out of it is
 *    followed through the caller's call instruction and the PLT). Symbol ranges come from the
 *    target's own libc file. Only where the walk stops early (code without unwind tables) is
 *    the rest of the stack scanned word by word, and the verdict says which decided
 *    (safe_point.c). Threads blocked in a system call are tried first. A thread that is not
 *    safe is released at once and the threads are tried again 2 ms later, until --timeout-ms:
 *    exit 10 (or 11 when no thread moved), nothing changed.
 * 3. Stop only that thread: PTRACE_SEIZE + PTRACE_INTERRUPT (no SIGSTOP is sent, no
 *    group-stop, the rest of the process keeps running). Scratch memory is made with bare
 *    system calls (mmap, mprotect, later munmap) executed by single-stepping a syscall
 *    instruction that already exists in libc: no code of the target is overwritten, so other
 *    threads running the same code are unaffected. The only call is pthread_create, with the
 *    ABI's stack alignment, below the 128-byte red zone, DF clear, returning to a trap
 *    instruction in our own scratch page.
 * 4. Give the thread back exactly: every general register (pc, sp, flags, fs base, orig_rax),
 *    the whole XSAVE area (SSE/AVX/AVX-512 registers pthread_create may clobber) and the stack
 *    slot we wrote the return address into. If it was stopped inside a system call, orig_rax
 *    and rax (-ERESTARTSYS, -ERESTART_RESTARTBLOCK...) are restored as they were, so on resume
 *    the kernel restarts the call just as after a signal without handler; while our own steps
 *    run, orig_rax is -1 so the kernel cannot rewind them. A call that would return EINTR to
 *    a stop signal (epoll_wait, for instance) does so here too. Signals that arrive meanwhile
 *    are delivered on release (the first through PTRACE_DETACH with its siginfo); a fault in
 *    our call is suppressed and the thread restored rather than letting the target die.
 * 5. Every path ends in one cleanup that restores and detaches whatever is attached; SIGINT,
 *    SIGTERM, SIGHUP are held during the injection so that an interrupted vprof cannot leave
 *    a thread running our call with no tracer. SIGKILL of the injector cannot be held: the
 *    kernel detaches, and a thread inside our call would then hit the trap (documented risk).
 * 6. The new thread detaches itself, records its tid, calls dlopen and, on failure, copies
 *    dlerror()'s text into the scratch page, then sets done. We wait (bounded) for done, wait
 *    for the thread to exit, and unmap the scratch pages by a bare munmap on any thread.
 *    pthread_create itself cannot be abandoned once started; from a safe point it only waits
 *    for locks that running threads hold, so it returns.
 * 7. Never twice: a library already mapped (same file, same path, or same file name) is
 *    reported (exit 8) and not loaded again.
 *
 * Exit codes: 0 injected, 1 other, 2 usage, 3 no such process, 4 permission denied,
 * 5 Yama ptrace_scope, 6 ptrace forbidden by seccomp/container, 7 already traced,
 * 8 already loaded, 9 dlopen failed in the target, 10 no safe point in time, 11 no safe point
 * and no thread moved meanwhile.
 */
#include "access.h"
#include "elf_symbols.h"
#include "explain.h"
#include "inject.h"
#include "proc.h"
#include "session.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_MS 5000

void inject_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("vprof-inject: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

long long inject_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void inject_sleep_us(long us) {
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static void usage(FILE *out) {
    fputs("usage: vprof-inject --pid PID --lib /abs/path/lib.so [--timeout-ms N] [--thread TID] [--verbose]\n"
          "       vprof-inject --pid PID [--lib /abs/path/lib.so] --check\n"
          "       vprof-inject --pid PID --list-cuda\n"
          "       vprof-inject --pid PID --explain\n"
          "Loads lib into the running process PID with dlopen(lib, RTLD_NOW), through ptrace,\n"
          "on a thread the injection creates. --check only says whether that is possible here.\n"
          "--list-cuda prints the pids in PID's process tree that have libcuda mapped\n"
          "(or /memfd:simcuda-context, the CUPTI test double's stand-in for it).\n"
          "--explain stops each thread of PID in turn, prints whether it is at a safe point, what\n"
          "decided (its call chain, or a scan of its stack where the chain could not be unwound)\n"
          "and the chain itself; nothing is injected.\n"
          "--thread borrows only that thread of PID (tests, debugging); default: any safe one.\n"
          "Exit 10: no thread was at a safe point within --timeout-ms (default 5000); exit 11:\n"
          "the same, and no thread moved meanwhile (stuck: waiting longer will not help).\n",
          out);
}

static int fail(int code, const char *msg) {
    inject_error("%s", msg);
    return code;
}

/* The mapping that marks a process of the CUPTI test double's simulated GPU (vprof-simgpu)
 * as one that initialized "CUDA": it maps no libcuda, only this memfd (cuptisim_driver.c).
 * Recognised so that the CI tests can exercise `vprof attach --inject` without a GPU. */
#define SIMCUDA_STAND_IN "memfd:simcuda-context"

/* Prints PID and its descendants that have libcuda (or the test double's stand-in for it)
 * mapped, one pid per line. */
static int list_cuda(pid_t pid) {
    static pid_t tree[65536];
    int n = proc_tree(pid, tree, 65536);
    for (int i = 0; i < n; i++) {
        struct maps m;
        int rc = maps_read(tree[i], &m);
        if (rc) {
            if (rc != -ENOENT && rc != -ESRCH)
                inject_error("cannot read the maps of process %d: %s", (int)tree[i], strerror(-rc));
            continue;
        }
        if (maps_find_library(&m, "libcuda.so") || maps_find_library(&m, SIMCUDA_STAND_IN))
            printf("%d\n", (int)tree[i]);
        maps_free(&m);
    }
    return EXIT_INJECTED;
}

/* The target must be a 64-bit process of our own architecture. */
static int check_target_arch(pid_t pid, char *msg, size_t len) {
    char exe[64];
    snprintf(exe, sizeof exe, "/proc/%d/exe", (int)pid);
    int cls = 0;
    uint16_t machine = 0, ours = 0;
    int rc = elf_probe(exe, &cls, &machine);
    if (rc == -EACCES || rc == -EPERM) return -1; /* decided by the permission checks */
    if (rc) return 0;                             /* e.g. a deleted executable: let it be tried */
    int my_cls;
    elf_probe("/proc/self/exe", &my_cls, &ours);
    if (cls != ELFCLASS64 || machine != ours) {
        snprintf(msg, len, "process %d is not a 64-bit process of this architecture; "
                 "use a vprof-inject built for it", (int)pid);
        return EXIT_OTHER;
    }
    return 0;
}

int main(int argc, char **argv) {
    static const struct option opts[] = {
        {"pid", required_argument, 0, 'p'},     {"lib", required_argument, 0, 'l'},
        {"timeout-ms", required_argument, 0, 't'}, {"check", no_argument, 0, 'c'},
        {"list-cuda", no_argument, 0, 'u'},     {"verbose", no_argument, 0, 'v'},
        {"thread", required_argument, 0, 'T'},  {"help", no_argument, 0, 'h'},
        {"explain", no_argument, 0, 'x'},
        {0, 0, 0, 0}};
    long pid = 0, tid = 0, timeout_ms = DEFAULT_TIMEOUT_MS;
    const char *lib = NULL;
    int check = 0, cuda = 0, verbose = 0, explain = 0, c;
    char *end;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'p': pid = strtol(optarg, &end, 10); if (*end || pid <= 0 || pid > INT_MAX) pid = -1; break;
        case 'l': lib = optarg; break;
        case 'T': tid = strtol(optarg, &end, 10); if (*end || tid <= 0 || tid > INT_MAX) tid = -1; break;
        case 't': timeout_ms = strtol(optarg, &end, 10); if (*end || timeout_ms <= 0 || timeout_ms > 3600000) timeout_ms = -1; break;
        case 'c': check = 1; break;
        case 'u': cuda = 1; break;
        case 'v': verbose = 1; break;
        case 'x': explain = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return EXIT_USAGE;
        }
    }
    if (pid == 0 || optind != argc || (!check && !cuda && !explain && !lib)) { usage(stderr); return EXIT_USAGE; }
    if (pid < 0) return fail(EXIT_USAGE, "--pid needs a positive process id");
    if (tid < 0) return fail(EXIT_USAGE, "--thread needs a positive thread id");
    if (timeout_ms < 0) return fail(EXIT_USAGE, "--timeout-ms needs a positive number of milliseconds");
    if (lib && lib[0] != '/') return fail(EXIT_USAGE, "--lib needs an absolute path (the target resolves it, not us)");

    char msg[PATH_MAX * 2 + 1024], where[PATH_MAX];
    int code;
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%ld", pid);
    if (access(dir, F_OK) != 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH)) {
        snprintf(msg, sizeof msg, "no such process %ld; check the pid (ps -p %ld)", pid, pid);
        return fail(EXIT_NO_PROCESS, msg);
    }
    if (cuda) return list_cuda((pid_t)pid);
    if (explain) {
        code = explain_threads((pid_t)pid, msg, sizeof msg);
        return code ? fail(code, msg) : 0;
    }
    if (lib && access(lib, R_OK) != 0) {
        snprintf(msg, sizeof msg, "cannot read %s: %s", lib, strerror(errno));
        return fail(EXIT_OTHER, msg);
    }

    struct access_facts facts;
    code = check_target_arch((pid_t)pid, msg, sizeof msg);
    if (code > 0) return fail(code, msg);
    struct maps m;
    int rc = maps_read((pid_t)pid, &m);
    if (rc == -ENOENT || rc == -ESRCH) {
        snprintf(msg, sizeof msg, "no such process %ld (or it has exited)", pid);
        return fail(EXIT_NO_PROCESS, msg);
    }
    if (rc) { /* not even allowed to read its maps */
        access_gather((pid_t)pid, 1, &facts);
        code = access_verdict(&facts, 1, msg, sizeof msg);
        return fail(code ? code : EXIT_PERMISSION, msg);
    }
    int loaded = lib && session_library_loaded(&m, lib, where, sizeof where);
    if (check && !loaded) {
        /* Possible only where the target's libc offers what the injection calls. */
        char mem[64];
        snprintf(mem, sizeof mem, "/proc/%ld/mem", pid);
        int mem_fd = open(mem, O_RDONLY | O_CLOEXEC);
        struct target_symbols syms;
        code = mem_fd < 0 ? 0 : session_resolve((pid_t)pid, &m, mem_fd, &syms, msg, sizeof msg);
        if (mem_fd >= 0) close(mem_fd);
        if (code) { maps_free(&m); return fail(code, msg); }
    }
    maps_free(&m);
    if (loaded) {
        snprintf(msg, sizeof msg, "already loaded: process %ld already has %s mapped; attach to "
                 "it instead of injecting again", pid, where);
        return fail(EXIT_ALREADY_LOADED, msg);
    }
    access_gather((pid_t)pid, check, &facts);
    if (facts.tracer) return fail(access_verdict(&facts, 0, msg, sizeof msg), msg);
    if (check) {
        code = access_verdict(&facts, 0, msg, sizeof msg);
        if (code) return fail(code, msg);
        printf("injection into %ld is possible: %s\n", pid, msg);
        return 0;
    }
    if (tid) {
        char task[96];
        snprintf(task, sizeof task, "/proc/%ld/task/%ld", pid, tid);
        if (access(task, F_OK) != 0) {
            snprintf(msg, sizeof msg, "process %ld has no thread %ld", pid, tid);
            return fail(EXIT_NO_PROCESS, msg);
        }
    }
    code = session_inject((pid_t)pid, (pid_t)tid, lib, (int)timeout_ms, verbose, msg, sizeof msg);
    if (code) return fail(code, msg);
    printf("%s\n", msg);
    return 0;
}
