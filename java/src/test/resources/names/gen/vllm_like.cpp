// Kernel shapes modelled on vLLM's CUDA kernels: templates over scalar types, head sizes,
// block sizes and bools, pointer-to-function template arguments, enums and nested
// namespaces. Only the mangled names matter; the functions are declared or trivial.
#include <cstddef>
#include <cstdint>

namespace c10 {
struct BFloat16 { unsigned short x; };
struct Half { unsigned short x; };
struct Float8_e4m3fn { unsigned char x; };
struct Float8_e5m2 { unsigned char x; };
template <typename T> struct complex { T re, im; };
}  // namespace c10

namespace vllm {
enum class Fp8KVCacheDataType { kAuto = 0, kFp8E4M3 = 1, kFp8E5M2 = 2 };

template <typename T> T silu_kernel(const T& x);
template <typename T> T gelu_kernel(const T& x);
template <typename T> T gelu_tanh_kernel(const T& x);
template <typename T> T gelu_new_kernel(const T& x);

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&), bool act_first>
void act_and_mul_kernel(scalar_t* out, const scalar_t* input, const int d);
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&)>
void activation_kernel(scalar_t* out, const scalar_t* input, const int d);

template <typename scalar_t>
void rms_norm_kernel(scalar_t* out, const scalar_t* input, const scalar_t* weight,
                     const float epsilon, const int num_tokens, const int hidden_size);
template <typename scalar_t, int width>
void fused_add_rms_norm_kernel(scalar_t* input, scalar_t* residual, const scalar_t* weight,
                               const float epsilon, const int num_tokens, const int hidden_size);

template <typename scalar_t, bool IS_NEOX>
void rotary_embedding_kernel(const int64_t* positions, scalar_t* query, scalar_t* key,
                             const scalar_t* cos_sin_cache, const int rot_dim,
                             const int64_t query_stride, const int64_t key_stride,
                             const int num_heads, const int num_kv_heads, const int head_size);

template <typename scalar_t, typename cache_t, int HEAD_SIZE, int BLOCK_SIZE, int NUM_THREADS,
          Fp8KVCacheDataType KV_DTYPE, bool IS_BLOCK_SPARSE, int PARTITION_SIZE = 0>
void paged_attention_v1_kernel(scalar_t* out, const scalar_t* q, const cache_t* k_cache,
                               const cache_t* v_cache, const int num_kv_heads, const float scale,
                               const int* block_tables, const int* seq_lens,
                               const int max_num_blocks_per_seq, const float* alibi_slopes,
                               const int q_stride, const int kv_block_stride,
                               const int kv_head_stride, const float* k_scale,
                               const float* v_scale, const int tp_rank,
                               const int blocksparse_local_blocks,
                               const int blocksparse_vert_stride,
                               const int blocksparse_block_size,
                               const int blocksparse_head_sliding_step);
template <typename scalar_t, int HEAD_SIZE, int NUM_THREADS, int PARTITION_SIZE>
void paged_attention_v2_reduce_kernel(scalar_t* out, const float* exp_sums,
                                      const float* max_logits, const scalar_t* tmp_out,
                                      const int* seq_lens, const int max_num_partitions);

template <typename scalar_t, typename cache_t, Fp8KVCacheDataType kv_dt>
void reshape_and_cache_flash_kernel(const scalar_t* key, const scalar_t* value,
                                    cache_t* key_cache, cache_t* value_cache,
                                    const int64_t* slot_mapping, const int64_t block_stride,
                                    const int key_stride, const int value_stride,
                                    const int num_heads, const int head_size,
                                    const int block_size, const float* k_scale,
                                    const float* v_scale);
template <typename scalar_t>
void copy_blocks_kernel(int64_t* key_cache_ptrs, int64_t* value_cache_ptrs,
                        const int64_t* block_mapping, const int numel_per_block);

namespace moe {
template <typename scalar_t, typename token_cnts_t>
void moe_align_block_size_kernel(scalar_t* __restrict__ topk_ids, int32_t* sorted_token_ids,
                                 int32_t* expert_ids, int32_t* total_tokens_post_pad,
                                 int32_t num_experts, int32_t block_size, size_t numel);
template <typename scalar_t, int TOPK>
void moe_sum_kernel(scalar_t* __restrict__ out, const scalar_t* __restrict__ input, const int d);
template <int TPB>
void moeSoftmax(const float* input, const bool* finished, float* output, const int num_cols);
template <int VPT, int NUM_EXPERTS, int WARPS_PER_CTA, int BYTES_PER_LDG, typename IndType>
void topkGatingSoftmax(const float* input, const bool* finished, float* output,
                       const int num_rows, IndType* indices, int* source_rows, const int k,
                       const int start_expert, const int end_expert);
}  // namespace moe

template <typename scalar_t, typename fp8_type>
void scaled_fp8_quant_kernel(fp8_type* __restrict__ out, const scalar_t* __restrict__ input,
                             const float* __restrict__ scale, int64_t num_elems);
