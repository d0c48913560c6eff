/*
 * simgpu_model.c: the kernels of one decoder forward step, as a tensor-parallel
 * Llama-style model served by vLLM launches them: per layer a norm, the QKV
 * GEMM, rotary embedding, KV-cache write, attention, the output GEMM, an NCCL
 * all-reduce on its own stream, the fused residual norm, the gate/up GEMM,
 * SiLU-and-mul, the down GEMM and a second all-reduce; then the LM head and
 * sampling. Names are the mangled names CUPTI reports for these kernels (the
 * cuBLAS and NCCL ones are not C++ templates). Durations are typical of an
 * H100 at a mid-size batch, scaled by the batch and jittered by ±12%.
 */
#include "sim/simgpu_model.h"
#include "sim/simgpu_rendezvous.h"

#include <stddef.h>

enum scaling { BY_TOKENS, BY_DECODE_SEQS, BY_PREFILL_TOKENS, FIXED };
enum lane { COMPUTE, COMM };

struct kernel_kind {
    const char *name;
    uint32_t base_ns;    /* at the reference batch of 256 tokens */
    enum scaling scaling;
    enum lane lane;
    simcuda_dim3 block;
};

#define GEMM_QKV "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
#define GEMM_MLP "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"
#define GEMM_SMALL "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
#define ALLREDUCE "_Z40ncclDevKernel_AllReduce_Sum_bf16_RING_LL24ncclDevKernelArgsStorageILm4096EE"

static const struct kernel_kind LAYER[] = {
    { "_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_S6_fii", 7000, BY_TOKENS, COMPUTE, { 1024, 1, 1 } },
    { GEMM_QKV, 38000, BY_TOKENS, COMPUTE, { 384, 1, 1 } },
    { "_ZN4vllm23rotary_embedding_kernelIN3c108BFloat16ELb1EEEvPKlPT_S6_PKS5_iiiiii", 5000, BY_TOKENS, COMPUTE, { 512, 1, 1 } },
    { "_ZN4vllm24reshape_and_cache_kernelIN3c108BFloat16ES2_EEvPKlii", 4000, BY_TOKENS, COMPUTE, { 512, 1, 1 } },
    { NULL /* attention: decode or prefill, chosen per step */, 0, FIXED, COMPUTE, { 128, 1, 1 } },
    { GEMM_SMALL, 24000, BY_TOKENS, COMPUTE, { 256, 1, 1 } },
    { ALLREDUCE, 28000, BY_TOKENS, COMM, { 512, 1, 1 } },
    { "_ZN4vllm25fused_add_rms_norm_kernelIN3c108BFloat16EEEvPT_S4_PKS3_fii", 8000, BY_TOKENS, COMPUTE, { 1024, 1, 1 } },
    { GEMM_MLP, 72000, BY_TOKENS, COMPUTE, { 384, 1, 1 } },
    { "_ZN4vllm18act_and_mul_kernelIN3c108BFloat16EXadL_ZNS_11silu_kernelIS2_EET_RKS4_EELb1EEEvPS4_PS5_i", 11000, BY_TOKENS, COMPUTE, { 1024, 1, 1 } },
    { GEMM_QKV, 46000, BY_TOKENS, COMPUTE, { 384, 1, 1 } },
    { ALLREDUCE, 28000, BY_TOKENS, COMM, { 512, 1, 1 } },
};
#define LAYER_KERNELS (int)(sizeof LAYER / sizeof LAYER[0])
#define ATTENTION_SLOT 4

static const struct kernel_kind DECODE_ATTENTION =
    { "_ZN4vllm25paged_attention_v2_kernelIN3c108BFloat16ELi128ELi16ELi128ELi512EEEvPfi", 52000, BY_DECODE_SEQS, COMPUTE, { 128, 1, 1 } };
static const struct kernel_kind PREFILL_ATTENTION =
    { "_ZN5flash16flash_fwd_kernelILi128ELi128ELi64ELi4ELb1ELb0ELb1EEEvNS_16Flash_fwd_paramsE", 95000, BY_PREFILL_TOKENS, COMPUTE, { 128, 1, 1 } };

static const struct kernel_kind TAIL[] = {
    { "_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_S6_fii", 7000, BY_DECODE_SEQS, COMPUTE, { 1024, 1, 1 } },
    { GEMM_MLP, 110000, BY_DECODE_SEQS, COMPUTE, { 384, 1, 1 } }, /* LM head */
    { "_ZN2at6native12_GLOBAL__N_119cunn_SoftMaxForwardILi4EfffEEvPfPKfi", 9000, BY_DECODE_SEQS, COMPUTE, { 1024, 1, 1 } },
    { "_ZN10flashinfer8sampling30TopKTopPSamplingFromProbKernelILj1024ELj1EfiEEvPfPij", 21000, BY_DECODE_SEQS, COMPUTE, { 1024, 1, 1 } },
};
#define TAIL_KERNELS (int)(sizeof TAIL / sizeof TAIL[0])

static uint64_t next_random(struct simgpu_model *m) {
    uint64_t x = m->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    m->rng = x;
    return x * 2685821657736338717ull;
}

void simgpu_model_init(struct simgpu_model *m, uint64_t seed, int kernels_per_step, int memcpys_per_step) {
    m->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
    m->compute = simcuda_stream_create();
    m->comm = simcuda_stream_create();
    m->copy = simcuda_stream_create();
    m->kernels_per_step = kernels_per_step;
    m->memcpys_per_step = memcpys_per_step;
    for (int i = 0; i < SIMGPU_GRAPH_BUCKETS; i++) m->graphs[i] = NULL;
    m->slow = NULL;
    m->slow_count = 0;
}

