// vprof GPU self-test target: launches a known set of kernels and memcpys so that
// `vprof selftest --gpu` can check that vprof recorded exactly that set.
//
//   selftest profiler   the checked phase between cudaProfilerStart and cudaProfilerStop
//   selftest nvtx       the checked phase inside the NVTX range "vprof_selftest"
//   selftest none       no bracket: everything the process launches is checked
//   selftest wait       initialize CUDA, print "ready", wait for a line on stdin, then
//                       run the profiler-bracketed phase (for late injection)
//   selftest launches N time N launches of an empty kernel; prints ns per launch
//
// Prints one JSON line on stdout with what it launched:
//   {"mode":..., "phase":{"kernels":{NAME:COUNT...},"memcpys":N}, "total":{...}}
// Kernel names are extern "C" so CUPTI reports them unmangled.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
extern "C" __global__ void vprof_selftest_empty(void) {}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "selftest: %s failed: %s\n", #call, cudaGetErrorString(e_)); exit(3); } } while (0)

// How many of each the checked phase launches (all of them on two streams).
enum { N_ADD = 100, N_SCALE = 50, GRAPH_NODES = 10, GRAPH_REPLAYS = 3, N_COPIES = 5 };
// Launched outside the checked phase, before and after it.
enum { N_OUTSIDE = 20 };

static const int N = 1 << 16;

static void outside(float *d, cudaStream_t s) {
    for (int i = 0; i < N_OUTSIDE; i++) vprof_selftest_add<<<N / 256, 256, 0, s>>>(d, N);
    CHECK(cudaStreamSynchronize(s));
}

static void checked_phase(float *d0, float *d1, float *host, cudaStream_t s0, cudaStream_t s1) {
    for (int i = 0; i < N_COPIES; i++) CHECK(cudaMemcpyAsync(d0, host, N * sizeof(float), cudaMemcpyHostToDevice, s0));
    for (int i = 0; i < N_ADD; i++) vprof_selftest_add<<<N / 256, 256, 0, s0>>>(d0, N);
    for (int i = 0; i < N_SCALE; i++) vprof_selftest_scale<<<N / 256, 256, 0, s1>>>(d1, N);
    // A CUDA graph of GRAPH_NODES kernels, replayed: CUPTI reports each node's kernel.
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < GRAPH_NODES; i++) vprof_selftest_graph_node<<<N / 256, 256, 0, s1>>>(d1, N);
    CHECK(cudaStreamEndCapture(s1, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < GRAPH_REPLAYS; i++) CHECK(cudaGraphLaunch(exec, s1));
    for (int i = 0; i < N_COPIES; i++) CHECK(cudaMemcpyAsync(host, d1, N * sizeof(float), cudaMemcpyDeviceToHost, s1));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
}

static void print_json(const char *mode, int outside_adds) {
    printf("{\"mode\":\"%s\",\"phase\":{\"kernels\":{\"vprof_selftest_add\":%d,\"vprof_selftest_scale\":%d,"
           "\"vprof_selftest_graph_node\":%d},\"memcpys\":%d},"
           "\"total\":{\"kernels\":{\"vprof_selftest_add\":%d,\"vprof_selftest_scale\":%d,"
           "\"vprof_selftest_graph_node\":%d},\"memcpys\":%d}}\n",
           mode, N_ADD, N_SCALE, GRAPH_NODES * GRAPH_REPLAYS, 2 * N_COPIES,
           N_ADD + outside_adds, N_SCALE, GRAPH_NODES * GRAPH_REPLAYS, 2 * N_COPIES);
    fflush(stdout);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "profiler";
    CHECK(cudaFree(0)); // initializes CUDA: the driver loads CUDA_INJECTION64_PATH here
    if (strcmp(mode, "launches") == 0) {
        long n = argc > 2 ? atol(argv[2]) : 200000;
        for (int i = 0; i < 1000; i++) vprof_selftest_empty<<<1, 1>>>();
        CHECK(cudaDeviceSynchronize());
        double t0 = now_ns();
        for (long i = 0; i < n; i++) vprof_selftest_empty<<<1, 1>>>();
        CHECK(cudaDeviceSynchronize());
        printf("{\"mode\":\"launches\",\"launches\":%ld,\"ns_per_launch\":%.1f}\n", n, (now_ns() - t0) / n);
        return 0;
    }
    float *d0, *d1, *host;
    cudaStream_t s0, s1;
    CHECK(cudaMalloc(&d0, N * sizeof(float)));
    CHECK(cudaMalloc(&d1, N * sizeof(float)));
    CHECK(cudaMallocHost(&host, N * sizeof(float)));
    memset(host, 0, N * sizeof(float));
    CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));

    if (strcmp(mode, "wait") == 0) {
        outside(d0, s0);
        printf("ready\n");
        fflush(stdout);
        char line[64];
        if (!fgets(line, sizeof line, stdin)) return 4;
    } else {
        outside(d0, s0);
    }
    int bracket_profiler = strcmp(mode, "profiler") == 0 || strcmp(mode, "wait") == 0;
    int bracket_nvtx = strcmp(mode, "nvtx") == 0;
    if (bracket_profiler) CHECK(cudaProfilerStart());
    if (bracket_nvtx) nvtxRangePushA("vprof_selftest");
    checked_phase(d0, d1, host, s0, s1);
    if (bracket_nvtx) nvtxRangePop();
    if (bracket_profiler) CHECK(cudaProfilerStop());
    outside(d0, s0);
    print_json(mode, 2 * N_OUTSIDE);
    CHECK(cudaStreamDestroy(s0));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaFree(d0));
    CHECK(cudaFree(d1));
    CHECK(cudaFreeHost(host));
    return 0;
}
