/* simgpu_replay.c: see simgpu_replay.h. */
#include "sim/simgpu_replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEADER_BYTES 32
#define PROCESS_BYTES 16
#define MAX_STREAMS 62 /* what simcuda_stream_create gives a process */
#define MAX_DEVICES 64 /* the double's node */

static uint32_t u32_at(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t u64_at(const unsigned char *p) { return (uint64_t)u32_at(p) | (uint64_t)u32_at(p + 4) << 32; }

#define FAIL(...) do { snprintf(err, errcap, __VA_ARGS__); goto fail; } while (0)

int simgpu_replay_load(const char *path, struct simgpu_replay_script *s, char *err, size_t errcap) {
    memset(s, 0, sizeof *s);
    void *map = MAP_FAILED;
    size_t size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) FAIL("cannot open the replay script %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) FAIL("the replay script %s is not a regular file", path);
    size = (size_t)st.st_size;
    if (size < HEADER_BYTES) FAIL("%s is not a replay script (too short); give the trace to `vprof simulate --replay TRACE`, which writes one", path);
    map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) FAIL("cannot map the replay script %s: %s", path, strerror(errno));
    const unsigned char *d = map;
    if (memcmp(d, SIMGPU_REPLAY_MAGIC, 8) != 0)
        FAIL("%s is not a replay script; give the trace to `vprof simulate --replay TRACE`, which writes one", path);
    if (u32_at(d + 8) != 1) FAIL("the replay script %s has version %u; this vprof-simgpu plays version 1", path, u32_at(d + 8));
    s->process_count = u32_at(d + 12);
    s->name_count = u32_at(d + 16);
    s->op_count = u64_at(d + 24);
    if (s->process_count == 0 || s->process_count > SIMGPU_REPLAY_MAX_PROCESSES)
        FAIL("the replay script %s has %u processes; 1 to %d can be replayed", path, s->process_count, SIMGPU_REPLAY_MAX_PROCESSES);
    size_t at = HEADER_BYTES;
    if (size - at < (size_t)s->process_count * PROCESS_BYTES) FAIL("the replay script %s is cut short in its processes", path);
    for (uint32_t i = 0; i < s->process_count; i++, at += PROCESS_BYTES) {
        s->processes[i].rank = (int32_t)u32_at(d + at);
        s->processes[i].world_size = (int32_t)u32_at(d + at + 4);
        s->processes[i].pid = u32_at(d + at + 8);
    }
    if (s->name_count > (size - at) / 4) FAIL("the replay script %s is cut short in its names", path);
    s->names = malloc(((size_t)s->name_count + 1) * sizeof *s->names);
    if (s->names == NULL) FAIL("no memory for the %u names of %s", s->name_count, path);
    for (uint32_t i = 0; i < s->name_count; i++) {
        if (size - at < 4) FAIL("the replay script %s is cut short in its names", path);
        uint32_t len = u32_at(d + at);
        if (len > size - at - 4) FAIL("the replay script %s is cut short in name %u", path, i);
        s->names[i] = d + at;
        at += 4 + (size_t)len;
    }
    at = (at + 7) & ~(size_t)7;
    if (at > size || s->op_count != (size - at) / SIMGPU_REPLAY_OP_BYTES || (size - at) % SIMGPU_REPLAY_OP_BYTES != 0)
        FAIL("the replay script %s does not hold the %llu operations its header names", path, (unsigned long long)s->op_count);
    s->ops = d + at;
    for (uint64_t i = 0; i < s->op_count; i++) {
        const unsigned char *op = s->ops + i * SIMGPU_REPLAY_OP_BYTES;
        uint64_t start = u64_at(op), end = u64_at(op + 8);
        uint32_t name = u32_at(op + 24), proc = u32_at(op + 28), dev = u32_at(op + 36);
        uint8_t kind = op[64];
        if (proc >= s->process_count || kind < SIMGPU_REPLAY_KERNEL || kind > SIMGPU_REPLAY_MEMSET || end < start ||
            dev >= MAX_DEVICES || (kind == SIMGPU_REPLAY_KERNEL && name >= s->name_count) ||
            (kind == SIMGPU_REPLAY_MEMCPY && (op[65] < 1 || op[65] > 10)))
            FAIL("operation %llu of the replay script %s is malformed", (unsigned long long)i, path);
        s->processes[proc].ops++;
        if (dev > s->processes[proc].max_device) s->processes[proc].max_device = dev;
    }
    close(fd);
    s->data = d;
    s->size = size;
    return 0;
fail:
    free(s->names);
    s->names = NULL;
    if (map != MAP_FAILED) munmap(map, size);
    if (fd >= 0) close(fd);
    return -1;
}

struct sort_key { uint64_t start, index; };