static int tail_of(int kernels_per_step) { return kernels_per_step >= 2 * TAIL_KERNELS ? TAIL_KERNELS : 0; }

/* The batch makes GEMMs and element-wise kernels longer roughly linearly in
 * tokens, with a floor: a small batch still pays for reading the weights. */
static uint64_t duration_of(struct simgpu_model *m, const struct kernel_kind *k, int prefill, int decode) {
    double tokens = prefill + decode;
    double factor;
    switch (k->scaling) {
    case BY_TOKENS: factor = 0.35 + tokens / 256.0 * 0.65; break;
    case BY_DECODE_SEQS: factor = 0.4 + (decode > 0 ? decode : 1) / 256.0 * 0.6; break;
    case BY_PREFILL_TOKENS: factor = 0.2 + prefill / 1024.0; break;
    default: factor = 1.0;
    }
    double jitter = 0.88 + (double)(next_random(m) % 2401) / 10000.0; /* 0.88 .. 1.12 */
    double ns = k->base_ns * factor * jitter;
    return ns < 1000 ? 1000 : (uint64_t)ns;
}

static void launch(struct simgpu_model *m, const struct kernel_kind *k, int prefill, int decode) {
    uint32_t rows = (uint32_t)(prefill + decode > 0 ? prefill + decode : 1);
    simcuda_dim3 grid = { k->lane == COMM ? 32 : (rows < 132 ? 132 : rows), k == &DECODE_ATTENTION ? 32 : 1, 1 };
    uint64_t ns = simgpu_slow_duration(m->slow, m->slow_count, k->name, duration_of(m, k, prefill, decode));
    if (k->lane == COMM && m->comm != m->compute && simgpu_rendezvous_active()) /* eager, not a graph's node */
        simgpu_rendezvous_allreduce(m->comm, k->name, grid, k->block, ns);
    else
        simcuda_launch_kernel(k->lane == COMM ? m->comm : m->compute, k->name, grid, k->block, ns);
}

/* `count` kernels of the layer template (cycling through layers), then the
 * tail when `with_tail`; exactly `count + (with_tail ? tail : 0)` launches. */
static uint64_t forward_pass(struct simgpu_model *m, int body, int tail, int prefill, int decode) {
    const struct kernel_kind *attention = prefill > 0 ? &PREFILL_ATTENTION : &DECODE_ATTENTION;
    for (int i = 0; i < body; i++) {
        int slot = i % LAYER_KERNELS;
        launch(m, slot == ATTENTION_SLOT ? attention : &LAYER[slot], prefill, decode);
    }
    for (int i = 0; i < tail; i++) launch(m, &TAIL[TAIL_KERNELS - tail + i], prefill, decode);
    return (uint64_t)(body + tail);
}

struct simgpu_step_result simgpu_model_step(struct simgpu_model *m, int prefill, int decode, int exact) {
    struct simgpu_step_result r = { 0, 0, 0 };
    int k = m->kernels_per_step;
    int tail = tail_of(k);
    int bucket = (decode + SIMGPU_GRAPH_BUCKET - 1) / SIMGPU_GRAPH_BUCKET - 1;
    simcuda_graph_exec graph = exact && prefill == 0 && bucket >= 0 && bucket < SIMGPU_GRAPH_BUCKETS ? m->graphs[bucket] : NULL;
    /* inputs (token ids, positions, block tables) go up first */
    int ups = m->memcpys_per_step >= 2 ? m->memcpys_per_step - 1 : m->memcpys_per_step;
    for (int i = 0; i < ups; i++, r.memcpys++)
        simcuda_memcpy(SIMCUDA_MEMCPY_HTOD, (uint64_t)(prefill + decode + 1) * 64 + 4096u * (unsigned)i, i == 0 ? m->compute : m->copy);
    if (graph != NULL) {
        simcuda_graph_launch(graph, m->compute);
        r.kernels += (uint64_t)k;
        r.memcpys++;
        r.graph_launches++;
    } else if (exact || prefill == 0) {
        r.kernels += forward_pass(m, k - tail, tail, prefill, decode);
    } else {
        /* chunked prefill: one full pass (K kernels) per 2048 prompt tokens;
         * the decode sequences ride on the last */
        int chunks = (prefill + 2047) / 2048;
        for (int c = 0; c < chunks; c++) {
            int last = c == chunks - 1;
            r.kernels += forward_pass(m, k - tail, tail, last ? prefill - 2048 * c : 2048, last ? decode : 0);
        }
    }
    /* sampled token ids come back */
    if (m->memcpys_per_step >= 2) {
        simcuda_memcpy(SIMCUDA_MEMCPY_DTOH, (uint64_t)(decode + 1) * 8, m->compute);
        r.memcpys++;
    }
    return r;
}

void simgpu_model_capture_graphs(struct simgpu_model *m) {
    int tail = tail_of(m->kernels_per_step);
    simcuda_stream comm = m->comm;
    m->comm = m->compute; /* a captured graph has one stream: the NCCL kernels join the others */
    for (int b = 0; b < SIMGPU_GRAPH_BUCKETS; b++) {
        if (simcuda_graph_begin_capture(m->compute) != 0) break;
        forward_pass(m, m->kernels_per_step - tail, tail, 0, (b + 1) * SIMGPU_GRAPH_BUCKET);
        simcuda_memset(4096, 0, m->compute);                      /* e.g. clearing the logits' padding */
        simcuda_memcpy(SIMCUDA_MEMCPY_DTOD, 65536, m->compute);   /* e.g. the sampled ids into the next input */
        simcuda_graph graph = simcuda_graph_end_capture(m->compute);
        m->graphs[b] = simcuda_graph_instantiate(graph);
        simcuda_graph_destroy(graph);
    }
    m->comm = comm;
}
