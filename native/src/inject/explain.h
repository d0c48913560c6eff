/* vprof-inject --explain: what the injector sees in each thread of a process, without
 * injecting anything. */
#ifndef VPROF_INJECT_EXPLAIN_H
#define VPROF_INJECT_EXPLAIN_H

#include <stddef.h>
#include <sys/types.h>

/* Stops each thread of pid in turn (for well under a millisecond each), prints on stdout
 * whether it is at a safe point, which evidence decided, and its call chain with symbol
 * names, then lets it go unchanged. Returns 0, or an exit code of inject.h with msg set. */
int explain_threads(pid_t pid, char *msg, size_t len);

#endif
