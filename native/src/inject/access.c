/* May this process ptrace the target? The kernel's order of checks (ptrace_may_access):
 * same user (uid and gid: real, effective, saved) or CAP_SYS_PTRACE; a non-dumpable target
 * needs CAP_SYS_PTRACE; then Yama (scope 1: only descendants, or a tracer the target named
 * with PR_SET_PTRACER, or CAP_SYS_PTRACE; 2: CAP_SYS_PTRACE only; 3: nobody). Apart from
 * those, a seccomp filter (Docker's default profile) or an LSM can forbid ptrace outright;
 * that shows as ptrace failing even on our own child. */
#include "access.h"
#include "inject.h"
#include "proc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CAP_SYS_PTRACE_BIT 19

static int read_int_file(const char *path, int fallback) {
    FILE *f = fopen(path, "re");
    if (!f) return fallback;
    int v = fallback;
    if (fscanf(f, "%d", &v) != 1) v = fallback;
    fclose(f);
    return v;
}

static int have_cap_sys_ptrace(void) {
    FILE *f = fopen("/proc/self/status", "re");
    if (!f) return 0;
    char line[256];
    unsigned long long caps = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &caps) == 1) break;
    fclose(f);
    return (caps >> CAP_SYS_PTRACE_BIT) & 1;
}

/* Forks a child that waits, and tries to seize it. Our own child passes the uid, dumpable
 * and Yama scope 0/1 rules, so (below scope 2) a failure means ptrace itself is banned. */
static int probe_ptrace(void) {
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        pause();
        _exit(0);
    }
    int ok = ptrace(PTRACE_SEIZE, child, NULL, NULL) == 0;
    kill(child, SIGKILL);
    waitpid(child, NULL, __WALL);
    return ok;
}

static int descends_from_us(pid_t pid) {
    pid_t self = getpid();
    for (int depth = 0; pid > 1 && depth < 256; depth++) {
        pid = proc_parent(pid);
        if (pid == self) return 1;
    }
    return 0;
}

void access_gather(pid_t pid, int probe, struct access_facts *f) {
    memset(f, 0, sizeof *f);
    f->pid = pid;
    f->yama_scope = read_int_file("/proc/sys/kernel/yama/ptrace_scope", -1);
    f->cap_sys_ptrace = have_cap_sys_ptrace();
    long long uids[4] = {0}, gids[4] = {0}, seccomp = 0;
    int nu = proc_status_field(pid, 0, "Uid:", uids, 4);
    int ng = proc_status_field(pid, 0, "Gid:", gids, 4);
    uid_t me = getuid();
    gid_t my_gid = getgid();
    f->same_ids = nu >= 3 && ng >= 3 && uids[0] == me && uids[1] == me && uids[2] == me &&
                  gids[0] == my_gid && gids[1] == my_gid && gids[2] == my_gid;
    /* The files in /proc/PID are owned by root instead of the process's euid when it is not
     * dumpable (the directory itself keeps the euid on recent kernels). */
    char file[64];
    struct stat st;
    snprintf(file, sizeof file, "/proc/%d/status", (int)pid);
    f->target_dumpable = !(stat(file, &st) == 0 && nu >= 2 && st.st_uid == 0 && uids[1] != 0);
    f->is_descendant = descends_from_us(pid);
    if (proc_status_field(getpid(), 0, "Seccomp:", &seccomp, 1) == 1) f->seccomp_mode = (int)seccomp;
    f->ptrace_works = probe ? probe_ptrace() : -1;
    pid_t tids[4096];
    int n = proc_list_threads(pid, tids, 4096);
    for (int i = 0; i < n && !f->tracer; i++) {
        long long tracer = 0;
        if (proc_status_field(pid, tids[i], "TracerPid:", &tracer, 1) == 1 && tracer != getpid())
            f->tracer = (pid_t)tracer;
    }
}

int access_verdict(const struct access_facts *f, int after_eperm, char *msg, size_t len) {
    if (f->tracer) {
        snprintf(msg, len, "process %d is already traced by process %d (a debugger or tracer); "
                 "detach it first (only one tracer is allowed)", (int)f->pid, (int)f->tracer);
        return EXIT_ALREADY_TRACED;
    }
    if (f->ptrace_works == 0 && (f->yama_scope < 2 || f->cap_sys_ptrace)) {
        snprintf(msg, len, "ptrace is forbidden in this environment%s; in a container run it with "
                 "--cap-add=SYS_PTRACE (or a seccomp profile that allows ptrace)",
                 f->seccomp_mode == 2 ? " (a seccomp filter is active)" : "");
        return EXIT_SECCOMP;
    }
    if (!f->cap_sys_ptrace && !f->same_ids) {
        snprintf(msg, len, "permission denied: process %d belongs to another user; run vprof as "
                 "that user, or with CAP_SYS_PTRACE (e.g. sudo)", (int)f->pid);
        return EXIT_PERMISSION;
    }
    if (!f->cap_sys_ptrace && !f->target_dumpable) {
        snprintf(msg, len, "permission denied: process %d made itself non-dumpable "
                 "(prctl PR_SET_DUMPABLE 0, or it changed credentials); only CAP_SYS_PTRACE "
                 "(e.g. sudo) can trace it", (int)f->pid);
        return EXIT_PERMISSION;
    }
    static const char yama_fix[] = "run `echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope`, "
                                   "or run vprof as the same user with CAP_SYS_PTRACE";
    if (f->yama_scope >= 3) {
        snprintf(msg, len, "Yama ptrace_scope is 3: ptrace attach is disabled until reboot; "
                 "no injection is possible on this host");
        return EXIT_YAMA;
    }
    if (f->yama_scope == 2 && !f->cap_sys_ptrace) {
        snprintf(msg, len, "Yama ptrace_scope is 2 (admin only): %s", yama_fix);
        return EXIT_YAMA;
    }
    if (f->yama_scope == 1 && !f->cap_sys_ptrace && !f->is_descendant) {
        snprintf(msg, len, "Yama ptrace_scope is 1: only a parent may trace process %d%s; %s",
                 (int)f->pid, after_eperm ? "" : " (unless it allowed us with PR_SET_PTRACER)",
                 yama_fix);
        return EXIT_YAMA;
    }
    if (after_eperm) {
        snprintf(msg, len, "permission denied by the kernel for process %d (an LSM such as "
                 "SELinux/AppArmor?); run vprof with CAP_SYS_PTRACE as the same user", (int)f->pid);
        return EXIT_PERMISSION;
    }
    snprintf(msg, len, "ptrace allowed (%s%s)", f->cap_sys_ptrace ? "CAP_SYS_PTRACE" : "same user",
                 f->yama_scope < 0 ? ", no Yama" : "");
    return 0;
}
