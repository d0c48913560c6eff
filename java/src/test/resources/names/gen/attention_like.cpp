// Kernel shapes modelled on FlashAttention, FlashInfer and NCCL: kernels templated on a
// traits class plus bool switches, enum-valued template arguments, unsigned literals,
// plain (non-template) kernels taking structs by value, and kernels templated on sizes.
#include <cstdint>

namespace flash {
struct Flash_fwd_params { int b; };
struct Flash_bwd_params { int b; };
template <int kHeadDim_, int kBlockM_, int kBlockN_, int kNWarps_, bool Is_Q_in_regs_ = false,
          bool Share_Q_K_smem_ = false, typename elem_type = uint16_t>
struct Flash_fwd_kernel_traits {};
template <typename Kernel_traits, bool Is_dropout, bool Is_causal, bool Is_local, bool Has_alibi,
          bool Is_even_MN, bool Is_even_K, bool Is_softcap, bool Return_softmax>
void flash_fwd_kernel(Flash_fwd_params params) {}
template <typename Kernel_traits, bool Is_causal, bool Is_local, bool Has_alibi, bool Is_even_MN,
          bool Is_even_K, bool Is_softcap, bool Split, bool Append_KV>
void flash_fwd_splitkv_kernel(const Flash_fwd_params params) {}
template <typename Kernel_traits, int kBlockM, int Log_max_splits, bool Is_even_K>
void flash_fwd_splitkv_combine_kernel(const Flash_fwd_params params) {}
template <int kHeadDim, int kBlockM, int kBlockN, bool Is_dropout>
void flash_fwd_kernel(Flash_fwd_params params) {}
}  // namespace flash

namespace flashinfer {
enum class MaskMode { kNone = 0U, kCausal = 1U, kCustom = 2U };
enum class PosEncodingMode { kNone = 0U, kRoPELlama = 1U, kALiBi = 2U };
namespace sampling {
template <uint32_t BLOCK_THREADS, int SCAN_ALGORITHM, int REDUCE_ALGORITHM, uint32_t VEC_SIZE,
          bool DETERMINISTIC, typename DType, typename IdType>
void TopKTopPSamplingFromProbKernel(DType* probs, IdType* output, IdType* top_k_arr,
                                    float* top_p_arr, uint32_t d) {}
template <uint32_t BLOCK_THREADS, typename DType, typename IdType>
void TopKTopPSamplingFromProbKernel(DType* probs, IdType* output, uint32_t d) {}
}  // namespace sampling
namespace norm {
template <uint32_t VEC_SIZE, typename T>
void RMSNormKernel(T* __restrict__ input, T* __restrict__ weight, T* __restrict__ output,
                   const uint32_t d, float eps) {}
}  // namespace norm
template <typename KTraits, typename Params> struct AttentionKernel {};
template <MaskMode MASK_MODE, PosEncodingMode POS_ENCODING_MODE, uint32_t NUM_MMA_Q,
          uint32_t NUM_MMA_D, uint32_t NUM_MMA_KV, uint32_t NUM_WARPS_Q, uint32_t NUM_WARPS_KV,
          typename DTypeQ, typename DTypeKV, typename DTypeO, typename IdType>
void BatchPrefillWithPagedKVCacheKernel(IdType* __restrict__ request_indices, DTypeQ* q,
                                        DTypeKV* kv, DTypeO* o, float* lse,
                                        const float logits_soft_cap) {}
template <bool partition_kv, PosEncodingMode pos_encoding_mode, uint32_t num_stages_smem,
          uint32_t tile_size_per_bdx, uint32_t vec_size, uint32_t bdx, uint32_t bdy,
          uint32_t bdz, typename AttentionVariant, typename Params>
void BatchDecodeWithPagedKVCacheKernel(const Params params) {}
template <typename T> struct DefaultAttention { T t; };
struct BatchDecodeParams { int x; };
}  // namespace flashinfer

struct ncclDevComm;
template <unsigned long long N> struct ncclDevKernelArgsStorage { unsigned char b[N]; };
extern "C++" {
void ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096> args) {}
void ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096> args) {}
void ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096> args) {}
void ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul> const args) {}
void ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm* comm, uint64_t channelMask, void* workHead) {}
}

namespace deep_gemm {
enum class GemmType { Normal, GroupedContiguous, GroupedMasked };
template <uint32_t SHAPE_N, uint32_t SHAPE_K, uint32_t BLOCK_M, uint32_t BLOCK_N,
          uint32_t BLOCK_K, uint32_t kNumGroups, uint32_t kNumStages, uint32_t kNumTMAMulticast,
          GemmType kGemmType>
void fp8_gemm_kernel(float* scales_b, int* grouped_layout, uint32_t shape_m) {}
}  // namespace deep_gemm

void instantiate_attention() {
  using namespace flash;
  flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, uint16_t>, false, true,
                   false, false, true, true, false, false>({});
  flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4>, true, false, false, true, false,
                   true, true, false>({});
  flash_fwd_kernel<128, 128, 64, true>({});
  flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<256, 64, 64, 4, true, true, int16_t>, true,
                           false, false, true, true, false, true, false>({});
  flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4>, 16, 4, true>({});
  using namespace flashinfer;
  sampling::TopKTopPSamplingFromProbKernel<1024, 1, 2, 4, true, float, int>(nullptr, nullptr,
                                                                            nullptr, nullptr, 0);
  sampling::TopKTopPSamplingFromProbKernel<1024u, float, int>(nullptr, nullptr, 0);
  norm::RMSNormKernel<8, uint16_t>(nullptr, nullptr, nullptr, 0, 0);
  BatchPrefillWithPagedKVCacheKernel<MaskMode::kCausal, PosEncodingMode::kNone, 1, 8, 4, 1, 4,
                                     uint16_t, uint16_t, uint16_t, int>(nullptr, nullptr,
                                                                        nullptr, nullptr,
                                                                        nullptr, 0);
  BatchDecodeWithPagedKVCacheKernel<true, PosEncodingMode::kRoPELlama, 2, 4, 8, 16, 1, 2,
                                    DefaultAttention<float>, BatchDecodeParams>({});
  deep_gemm::fp8_gemm_kernel<4096, 7168, 128, 160, 128, 1, 5, 2, deep_gemm::GemmType::GroupedMasked>(nullptr, nullptr, 0);
  deep_gemm::fp8_gemm_kernel<2112, 7168, 64, 112, 128, 1, 8, 1, deep_gemm::GemmType::Normal>(nullptr, nullptr, 0);
}
