// selftest.cu: the GPU self-test's kernels, and selftest.h answered with the CUDA runtime.
// The cases themselves are in selftest_cases.c (the same cases run on the CUPTI test double
// through native/test/selftest_double.c). Built by `vprof selftest --gpu`:
//   nvcc -O2 -lineinfo -o vprof-selftest selftest.cu selftest_cases.c -lpthread
// Kernel names are extern "C" so CUPTI reports them unmangled, as selftest_cases.c names them.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selftest.h"

extern "C" __global__ void vprof_selftest_add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
extern "C" __global__ void vprof_selftest_scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 1.0001f;
}
extern "C" __global__ void vprof_selftest_graph_node(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] -= 0.5f;
}
extern "C" __global__ void vprof_selftest_graph_a(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 0.25f;
}
extern "C" __global__ void vprof_selftest_graph_b(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] -= 0.25f;
}
extern "C" __global__ void vprof_selftest_empty(void) {}
extern "C" __global__ void vprof_selftest_after_stop(void) {}
extern "C" __global__ void vprof_selftest_thread(void) {}
extern "C" __global__ void vprof_selftest_stress(void) {}
extern "C" __global__ void vprof_selftest_window(void) {}

// Spins for ns nanoseconds of the GPU's global timer. The clock64 bound (4 cycles a ns, about
// twice the time at an H200's clock) ends it even where the global timer does not advance.
extern "C" __global__ void vprof_selftest_spin(unsigned long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    const long long c0 = clock64();
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns && (unsigned long long)(clock64() - c0) < 4ull * ns);
}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "selftest: %s failed: %s\n", #call, cudaGetErrorString(e_)); exit(3); } } while (0)

static const int N = 1 << 16;          // floats in each buffer: 256 blocks of 256 threads
static float *d_buf, *d_set, *h_buf;   // kernels' buffer, the memset's, the pinned host copy

static cudaStream_t cu(st_stream s) { return reinterpret_cast<cudaStream_t>(s); }

extern "C" void st_init(void) {
    CHECK(cudaFree(0)); // initializes CUDA: the driver loads CUDA_INJECTION64_PATH here
    CHECK(cudaMalloc(&d_buf, N * sizeof(float)));
    CHECK(cudaMalloc(&d_set, N * sizeof(float)));
    CHECK(cudaMallocHost(&h_buf, N * sizeof(float)));
    memset(h_buf, 0, N * sizeof(float));
    CHECK(cudaMemset(d_buf, 0, N * sizeof(float)));
    // Load every kernel now, without launching it: under lazy loading (the default from CUDA 12.2)
    // a kernel first launched inside a stream capture is loaded there, which drivers before 12.3
    // refuse; and a first launch's loading would also land in the launch-cost figures.
    const void *kernels[] = {
        (const void *)vprof_selftest_add, (const void *)vprof_selftest_scale,
        (const void *)vprof_selftest_graph_node, (const void *)vprof_selftest_graph_a,
        (const void *)vprof_selftest_graph_b, (const void *)vprof_selftest_empty,
        (const void *)vprof_selftest_spin, (const void *)vprof_selftest_after_stop,
        (const void *)vprof_selftest_thread, (const void *)vprof_selftest_stress,
        (const void *)vprof_selftest_window,
    };
    for (const void *k : kernels) {
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, k));
    }
    CHECK(cudaDeviceSynchronize());
}

extern "C" void st_device(char *name, size_t size, int *driver_version, int *runtime_version) {
    int dev = 0;
    cudaDeviceProp p;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaGetDeviceProperties(&p, dev));
    snprintf(name, size, "%s", p.name);
    CHECK(cudaDriverGetVersion(driver_version));
    CHECK(cudaRuntimeGetVersion(runtime_version));
}

