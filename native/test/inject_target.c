/* Target and helper processes for the injection tests (inject_test.sh). One binary, modes:
 *   wait DIR              plain target: a thread blocked in read() (its tid in the name of
 *                         DIR/reader-tid-TID), main in a nanosleep loop until DIR/go; then
 *                         deterministic output and exit code 42
 *   busy DIR CHURNLIB     every thread busy in malloc/free or dlopen/dlclose until DIR/stop
 *   tree DIR LIBCUDA      forks two children that dlopen LIBCUDA; all wait for DIR/stop
 *   hang DIR HANGLIB      dlopens a library whose constructor never returns
 *   stale DIR             main waits in nanosleep under a frame that holds dead words pointing
 *                         into malloc and fork (what a forked worker keeps); then as `wait`
 *   signal DIR HANGLIB    as hang, and SIGUSR1 (sent by the test) runs a handler that blocks
 *                         on top of the loader's frames; touches DIR/in-handler
 *   memalign DIR          a thread calls aligned_alloc(64 MiB), which glibc tail-calls into its
 *                         internal code; that code holds the malloc arena lock while it mmaps,
 *                         and a seccomp user-notification filter holds the mmap (and so the
 *                         lock) until DIR/stop; touches DIR/alloc-tid-TID once it is held
 *   semwait DIR direct|pointer  a thread blocked in sem_clockwait (glibc tail-calls its slow
 *                         path), called directly or through a function pointer in a register;
 *                         its tid in DIR/sem-tid-TID
 *   nocfi DIR clean|stale a thread runs code without unwind tables (an anonymous executable
 *                         page, like JIT code) blocked in a system call, its tid in
 *                         DIR/nocfi-tid-TID; `stale`: its caller's frame holds a word into malloc
 *   nondumpable DIR       prctl(PR_SET_DUMPABLE, 0), then waits for DIR/stop
 *   trace PID DIR         ptrace-seizes PID (a stand-in for a debugger), waits to be killed
 *   noptrace CMD ARG...   runs CMD under a seccomp filter that fails ptrace with EPERM,
 *                         as Docker's default profile does
 *   as-user UID CMD ARG...runs CMD with uid and gid UID (needs root)
 * Every mode that other steps wait for touches DIR/ready when it is in position. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir;

static int exists(const char *name) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

static void touch(const char *name) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    if (nanosleep(&ts, NULL) != 0) printf("nanosleep interrupted: %s\n", strerror(errno));
}

static void wait_for(const char *name) {
    while (!exists(name)) sleep_ms(2);
}

/* ---- wait ---- */
static int pipefd[2];

static void *reader(void *arg) {
    (void)arg;
    char name[64];
    snprintf(name, sizeof name, "reader-tid-%ld", (long)syscall(SYS_gettid));
    touch(name);
    touch("reader-started");
    char c;
    ssize_t n = read(pipefd[0], &c, 1);
    if (n < 0) printf("read interrupted: %s\n", strerror(errno));
    else printf("plain target: reader saw %s\n", n == 0 ? "EOF" : "data");
    return NULL;
}

static int mode_wait(void) {
    pthread_t t;
    if (pipe(pipefd) != 0 || pthread_create(&t, NULL, reader, NULL) != 0) return 2;
    wait_for("reader-started");
    touch("ready");
    wait_for("go");
    close(pipefd[1]);
    pthread_join(t, NULL);
    unsigned long long sum = 0;
    for (unsigned i = 1; i <= 1000000; i++) sum += i;
    printf("plain target: sum=%llu\n", sum);
    return 42;
}

/* ---- stale ---- */

/* A live frame with dead return addresses in it, exactly what a conservative stack scan
 * mistakes for a held lock. The noinline callee does the waiting. */
__attribute__((noinline)) static int stale_frame_then_wait(void) {
    volatile uintptr_t dead[4];
    dead[0] = (uintptr_t)&malloc + 4;
    dead[1] = (uintptr_t)&fork + 4;
    dead[2] = dead[3] = 0;
    touch("ready");
    wait_for("go");
    return (int)(dead[2] + dead[3]);
}

static int mode_stale(void) {
    pthread_t t;
    if (pipe(pipefd) != 0 || pthread_create(&t, NULL, reader, NULL) != 0) return 2;
    wait_for("reader-started");
    int z = stale_frame_then_wait();
    close(pipefd[1]);
    pthread_join(t, NULL);
    printf("stale target: done %d\n", z);
    return 42;
}