static int by_start(const void *x, const void *y) {
    const struct sort_key *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

int simgpu_replay_prepare(struct simgpu_replay *r, const struct simgpu_replay_script *s, uint32_t index,
                          const struct simgpu_slow *slow, int slow_count, char *err, size_t errcap) {
    memset(r, 0, sizeof *r);
    struct sort_key *keys = NULL;
    uint64_t n = s->processes[index].ops;
    r->ops = calloc(n ? n : 1, sizeof *r->ops);
    keys = malloc((n ? n : 1) * sizeof *keys);
    r->names = calloc(s->name_count ? s->name_count : 1, sizeof *r->names);
    r->name_count = s->name_count;
    if (r->ops == NULL || keys == NULL || r->names == NULL) FAIL("no memory for the %llu operations to replay", (unsigned long long)n);
    uint64_t k = 0;
    for (uint64_t i = 0; i < s->op_count; i++) {
        const unsigned char *op = s->ops + i * SIMGPU_REPLAY_OP_BYTES;
        if (u32_at(op + 28) != index) continue;
        keys[k].start = u64_at(op);
        keys[k].index = i;
        k++;
    }
    qsort(keys, n, sizeof *keys, by_start);
    uint32_t stream_ids[MAX_STREAMS + 1];
    simcuda_stream handles[MAX_STREAMS + 1];
    int streams = 0;
    uint64_t first = n ? keys[0].start : 0, last_end = first;
    for (uint64_t j = 0; j < n; j++) {
        const unsigned char *op = s->ops + keys[j].index * SIMGPU_REPLAY_OP_BYTES;
        struct simgpu_replay_op *o = &r->ops[j];
        uint64_t start = u64_at(op), end = u64_at(op + 8);
        uint32_t id = u32_at(op + 32);
        int h;
        for (h = 0; h < streams && stream_ids[h] != id; h++) {
        }
        if (h == streams) {
            if (streams == MAX_STREAMS + 1) FAIL("the trace's process %u uses more than %d streams; the test double has %d", index, MAX_STREAMS + 1, MAX_STREAMS + 1);
            stream_ids[h] = id;
            handles[h] = simcuda_stream_create_with_id(id);
            r->streams[h] = handles[h];
            streams++;
        }
        o->stream = handles[h];
        o->offset = start - first;
        o->duration = end - start;
        o->bytes = u64_at(op + 16);
        o->device = u32_at(op + 36);
        o->grid = (simcuda_dim3){ u32_at(op + 40), u32_at(op + 44), u32_at(op + 48) };
        o->block = (simcuda_dim3){ u32_at(op + 52), u32_at(op + 56), u32_at(op + 60) };
        o->kind = op[64];
        o->copy_kind = op[65];
        o->value = u32_at(op + 68);
        if (o->kind == SIMGPU_REPLAY_KERNEL) {
            uint32_t name = u32_at(op + 24);
            if (r->names[name] == NULL) {
                uint32_t len = u32_at(s->names[name]);
                if ((r->names[name] = malloc((size_t)len + 1)) == NULL) FAIL("no memory for kernel name %u", name);
                memcpy(r->names[name], s->names[name] + 4, len);
                r->names[name][len] = '\0';
            }
            o->name = simcuda_intern_name(r->names[name]); /* a handle, as a real launch passes */
            o->duration = simgpu_slow_duration(slow, slow_count, o->name, o->duration);
            r->kernels++;
        } else if (o->kind == SIMGPU_REPLAY_MEMCPY) {
            r->memcpys++;
        }
        if (o->offset + o->duration > last_end - first) last_end = first + o->offset + o->duration;
    }
    r->count = n;
    r->stream_count = streams;
    r->span = last_end - first;
    r->device = UINT32_MAX;
    free(keys);
    return 0;
fail:
    free(keys);
    free(r->ops);
    r->ops = NULL;
    if (r->names != NULL)
        for (uint32_t i = 0; i < r->name_count; i++) free(r->names[i]);
    free(r->names);
    r->names = NULL;
    return -1;
}

static uint64_t realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts); /* the double's clock */
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A pass starts this far ahead of the launching thread, so that its first
 * operations are not late for want of a head start. */
#define LEAD_NS 100000u
/* Between passes, as between two profiler steps. */
#define PASS_GAP_NS 1000u

struct simgpu_step_result simgpu_replay_pass(struct simgpu_replay *r) {
    struct simgpu_step_result res = { 0, 0, 0 };
    uint64_t now = realtime_ns() + LEAD_NS;
    uint64_t base = now > r->next_base ? now : r->next_base;
    for (uint64_t i = 0; i < r->count; i++) {
        const struct simgpu_replay_op *o = &r->ops[i];
        uint64_t t = base + o->offset;
        if (o->device != r->device && simcuda_set_device(o->device) == 0) r->device = o->device;
        simcuda_stream_hold_until(o->stream, t);
        switch (o->kind) {
        case SIMGPU_REPLAY_KERNEL: simcuda_launch_kernel(o->stream, o->name, o->grid, o->block, o->duration); break;
        case SIMGPU_REPLAY_MEMCPY:
            simcuda_memcpy_timed((enum simcuda_memcpy_kind)o->copy_kind, o->bytes, o->stream, o->duration);
            break;
        default: simcuda_memset_timed(o->bytes, o->value, o->stream, o->duration); break;
        }
        if (realtime_ns() > t) r->late++; /* launched after its planned start: its gap grew */
    }
    /* after the pass's last work, which slowed kernels (--slow) or a late launch may have pushed back */
    uint64_t end = base + r->span;
    for (int i = 0; i < r->stream_count; i++) {
        uint64_t done = simcuda_stream_done_at(r->streams[i]);
        if (done > end) end = done;
    }
    r->next_base = end + PASS_GAP_NS;
    res.kernels = r->kernels;
    res.memcpys = r->memcpys;
    return res;
}
