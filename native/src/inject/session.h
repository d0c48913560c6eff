/* One injection: find a safe thread in the target, make it start a loader thread, report. */
#ifndef VPROF_INJECT_SESSION_H
#define VPROF_INJECT_SESSION_H

#include "proc.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Addresses in the target of what the injection calls. */
struct target_symbols {
    uint64_t dlopen, dlerror, pthread_create, pthread_self, pthread_detach;
    uint64_t dlopen_mode;   /* RTLD_NOW, or RTLD_NOW|__RTLD_DLOPEN for __libc_dlopen_mode */
    uint64_t syscall_insn;  /* an existing system-call instruction in libc's text */
};

/* Resolves the symbols from the target's libc (glibc >= 2.34), or libdl/libpthread (older
 * glibc) when the target has them loaded. Returns 0, or an exit code with msg filled. */
int session_resolve(pid_t pid, const struct maps *m, int mem_fd, struct target_symbols *s,
                    char *msg, size_t len);

/* Whether lib (an absolute path) or a library with its file name is mapped in m; fills
 * where with the mapped path. */
int session_library_loaded(const struct maps *m, const char *lib, char *where, size_t len);

/* Loads lib into pid with dlopen(lib, RTLD_NOW) on a new thread. tid: borrow only this thread
 * (0: any). timeout_ms bounds the search for a safe point and, separately, the wait for the
 * loader's answer. Returns an exit code of inject.h with msg set (to the outcome for 0).
 * verbose: progress on stderr. */
int session_inject(pid_t pid, pid_t tid, const char *lib, int timeout_ms, int verbose, char *msg,
                   size_t len);

#endif