/* ---- signal ---- */
static void blocking_handler(int sig) {
    (void)sig;
    touch("in-handler");
    for (;;) {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
}

/* ---- memalign ---- */
static atomic_int notify_fd = -1;

static void *held_allocation(void *arg) {
    (void)arg;
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof filter / sizeof *filter, filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return NULL;
    int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    if (fd < 0) { perror("seccomp user notification"); touch("no-user-notif"); return NULL; }
    notify_fd = fd; /* only this thread is filtered: the others may mmap freely */
    static void *volatile kept; /* volatile: the compiler may not drop the allocation */
    kept = aligned_alloc(4096, 64 << 20);
    free(kept);
    return NULL;
}

static int mode_memalign(void) {
    pthread_t t;
    if (pthread_create(&t, NULL, held_allocation, NULL) != 0) return 2;
    while (notify_fd < 0 && !exists("no-user-notif")) sleep_ms(1);
    if (notify_fd < 0) return 3;
    struct seccomp_notif req;
    memset(&req, 0, sizeof req);
    if (ioctl(notify_fd, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) { perror("NOTIF_RECV"); return 2; }
    char name[64];
    snprintf(name, sizeof name, "alloc-tid-%d", (int)req.pid);
    touch(name);
    touch("ready");
    wait_for("stop");
    /* Let this mmap and any later one go ahead until the thread has finished. */
    for (;;) {
        struct seccomp_notif_resp resp = {.id = req.id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
        ioctl(notify_fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
        struct pollfd pf = {.fd = notify_fd, .events = POLLIN};
        if (poll(&pf, 1, 100) <= 0 || (pf.revents & (POLLHUP | POLLERR))) break;
        memset(&req, 0, sizeof req);
        if (ioctl(notify_fd, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) break;
    }
    pthread_join(t, NULL);
    return 0;
}

/* ---- semwait ---- */
static sem_t never_posted;
static int (*volatile clockwait_through_pointer)(sem_t *, clockid_t, const struct timespec *) = sem_clockwait;

static void *sem_waiter(void *arg) {
    char name[64];
    snprintf(name, sizeof name, "sem-tid-%ld", (long)syscall(SYS_gettid));
    touch(name);
    struct timespec forever;
    clock_gettime(CLOCK_MONOTONIC, &forever);
    forever.tv_sec += 3600;
    if (arg) clockwait_through_pointer(&never_posted, CLOCK_MONOTONIC, &forever);
    else sem_clockwait(&never_posted, CLOCK_MONOTONIC, &forever);
    return NULL;
}

static int mode_semwait(const char *how) {
    sem_init(&never_posted, 0, 0);
    pthread_t t;
    if (pthread_create(&t, NULL, sem_waiter, strcmp(how, "pointer") == 0 ? (void *)1 : NULL) != 0) return 2;
    touch("ready");
    wait_for("stop");
    return 0;
}

/* ---- nocfi ---- */

/* Machine code with no unwind entry: block in a system call forever, then loop. */
#if defined(__x86_64__)
static const uint8_t nocfi_code[] = {
    0xb8, 0x22, 0x00, 0x00, 0x00, /* mov eax, SYS_pause */
    0x0f, 0x05,                   /* syscall */
    0xeb, 0xf7,                   /* jmp back to the mov */
};
#elif defined(__aarch64__)
static const uint32_t nocfi_code[] = {
    0xd2800000, 0xd2800001, 0xd2800002, 0xd2800003, /* x0-x3 = 0: ppoll(NULL, 0, NULL, NULL) */
    0xd2800928,                                       /* x8 = 73 (ppoll) */
    0xd4000001,                                       /* svc #0 */
    0x17fffffa,                                       /* b back to the first mov */
};
#endif

static int nocfi_stale;

__attribute__((noinline)) static void call_nocfi(void (*fn)(void)) {
    volatile uintptr_t dead[2] = {nocfi_stale ? (uintptr_t)&malloc + 4 : 0, 0};
    fn();
    (void)dead[1];
}

static void *nocfi_thread(void *arg) {
    char name[64];
    snprintf(name, sizeof name, "nocfi-tid-%ld", (long)syscall(SYS_gettid));
    touch(name);
    call_nocfi((void (*)(void))arg);
    return NULL;
}

static int mode_nocfi(const char *how) {
    nocfi_stale = strcmp(how, "stale") == 0;
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return 2;
    memcpy(page, nocfi_code, sizeof nocfi_code);
    __builtin___clear_cache((char *)page, (char *)page + sizeof nocfi_code);
    if (mprotect(page, 4096, PROT_READ | PROT_EXEC) != 0) return 2;
    pthread_t t;
    if (pthread_create(&t, NULL, nocfi_thread, page) != 0) return 2;
    touch("ready");
    wait_for("stop");
    return 0;
}

/* ---- busy ---- */
static atomic_int stop;
static atomic_int errors;
static const char *churn_lib;

static void alloc_round(unsigned *seed) {
    *seed ^= *seed << 13; *seed ^= *seed >> 17; *seed ^= *seed << 5;
    size_t n = 16 + *seed % 4000;
    volatile unsigned char *p = malloc(n);
    if (!p) { errors++; return; }
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(*seed + i);
    /* Two checksums of the same bytes, one kept in a vector register (double) and one in a
     * general register: an injection that failed to restore either kind shows as a mismatch. */
    double fsum = 0;
    unsigned long isum = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != (unsigned char)(*seed + i)) errors++;
        fsum += p[i];
        isum += p[i];
    }
    if (fsum != (double)isum) errors++;
    free((void *)p);
}

static void *alloc_worker(void *arg) {
    unsigned seed = (unsigned)(size_t)arg;
    while (!stop) alloc_round(&seed);
    return NULL;
}

static void *churn_worker(void *arg) {
    (void)arg;
    while (!stop) {
        void *h = dlopen(churn_lib, RTLD_NOW);
        if (!h || !dlsym(h, "inject_tiny_function")) { errors++; continue; }
        dlclose(h);
    }
    return NULL;
}

static int mode_busy(void) {
    /* Main and one worker allocate, one worker churns the loader: three busy threads are
     * enough variety while keeping a 2-core CI machine responsive. */
    pthread_t t[2];
    pthread_create(&t[0], NULL, alloc_worker, (void *)7u);
    pthread_create(&t[1], NULL, churn_worker, NULL);
    touch("ready");
    unsigned seed = 3, rounds = 0;
    while (!stop) {
        alloc_round(&seed);
        if (++rounds % 512 == 0 && exists("stop")) stop = 1;
    }
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    printf("busy target: %s\n", errors ? "CORRUPTION" : "integrity ok");
    return errors ? 1 : 0;
}

/* ---- tree ---- */
static int mode_tree(const char *libcuda) {
    pid_t kids[2];
    for (int i = 0; i < 2; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            if (!dlopen(libcuda, RTLD_NOW)) { fprintf(stderr, "%s\n", dlerror()); _exit(3); }
            char name[32];
            snprintf(name, sizeof name, "child%d-ready", i);
            touch(name);
            wait_for("stop");
            _exit(0);
        }
    }
    wait_for("child0-ready");
    wait_for("child1-ready");
    char path[4200];
    snprintf(path, sizeof path, "%s/children", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "%d\n%d\n", (int)kids[0], (int)kids[1]);
    fclose(f);
    touch("ready");
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        int st;
        waitpid(kids[i], &st, 0);
        bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    return bad;
}

/* ---- trace, noptrace, as-user ---- */
static int mode_trace(pid_t pid) {
    if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) != 0) { perror("PTRACE_SEIZE"); return 1; }
    touch("ready");
    for (;;) pause();
}