extern "C" void st_mem_info(unsigned long long *free_bytes, unsigned long long *total_bytes) {
    size_t f = 0, t = 0;
    CHECK(cudaMemGetInfo(&f, &t));
    *free_bytes = f;
    *total_bytes = t;
}

extern "C" st_stream st_stream_create(void) {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return reinterpret_cast<st_stream>(s);
}

extern "C" void st_stream_destroy(st_stream s) { CHECK(cudaStreamDestroy(cu(s))); }

extern "C" void st_launch(enum st_kernel k, st_stream s, unsigned long long spin_ns) {
    const dim3 grid(st_kernels[k].grid), block(st_kernels[k].block);
    cudaStream_t c = cu(s);
    switch (k) {
    case ST_ADD: vprof_selftest_add<<<grid, block, 0, c>>>(d_buf, N); break;
    case ST_SCALE: vprof_selftest_scale<<<grid, block, 0, c>>>(d_buf, N); break;
    case ST_GRAPH_NODE: vprof_selftest_graph_node<<<grid, block, 0, c>>>(d_buf, N); break;
    case ST_GRAPH_A: vprof_selftest_graph_a<<<grid, block, 0, c>>>(d_buf, N); break;
    case ST_GRAPH_B: vprof_selftest_graph_b<<<grid, block, 0, c>>>(d_buf, N); break;
    case ST_EMPTY: vprof_selftest_empty<<<grid, block, 0, c>>>(); return; // timed: no extra call
    case ST_SPIN: vprof_selftest_spin<<<grid, block, 0, c>>>(spin_ns); break;
    case ST_AFTER_STOP: vprof_selftest_after_stop<<<grid, block, 0, c>>>(); break;
    case ST_THREAD: vprof_selftest_thread<<<grid, block, 0, c>>>(); break;
    case ST_STRESS: vprof_selftest_stress<<<grid, block, 0, c>>>(); break;
    case ST_WINDOW: vprof_selftest_window<<<grid, block, 0, c>>>(); break;
    default: fprintf(stderr, "selftest: no kernel %d\n", (int)k); exit(3);
    }
    CHECK(cudaGetLastError());
}

extern "C" void st_copy_to_device(st_stream s) {
    CHECK(cudaMemcpyAsync(d_buf, h_buf, N * sizeof(float), cudaMemcpyHostToDevice, cu(s)));
}

extern "C" void st_copy_to_host(st_stream s) {
    CHECK(cudaMemcpyAsync(h_buf, d_buf, N * sizeof(float), cudaMemcpyDeviceToHost, cu(s)));
}

extern "C" void st_memset(st_stream s) { CHECK(cudaMemsetAsync(d_set, 0, N * sizeof(float), cu(s))); }

extern "C" void st_stream_sync(st_stream s) { CHECK(cudaStreamSynchronize(cu(s))); }

extern "C" void st_sync(void) { CHECK(cudaDeviceSynchronize()); }

extern "C" void st_profiler_start(void) { CHECK(cudaProfilerStart()); }

extern "C" void st_profiler_stop(void) { CHECK(cudaProfilerStop()); }

extern "C" void st_nvtx_push(const char *name) { nvtxRangePushA(name); }

extern "C" void st_nvtx_pop(void) { nvtxRangePop(); }

extern "C" void st_capture_begin(st_stream s) { CHECK(cudaStreamBeginCapture(cu(s), cudaStreamCaptureModeGlobal)); }

extern "C" st_graph st_capture_end(st_stream s) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamEndCapture(cu(s), &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphDestroy(graph)); // the executable graph does not need it
    return reinterpret_cast<st_graph>(exec);
}

extern "C" void st_graph_launch(st_graph g, st_stream s) {
    CHECK(cudaGraphLaunch(reinterpret_cast<cudaGraphExec_t>(g), cu(s)));
}

extern "C" void st_graph_destroy(st_graph g) { CHECK(cudaGraphExecDestroy(reinterpret_cast<cudaGraphExec_t>(g))); }
