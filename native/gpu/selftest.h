/*
 * selftest.h: what the GPU self-test's cases (selftest_cases.c) ask of a GPU.
 *
 * selftest.cu answers with CUDA on a real GPU. native/test/selftest_double.c answers with the
 * CUPTI test double, so that the same cases, printing the same JSON, run through the whole
 * `vprof selftest --gpu` machinery where there is no GPU (GpuSelftestOnDoubleTest). Nothing a
 * case measures on the double is a GPU figure.
 *
 * Every call either does what it says or ends the process with exit status 3 and a message
 * on stderr naming the call that failed.
 */
#ifndef VPROF_SELFTEST_H
#define VPROF_SELFTEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels, by what they do. The names CUPTI reports and the launch shapes are in
 * selftest_cases.c (st_kernels), so both implementations launch the same shapes. */
enum st_kernel {
    ST_ADD,        /* x[i] += 1 over the buffer */
    ST_SCALE,      /* x[i] *= 1.0001 over the buffer */
    ST_GRAPH_NODE, /* a node of the graph captured inside the checked phase */
    ST_GRAPH_A,    /* a node of graph A, captured while the agent is dormant and replayed before arming */
    ST_GRAPH_B,    /* a node of graph B, captured while the agent is dormant, first replayed in a range */
    ST_EMPTY,      /* does nothing: launch cost */
    ST_SPIN,       /* one thread that spins for the given ns (GPU global timer) */
    ST_AFTER_STOP, /* launched after cudaProfilerStop: must never be recorded */
    ST_THREAD,     /* launched by one of many host threads */
    ST_STRESS,     /* a node of the 1000-node stress graph */
    ST_WINDOW,     /* launched inside the NVTX range of nvtx-early */
    ST_KERNELS
};

struct st_shape {
    const char *name;         /* extern "C": CUPTI reports it unmangled */
    unsigned grid, block;     /* one-dimensional: (grid,1,1) x (block,1,1) */
};
extern const struct st_shape st_kernels[ST_KERNELS];

typedef struct st_stream_s *st_stream; /* a non-blocking stream, never the default stream */
typedef struct st_graph_s *st_graph;   /* an executable (instantiated) graph */

/* Initializes the device (cudaFree(0): the driver loads CUDA_INJECTION64_PATH here) and the
 * buffers every operation uses. */
void st_init(void);
/* The device's name, the driver's and the runtime's CUDA versions (1000 * major + 10 * minor). */
void st_device(char *name, size_t size, int *driver_version, int *runtime_version);
/* Free and total device memory, bytes. */
void st_mem_info(unsigned long long *free_bytes, unsigned long long *total_bytes);

st_stream st_stream_create(void);
void st_stream_destroy(st_stream s);
/* Launches kernel k with its shape from st_kernels; spin_ns is ST_SPIN's time, ignored otherwise. */
void st_launch(enum st_kernel k, st_stream s, unsigned long long spin_ns);
/* cudaMemcpyAsync of the buffer, host (pinned) to device or device to host, and cudaMemsetAsync of it. */
void st_copy_to_device(st_stream s);
void st_copy_to_host(st_stream s);
void st_memset(st_stream s);
void st_stream_sync(st_stream s);
void st_sync(void); /* cudaDeviceSynchronize */

void st_profiler_start(void);
void st_profiler_stop(void);
void st_nvtx_push(const char *name);
void st_nvtx_pop(void);

/* Stream capture (global mode, as PyTorch captures) of what is issued to s, then instantiation. */
void st_capture_begin(st_stream s);
st_graph st_capture_end(st_stream s);
void st_graph_launch(st_graph g, st_stream s);
void st_graph_destroy(st_graph g);

#ifdef __cplusplus
}
#endif
#endif
