/* Reading /proc/PID: memory maps, threads, status fields and the process tree. */
#ifndef VPROF_INJECT_PROC_H
#define VPROF_INJECT_PROC_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct map_entry {
    uint64_t start, end, offset, inode;
    unsigned dev_major, dev_minor;
    char perms[5];
    char path[PATH_MAX]; /* empty for anonymous mappings */
};

struct maps {
    struct map_entry *v;
    size_t n;
};

/* Reads /proc/PID/maps. Returns 0 or -errno (ENOENT: no such process, EACCES: not allowed). */
int maps_read(pid_t pid, struct maps *out);
void maps_free(struct maps *m);

/* The mapping that contains addr, or NULL. */
const struct map_entry *maps_find(const struct maps *m, uint64_t addr);

/* The lowest mapping of the first file whose base name starts with prefix (e.g. "libc.so."),
 * or NULL. The lowest mapping is the one the load bias is computed from. */
const struct map_entry *maps_find_library(const struct maps *m, const char *prefix);

/* Base name of a path (the part after the last '/'). */
const char *path_basename(const char *path);

/* Fills tids (up to cap) with the threads of pid; returns the count or -errno. */
int proc_list_threads(pid_t pid, pid_t *tids, int cap);

/* Reads a numeric field ("TracerPid:", "Uid:" ...) of /proc/PID[/task/TID]/status.
 * For multi-value fields (Uid, Gid) up to 4 values are stored. Returns the number of values
 * read, or -errno. tid 0 means the process itself. */
int proc_status_field(pid_t pid, pid_t tid, const char *field, long long *vals, int cap);

/* Scheduler state letter of /proc/PID/task/TID/stat ('R', 'S', 'D', 'T', 't', 'Z'...), or 0. */
char proc_thread_state(pid_t pid, pid_t tid);

/* The thread's name (/proc/PID/task/TID/comm) into buf; "?" when unreadable. */
void proc_thread_name(pid_t pid, pid_t tid, char *buf, size_t len);

/* Parent pid from /proc/PID/stat, or -1. */
pid_t proc_parent(pid_t pid);

/* Fills out (up to cap) with pid and all its descendants, pid first; returns the count. */
int proc_tree(pid_t pid, pid_t *out, int cap);

#endif
