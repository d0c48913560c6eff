/* May this process ptrace the target? The facts, and the verdict with its remedy. */
#ifndef VPROF_INJECT_ACCESS_H
#define VPROF_INJECT_ACCESS_H

#include <stddef.h>
#include <sys/types.h>

struct access_facts {
    pid_t pid;
    int yama_scope;          /* /proc/sys/kernel/yama/ptrace_scope, -1 without Yama */
    int cap_sys_ptrace;      /* CAP_SYS_PTRACE in our effective set */
    int same_ids;            /* our uid/gid equal the target's real, effective and saved ids */
    int target_dumpable;     /* 0 when the target made itself non-dumpable (or is setuid) */
    int is_descendant;       /* the target descends from us (Yama scope 1 allows that) */
    int ptrace_works;        /* ptrace on a child of our own succeeds (-1: not probed) */
    int seccomp_mode;        /* our "Seccomp:" status: 0 none, 1 strict, 2 filter */
    pid_t tracer;            /* TracerPid of any thread of the target, 0 if none */
};

/* Gathers the facts about pid. probe: also fork a child and try ptrace on it, which tells
 * a seccomp/container ban apart from a refusal about this particular target. */
void access_gather(pid_t pid, int probe, struct access_facts *f);

/* The exit code (inject.h) predicted from the facts, and a sentence with the remedy in msg
 * (or, for 0, why it is allowed). after_eperm: PTRACE_SEIZE already failed with EPERM, so a
 * refusal is certain and the most likely cause is named. Without it, Yama scope 1 on a
 * non-descendant is predicted as a refusal (a target rarely names us with PR_SET_PTRACER). */
int access_verdict(const struct access_facts *f, int after_eperm, char *msg, size_t len);

#endif
