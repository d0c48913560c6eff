/*
 * selftest_double.c: the GPU self-test's cases (native/gpu/selftest_cases.c) over the CUPTI test
 * double instead of CUDA: selftest.h answered with the double's driver side (simgpu_driver.h), as
 * selftest.cu answers it with the CUDA runtime. Linked into vprof-selftest-double, which
 * GpuSelftestOnDoubleTest runs through `vprof selftest --gpu`'s whole machinery. Kernels take
 * the virtual GPU time below; nothing measured with it is a GPU figure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "selftest.h"
#include "sim/simgpu_driver.h"

static const uint64_t BUFFER_BYTES = 1u << 18; /* 65536 floats, as selftest.cu */

static simcuda_stream sim(st_stream s)
{
    return (simcuda_stream)(uintptr_t)s;
}

static _Noreturn void fail(const char *what)
{
    fprintf(stderr, "selftest: %s failed on the CUPTI test double\n", what);
    exit(3);
}

void st_init(void)
{
    simcuda_init(); /* -1 only when the injection library failed: CUDA goes on, so do we */
}

void st_device(char *name, size_t size, int *driver_version, int *runtime_version)
{
    snprintf(name, size, "CUPTI test double (simulated GPU, not a GPU)");
    *driver_version = 0;
    *runtime_version = 0;
}

void st_mem_info(unsigned long long *free_bytes, unsigned long long *total_bytes)
{
    uint64_t f = 0, t = 0;
    simcuda_mem_get_info(&f, &t);
    *free_bytes = f;
    *total_bytes = t;
}

st_stream st_stream_create(void)
{
    simcuda_stream s = simcuda_stream_create();
    if (s == 0)
        fail("stream creation (out of streams)");
    return (st_stream)(uintptr_t)s;
}

void st_stream_destroy(st_stream s)
{
    (void)s; /* the double's streams live as long as the process */
}

/* Virtual GPU time of each kernel, ns. */
static uint64_t duration(enum st_kernel k, unsigned long long spin_ns)
{
    switch (k) {
    case ST_ADD: case ST_SCALE: case ST_GRAPH_NODE: case ST_GRAPH_A: case ST_GRAPH_B: return 5000;
    case ST_SPIN: return spin_ns;
    case ST_WINDOW: return 3000;
    default: return 1500;
    }
}

void st_launch(enum st_kernel k, st_stream s, unsigned long long spin_ns)
{
    const simcuda_dim3 grid = { st_kernels[k].grid, 1, 1 }, block = { st_kernels[k].block, 1, 1 };
    simcuda_launch_kernel(sim(s), st_kernels[k].name, grid, block, duration(k, spin_ns));
}

void st_copy_to_device(st_stream s)
{
    simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, BUFFER_BYTES, sim(s));
}

void st_copy_to_host(st_stream s)
{
    simcuda_memcpy(SIMCUDA_MEMCPY_DTOH, BUFFER_BYTES, sim(s));
}

void st_memset(st_stream s)
{
    simcuda_memset(BUFFER_BYTES, 0, sim(s));
}

void st_stream_sync(st_stream s)
{
    (void)s; /* the double synchronizes the whole device only */
    simcuda_synchronize();
}

void st_sync(void)
{
    simcuda_synchronize();
}

void st_profiler_start(void)
{
    simcuda_profiler_start();
}

void st_profiler_stop(void)
{
    simcuda_profiler_stop();
}

void st_nvtx_push(const char *name)
{
    simcuda_nvtx_push(name);
}

void st_nvtx_pop(void)
{
    simcuda_nvtx_pop();
}

void st_capture_begin(st_stream s)
{
    if (simcuda_graph_begin_capture(sim(s)) != 0)
        fail("stream capture begin");
}

st_graph st_capture_end(st_stream s)
{
    simcuda_graph graph = simcuda_graph_end_capture(sim(s));
    simcuda_graph_exec exec = simcuda_graph_instantiate(graph);
    if (exec == NULL)
        fail("graph instantiation");
    simcuda_graph_destroy(graph); /* the executable graph has its own copy of the nodes */
    return (st_graph)exec;
}

void st_graph_launch(st_graph g, st_stream s)
{
    simcuda_graph_launch((simcuda_graph_exec)g, sim(s));
}

void st_graph_destroy(st_graph g)
{
    simcuda_graph_exec_destroy((simcuda_graph_exec)g);
}
