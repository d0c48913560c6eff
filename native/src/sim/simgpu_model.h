/*
 * simgpu_model.h: the synthetic LLM forward step of vprof-simgpu: which
 * kernels one decoder step launches, on which stream, for how long.
 */
#ifndef VPROF_SIMGPU_MODEL_H
#define VPROF_SIMGPU_MODEL_H

#include <stdint.h>

#include "sim/simgpu_driver.h"
#include "sim/simgpu_slow.h"

/* Decode batch buckets with a captured graph each: 8, 16, ... 64 sequences. */
#define SIMGPU_GRAPH_BUCKETS 8
#define SIMGPU_GRAPH_BUCKET 8

struct simgpu_model {
    uint64_t rng;                 /* xorshift64* state: same seed, same schedule */
    simcuda_stream compute, comm, copy;
    int kernels_per_step;
    int memcpys_per_step;
    simcuda_graph_exec graphs[SIMGPU_GRAPH_BUCKETS]; /* NULL: decode runs eagerly */
    const struct simgpu_slow *slow; /* --slow rules (none after init; set before capturing graphs) */
    int slow_count;
};

/* What one step launched. */
struct simgpu_step_result {
    uint64_t kernels;             /* eager launches and kernel nodes replayed */
    uint64_t memcpys;             /* likewise for copies */
    uint64_t graph_launches;
};

/* Creates the streams: call after simcuda_init(). */
void simgpu_model_init(struct simgpu_model *m, uint64_t seed, int kernels_per_step, int memcpys_per_step);

/* One forward step of a batch with `prefill_tokens` new prompt tokens and
 * `decode_seqs` sequences generating one token each. With `exact` the step
 * launches exactly kernels_per_step kernels whatever the batch (the --steps
 * schedule); without it, prefill adds a chunked-prefill pass per 2048 tokens
 * (the --serve mode). Durations scale with the batch either way. */
struct simgpu_step_result simgpu_model_step(struct simgpu_model *m, int prefill_tokens, int decode_seqs, int exact);

/* Captures and instantiates a decode graph per batch bucket, as vLLM does at
 * start-up: the step's kernels (all on the compute stream, as in a captured
 * graph), a memset and a device-to-device copy. From then on an exact decode
 * step replays the graph of its bucket between its input and output copies. */
void simgpu_model_capture_graphs(struct simgpu_model *m);

#endif
