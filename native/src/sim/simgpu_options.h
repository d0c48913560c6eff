/* simgpu_options.h: the command line of vprof-simgpu. */
#ifndef VPROF_SIMGPU_OPTIONS_H
#define VPROF_SIMGPU_OPTIONS_H

#include <stdint.h>

#include "sim/simgpu_slow.h"

#define SIMGPU_MAX_RANGES 64
#define SIMGPU_MAX_WORKERS 64
#define SIMGPU_MAX_THREADS 64

struct simgpu_range {
    long start, end; /* steps [start, end) */
    char name[64];   /* NVTX ranges only */
};

struct simgpu_options {
    long steps;              /* -1: run for duration_ns instead */
    uint64_t duration_ns;    /* 0: run for `steps` */
    int kernels_per_step;
    int memcpys_per_step;
    uint64_t step_us;        /* 0: as fast as possible */
    int nvtx_steps;          /* --nvtx */
    int workers;             /* 0: this process does the GPU work itself */
    int serve;
    int bare;                /* --bare: no driver helper threads (cuptisim_helpers.c) */
    uint64_t seed;
    struct simgpu_range profiler_ranges[SIMGPU_MAX_RANGES]; /* sorted, disjoint */
    int profiler_range_count;
    struct simgpu_range nvtx_ranges[SIMGPU_MAX_RANGES];     /* sorted outer-first, nested or disjoint */
    int nvtx_range_count;
    /* the field (docs/simulator.md) */
    int threads;             /* launching threads per process (--threads), >= 1 */
    int cuda_graph;          /* decode steps replay graphs captured at start-up */
    struct simgpu_range kineto_ranges[SIMGPU_MAX_RANGES];   /* sorted, disjoint */
    int kineto_range_count;
    int kineto_tsc;          /* the Kineto-like client registers a timestamp callback */
    char nvtx_before_init[64]; /* "": none */
    uint64_t stop_kernel_us; /* a kernel this long just before each cudaProfilerStop */
    struct simgpu_slow slow[SIMGPU_MAX_SLOW]; /* --slow SUBSTRING:FACTOR, in the order given */
    int slow_count;
    const char *replay;      /* --replay SCRIPT: NULL for the synthetic schedule */
    char rendezvous[64];     /* --rendezvous NAME: "" for none */
    int rank, world;         /* --rank R --world W */
    int sync_each_step;      /* --sync: 0 none (a paced step still waits), 1 device, 2 stream */
};

/* Fills `o`. Returns -1 to go on, 0 after printing --help, 2 after printing a
 * usage error to stderr. */
int simgpu_parse_options(int argc, char **argv, struct simgpu_options *o);

#endif
