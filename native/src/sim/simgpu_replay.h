/*
 * simgpu_replay.h: vprof-simgpu --replay SCRIPT: the GPU work of a recorded
 * trace played through the CUPTI test double, one pass per step.
 *
 * `vprof simulate --replay TRACE` writes the script (dev.vprof.replay in the
 * Java front end) from any capture vprof reads; this side only plays it. Each
 * process of the script is one GPU process here (a worker per process, as
 * --workers makes them). A pass launches every kernel, copy and set of its
 * process in the order of their start times, on streams that carry the
 * trace's stream ids, on the trace's devices, with the trace's names, grid,
 * block, byte counts, copy kinds and durations; each operation is held until
 * its start's offset from the pass's first operation
 * (simcuda_stream_hold_until), so the gaps are the trace's too unless the
 * launching thread falls behind (counted as `replay_late`).
 *
 * The script, all little-endian (docs/simulator.md):
 *   header  32 B: "VPRFRPL1", u32 version (1), u32 processes, u32 names,
 *                 u32 reserved, u64 operations
 *   process 16 B each: i32 rank (-1: none), i32 world size (-1), u32 pid, u32 reserved
 *   name    u32 length, then that many bytes (UTF-8, no NUL), each
 *           (zero padding to a multiple of 8)
 *   op      72 B each: u64 start, u64 end (ns, any clock: only differences
 *           count), u64 bytes, u32 name (kernels), u32 process, u32 stream
 *           (CUPTI streamId), u32 device, u32 grid x y z, u32 block x y z,
 *           u8 kind (1 kernel, 2 copy, 3 set), u8 copy kind
 *           (CUpti_ActivityMemcpyKind), u16 reserved, u32 set value
 * Every count, index and length is checked against the file before use.
 */
#ifndef VPROF_SIMGPU_REPLAY_H
#define VPROF_SIMGPU_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "sim/simgpu_driver.h"
#include "sim/simgpu_model.h"
#include "sim/simgpu_slow.h"

#define SIMGPU_REPLAY_MAGIC "VPRFRPL1"
#define SIMGPU_REPLAY_OP_BYTES 72
#define SIMGPU_REPLAY_MAX_PROCESSES 64

enum { SIMGPU_REPLAY_KERNEL = 1, SIMGPU_REPLAY_MEMCPY = 2, SIMGPU_REPLAY_MEMSET = 3 };

struct simgpu_replay_process {
    int32_t rank, world_size;
    uint32_t pid;
    uint32_t max_device;   /* the highest device its operations use */
    uint64_t ops;          /* its operations */
};

/* A script, mapped and checked. */
struct simgpu_replay_script {
    const unsigned char *data;
    size_t size;
    uint32_t process_count, name_count;
    uint64_t op_count;
    struct simgpu_replay_process processes[SIMGPU_REPLAY_MAX_PROCESSES];
    const unsigned char **names; /* name_count pointers into data, each at its u32 length */
    const unsigned char *ops;
};

/* Maps and checks the script at `path`. Returns 0, or -1 with one sentence in `err`. */
int simgpu_replay_load(const char *path, struct simgpu_replay_script *s, char *err, size_t errcap);

/* What one process plays. */
struct simgpu_replay_op {
    uint64_t offset, duration, bytes;   /* offset from the process's first start */
    const char *name;                   /* kernels */
    simcuda_stream stream;
    uint32_t device, value;
    simcuda_dim3 grid, block;
    uint8_t kind, copy_kind;
};

struct simgpu_replay {
    struct simgpu_replay_op *ops;
    uint64_t count, kernels, memcpys, span;
    uint64_t next_base;                 /* the earliest start of the next pass (the double's clock) */
    uint64_t late;                      /* operations that started after their planned time */
    uint32_t device;                    /* the device set last */
    simcuda_stream streams[63];         /* the streams its operations use */
    int stream_count;
    char **names;                       /* NUL-terminated copies, by script index (NULL: unused) */
    uint32_t name_count;
};

/* The operations of process `index` in start order, its streams made, --slow
 * applied to kernel durations. Call after simcuda_init. Returns 0, or -1 with
 * a sentence in `err`. */
int simgpu_replay_prepare(struct simgpu_replay *r, const struct simgpu_replay_script *s, uint32_t index,
                          const struct simgpu_slow *slow, int slow_count, char *err, size_t errcap);

/* One pass: every operation once. */
struct simgpu_step_result simgpu_replay_pass(struct simgpu_replay *r);

#endif