static int run_without_ptrace(char **argv) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof filter / sizeof *filter, filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) { perror("seccomp"); return 1; }
    execv(argv[0], argv);
    perror(argv[0]);
    return 1;
}

static int run_as(uid_t uid, char **argv) {
    if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0) { perror("setuid"); return 1; }
    execv(argv[0], argv);
    perror(argv[0]);
    return 1;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 3 && strcmp(argv[1], "noptrace") == 0) return run_without_ptrace(argv + 2);
    if (argc >= 4 && strcmp(argv[1], "as-user") == 0) return run_as((uid_t)atoi(argv[2]), argv + 3);
    if (argc < 3) { fprintf(stderr, "usage: see the comment at the top of inject_target.c\n"); return 2; }
    const char *mode = argv[1];
    dir = argv[2];
    if (strcmp(mode, "wait") == 0) return mode_wait();
    if (strcmp(mode, "busy") == 0 && argc == 4) { churn_lib = argv[3]; return mode_busy(); }
    if (strcmp(mode, "tree") == 0 && argc == 4) return mode_tree(argv[3]);
    if (strcmp(mode, "stale") == 0) return mode_stale();
    if (strcmp(mode, "nocfi") == 0 && argc == 4) return mode_nocfi(argv[3]);
    if (strcmp(mode, "memalign") == 0) return mode_memalign();
    if (strcmp(mode, "semwait") == 0 && argc == 4) return mode_semwait(argv[3]);
    if (strcmp(mode, "signal") == 0 && argc == 4) {
        signal(SIGUSR1, blocking_handler);
        setenv("INJECT_TEST_DIR", dir, 1);
        dlopen(argv[3], RTLD_NOW);
        return 1;
    }
    if (strcmp(mode, "hang") == 0 && argc == 4) {
        setenv("INJECT_TEST_DIR", dir, 1);
        dlopen(argv[3], RTLD_NOW);
        return 1;
    }
    if (strcmp(mode, "nondumpable") == 0) {
        prctl(PR_SET_DUMPABLE, 0);
        touch("ready");
        wait_for("stop");
        return 0;
    }
    if (strcmp(mode, "trace") == 0 && argc == 4) { dir = argv[3]; return mode_trace((pid_t)atoi(argv[2])); }
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
