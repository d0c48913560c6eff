/* vprof-inject --explain: each thread's verdict and call chain, nothing injected. */
#include "explain.h"
#include "elf_symbols.h"
#include "hijack.h"
#include "inject.h"
#include "proc.h"
#include "safe_point.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STOP_WAIT_MS 500

struct symbolize_ctx { uint64_t off; const char *best; uint64_t best_value; };

static void containing(void *vctx, const char *name, uint64_t value, uint64_t size) {
    struct symbolize_ctx *c = vctx;
    if (c->off >= value && c->off < value + size && name[0] && (!c->best || value > c->best_value)) {
        c->best = name;
        c->best_value = value;
    }
}

/* "run_schedule+0x1a (vprof-simgpu)", or "libfoo.so+0x1234" without a symbol. */
static void symbolize(pid_t pid, const struct maps *m, uint64_t addr, char *buf, size_t len) {
    const struct map_entry *e = maps_find(m, addr);
    if (!e) { snprintf(buf, len, "?"); return; }
    if (e->path[0] != '/') { snprintf(buf, len, "%s", e->path[0] ? e->path : "anonymous memory"); return; }
    const char *base = path_basename(e->path);
    const struct map_entry *lowest = maps_find_library(m, base);
    char file[PATH_MAX + 32];
    snprintf(file, sizeof file, "/proc/%d/root%s", (int)pid, e->path);
    struct elf_image img;
    if (!lowest || elf_open(file, &img) != 0) {
        snprintf(buf, len, "%s+0x%llx", base, (unsigned long long)(addr - e->start + e->offset));
        return;
    }
    uint64_t bias = elf_load_bias(&img, lowest->start, lowest->offset);
    struct symbolize_ctx c = {addr - bias, NULL, 0};
    elf_for_each_function(&img, containing, &c);
    if (c.best) snprintf(buf, len, "%s+0x%llx (%s)", c.best, (unsigned long long)(c.off - c.best_value), base);
    else snprintf(buf, len, "%s+0x%llx", base, (unsigned long long)c.off);
    elf_close(&img);
}

static void explain_one(pid_t pid, pid_t tid, struct safe_point_map *spm) {
    char name[32];
    proc_thread_name(pid, tid, name, sizeof name);
    struct hijack h;
    int rc = hijack_attach(&h, pid, tid, spm->mem_fd, inject_now_ms() + STOP_WAIT_MS);
    if (rc) {
        hijack_release(&h);
        printf("thread %d (%s): not examined: %s\n", (int)tid, name,
               rc == -ETIMEDOUT ? "it did not stop in time" : strerror(-rc));
        return;
    }
    struct maps m;
    if (maps_read(pid, &m) != 0) { hijack_release(&h); return; }
    struct safe_point_verdict v;
    static struct unwind_result u;
    safe_point_check(spm, &m, &h.saved, &v, &u);
    hijack_release(&h); /* symbolizing reads files only: the thread need not wait for it */
    char method[300];
    safe_point_describe_method(&v, method, sizeof method);
    if (v.safe) printf("thread %d (%s): safe; decided by %s\n", (int)tid, name, method);
    else printf("thread %d (%s): not safe: %s; decided by %s\n", (int)tid, name, v.reason, method);
    for (int i = 0; i < u.n; i++) {
        char sym[PATH_MAX + 64];
        symbolize(pid, &m, unwind_lookup_pc(&u.f[i]), sym, sizeof sym);
        printf("  #%-3d 0x%016llx %s%s\n", i, (unsigned long long)u.f[i].pc, sym,
               u.f[i].signal ? " <signal frame>" : "");
    }
    if (!u.complete) printf("  (walk stopped: %s)\n", u.why);
    maps_free(&m);
}

int explain_threads(pid_t pid, char *msg, size_t len) {
    char memname[64];
    snprintf(memname, sizeof memname, "/proc/%d/mem", (int)pid);
    int mem_fd = open(memname, O_RDONLY | O_CLOEXEC);
    if (mem_fd < 0) {
        snprintf(msg, len, "cannot open %s: %s", memname, strerror(errno));
        return errno == ENOENT ? EXIT_NO_PROCESS : EXIT_PERMISSION;
    }
    struct maps m;
    struct safe_point_map spm;
    int rc = maps_read(pid, &m);
    if (rc == 0) {
        rc = safe_point_map_build(pid, &m, mem_fd, &spm);
        maps_free(&m);
    }
    if (rc) {
        close(mem_fd);
        snprintf(msg, len, "cannot read process %d: %s", (int)pid, strerror(-rc));
        return EXIT_OTHER;
    }
    static pid_t tids[8192];
    int n = proc_list_threads(pid, tids, 8192);
    for (int i = 0; i < n; i++) explain_one(pid, tids[i], &spm);
    fflush(stdout);
    safe_point_map_free(&spm);
    close(mem_fd);
    return 0;
}
