/* Reading /proc/PID: memory maps, threads, status fields and the process tree. */
#include "proc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int maps_read(pid_t pid, struct maps *out) {
    char name[64];
    snprintf(name, sizeof name, "/proc/%d/maps", (int)pid);
    out->v = NULL;
    out->n = 0;
    FILE *f = fopen(name, "re");
    if (!f) return -errno;
    size_t cap = 0;
    char line[PATH_MAX + 256];
    while (fgets(line, sizeof line, f)) {
        if (out->n == cap) {
            cap = cap ? cap * 2 : 256;
            struct map_entry *v = realloc(out->v, cap * sizeof *v);
            if (!v) { fclose(f); maps_free(out); return -ENOMEM; }
            out->v = v;
        }
        struct map_entry *e = &out->v[out->n];
        int path_at = 0;
        unsigned long long start, end, offset, inode;
        if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, e->perms, &offset,
                   &e->dev_major, &e->dev_minor, &inode, &path_at) < 7)
            continue;
        e->start = start; e->end = end; e->offset = offset; e->inode = inode;
        char *p = line + path_at;
        p[strcspn(p, "\n")] = 0;
        snprintf(e->path, sizeof e->path, "%s", p);
        out->n++;
    }
    /* A read error (EACCES for a process we may not inspect) shows up on the first read. */
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) { maps_free(out); return -err; }
    if (out->n == 0) return -ESRCH; /* a zombie or kernel thread has no maps */
    return 0;
}

void maps_free(struct maps *m) {
    free(m->v);
    m->v = NULL;
    m->n = 0;
}

const struct map_entry *maps_find(const struct maps *m, uint64_t addr) {
    for (size_t i = 0; i < m->n; i++)
        if (addr >= m->v[i].start && addr < m->v[i].end) return &m->v[i];
    return NULL;
}

const char *path_basename(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const struct map_entry *maps_find_library(const struct maps *m, const char *prefix) {
    const struct map_entry *best = NULL;
    for (size_t i = 0; i < m->n; i++) {
        const struct map_entry *e = &m->v[i];
        if (e->path[0] != '/') continue;
        if (strncmp(path_basename(e->path), prefix, strlen(prefix)) != 0) continue;
        if (best && strcmp(best->path, e->path) != 0) continue; /* first file that matches */
        if (!best || e->start < best->start) best = e;
    }
    return best;
}

int proc_list_threads(pid_t pid, pid_t *tids, int cap) {
    char name[64];
    snprintf(name, sizeof name, "/proc/%d/task", (int)pid);
    DIR *d = opendir(name);
    if (!d) return -errno;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < cap) {
        if (!isdigit((unsigned char)de->d_name[0])) continue;
        tids[n++] = (pid_t)atoi(de->d_name);
    }
    closedir(d);
    return n;
}

int proc_status_field(pid_t pid, pid_t tid, const char *field, long long *vals, int cap) {
    char name[96];
    if (tid) snprintf(name, sizeof name, "/proc/%d/task/%d/status", (int)pid, (int)tid);
    else snprintf(name, sizeof name, "/proc/%d/status", (int)pid);
    FILE *f = fopen(name, "re");
    if (!f) return -errno;
    char line[512];
    int n = -ENOENT;
    size_t flen = strlen(field);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, field, flen) != 0) continue;
        char *p = line + flen;
        n = 0;
        while (n < cap) {
            char *endp;
            long long v = strtoll(p, &endp, 10);
            if (endp == p) break;
            vals[n++] = v;
            p = endp;
        }
        break;
    }
    fclose(f);
    return n;
}

/* Reads /proc/PATH/stat and returns the text after the command name's closing parenthesis. */
static int read_stat_tail(const char *name, char *buf, size_t len, char **tail) {
    FILE *f = fopen(name, "re");
    if (!f) return -errno;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = 0;
    char *close = strrchr(buf, ')'); /* the command name may itself hold ')' */
    if (!close || close[1] != ' ') return -EINVAL;
    *tail = close + 2;
    return 0;
}

char proc_thread_state(pid_t pid, pid_t tid) {
    char name[96], buf[1024], *tail;
    snprintf(name, sizeof name, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    if (read_stat_tail(name, buf, sizeof buf, &tail) != 0) return 0;
    return tail[0];
}

void proc_thread_name(pid_t pid, pid_t tid, char *buf, size_t len) {
    char name[96];
    snprintf(name, sizeof name, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
    snprintf(buf, len, "?");
    FILE *f = fopen(name, "re");
    if (!f) return;
    if (fgets(buf, (int)len, f)) buf[strcspn(buf, "\n")] = 0;
    fclose(f);
}

pid_t proc_parent(pid_t pid) {
    char name[64], buf[1024], *tail;
    snprintf(name, sizeof name, "/proc/%d/stat", (int)pid);
    if (read_stat_tail(name, buf, sizeof buf, &tail) != 0) return -1;
    int ppid;
    if (sscanf(tail, "%*c %d", &ppid) != 1) return -1;
    return (pid_t)ppid;
}

int proc_tree(pid_t pid, pid_t *out, int cap) {
    /* One pass over /proc collects (pid, ppid); then a breadth-first walk from pid. */
    size_t n = 0, alloc = 1024;
    pid_t (*pairs)[2] = malloc(alloc * sizeof *pairs);
    if (!pairs || cap < 1) { free(pairs); return 0; }
    DIR *d = opendir("/proc");
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (!isdigit((unsigned char)de->d_name[0])) continue;
        pid_t p = (pid_t)atoi(de->d_name);
        pid_t pp = proc_parent(p);
        if (pp < 0) continue;
        if (n == alloc) {
            alloc *= 2;
            void *np = realloc(pairs, alloc * sizeof *pairs);
            if (!np) break;
            pairs = np;
        }
        pairs[n][0] = p;
        pairs[n][1] = pp;
        n++;
    }
    if (d) closedir(d);
    int count = 0;
    out[count++] = pid;
    for (int head = 0; head < count; head++)
        for (size_t i = 0; i < n && count < cap; i++)
            if (pairs[i][1] == out[head] && pairs[i][0] != pid) out[count++] = pairs[i][0];
    free(pairs);
    return count;
}