template <typename scalar_t, typename fp8_type>
void dynamic_per_token_scaled_fp8_quant_kernel(fp8_type* __restrict__ out,
                                               float* __restrict__ scale,
                                               scalar_t const* __restrict__ input,
                                               float const* __restrict__ scale_ub,
                                               const int hidden_size);
template <typename T, int N> struct alignas(16) vec_n_t { T val[N]; };
template <typename T, int N>
void vectorize_with_alignment(const vec_n_t<T, N>& in, vec_n_t<T, N>& out);

namespace detail { template <typename T, typename U> struct Pair { T a; U b; }; }
template <typename T>
void all_reduce_one_shot(detail::Pair<T, int>* p, T const* const* in, T* out, int size);
template <typename T, int ngpus>
void cross_device_reduce_1stage(void* _dp, void* _sg, void* self_sg, T* __restrict__ result,
                                int rank, int size);
}  // namespace vllm

using namespace vllm;
using c10::BFloat16;
using c10::Half;

void instantiate_vllm() {
  BFloat16* b = nullptr;
  Half* h = nullptr;
  float* f = nullptr;
  act_and_mul_kernel<BFloat16, silu_kernel<BFloat16>, true>(b, b, 0);
  act_and_mul_kernel<Half, silu_kernel<Half>, true>(h, h, 0);
  act_and_mul_kernel<float, gelu_kernel<float>, false>(f, f, 0);
  act_and_mul_kernel<BFloat16, gelu_tanh_kernel<BFloat16>, true>(b, b, 0);
  activation_kernel<BFloat16, gelu_new_kernel<BFloat16>>(b, b, 0);
  activation_kernel<float, silu_kernel<float>>(f, f, 0);
  rms_norm_kernel<BFloat16>(b, b, b, 0, 0, 0);
  rms_norm_kernel<Half>(h, h, h, 0, 0, 0);
  rms_norm_kernel<float>(f, f, f, 0, 0, 0);
  fused_add_rms_norm_kernel<BFloat16, 8>(b, b, b, 0, 0, 0);
  fused_add_rms_norm_kernel<Half, 0>(h, h, h, 0, 0, 0);
  rotary_embedding_kernel<BFloat16, true>(nullptr, b, b, b, 0, 0, 0, 0, 0, 0);
  rotary_embedding_kernel<float, false>(nullptr, f, f, f, 0, 0, 0, 0, 0, 0);
  paged_attention_v1_kernel<BFloat16, BFloat16, 128, 16, 128, Fp8KVCacheDataType::kAuto, false>(
      b, b, b, b, 0, 0, nullptr, nullptr, 0, nullptr, 0, 0, 0, nullptr, nullptr, 0, 0, 0, 0, 0);
  paged_attention_v1_kernel<Half, unsigned char, 64, 32, 128, Fp8KVCacheDataType::kFp8E4M3, true,
                            512>(h, h, nullptr, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, 0,
                                 0, 0, nullptr, nullptr, 0, 0, 0, 0, 0);
  paged_attention_v2_reduce_kernel<BFloat16, 128, 128, 512>(b, f, f, b, nullptr, 0);
  reshape_and_cache_flash_kernel<BFloat16, BFloat16, Fp8KVCacheDataType::kAuto>(
      b, b, b, b, nullptr, 0, 0, 0, 0, 0, 0, nullptr, nullptr);
  reshape_and_cache_flash_kernel<Half, unsigned char, Fp8KVCacheDataType::kFp8E5M2>(
      h, h, nullptr, nullptr, nullptr, 0, 0, 0, 0, 0, 0, nullptr, nullptr);
  copy_blocks_kernel<BFloat16>(nullptr, nullptr, nullptr, 0);
  moe::moe_align_block_size_kernel<int, unsigned short>(nullptr, nullptr, nullptr, nullptr, 0, 0, 0);
  moe::moe_align_block_size_kernel<long, int>(nullptr, nullptr, nullptr, nullptr, 0, 0, 0);
  moe::moe_sum_kernel<BFloat16, 2>(b, b, 0);
  moe::moeSoftmax<256>(f, nullptr, f, 0);
  moe::topkGatingSoftmax<8, 64, 4, 16, int>(f, nullptr, f, 0, nullptr, nullptr, 0, 0, 0);
  moe::topkGatingSoftmax<2, 8, 4, 8, unsigned int>(f, nullptr, f, 0, nullptr, nullptr, 0, 0, 0);
  scaled_fp8_quant_kernel<BFloat16, c10::Float8_e4m3fn>(nullptr, b, f, 0);
  dynamic_per_token_scaled_fp8_quant_kernel<Half, c10::Float8_e5m2>(nullptr, f, h, f, 0);
  vec_n_t<BFloat16, 8> v8;
  vectorize_with_alignment<BFloat16, 8>(v8, v8);
  all_reduce_one_shot<float>(nullptr, nullptr, f, 0);
  cross_device_reduce_1stage<BFloat16, 8>(nullptr, nullptr, nullptr, b, 0, 0);
  cross_device_reduce_1stage<c10::complex<float>, 2>(nullptr, nullptr, nullptr, nullptr, 0, 0);
}
