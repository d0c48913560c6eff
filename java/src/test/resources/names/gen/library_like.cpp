// Kernel shapes modelled on CUB/Thrust internals, Marlin/GPTQ/AWQ quantized GEMMs, Mamba's
// selective scan and causal conv1d, Apex/Megatron fused layer norm, and sampling/top-k:
// policy structs, iterator adaptors, functors with static members, many integer template
// parameters and kernels templated on traits classes.
#include <cstddef>
#include <cstdint>

// CUDA's vector type, as the kernels see it.
struct int4 { int x, y, z, w; };

namespace c10 { struct BFloat16 { unsigned short x; }; struct Half { unsigned short x; }; }

namespace thrust {
template <typename T> struct device_ptr { T* p; };
template <typename T> struct plus {};
template <typename T> struct maximum {};
template <typename Iter> struct counting_iterator { Iter i; };
template <typename It, typename F> struct transform_iterator { It it; F f; };
namespace cuda_cub {
namespace __uninitialized_fill { template <typename It, typename T> struct functor { It it; T v; }; }
namespace __transform {
struct no_stencil_tag {};
struct always_true_predicate {};
template <typename InIt, typename OutIt, typename F, typename Pred>
struct unary_transform_f { InIt in; OutIt out; F f; };
}  // namespace __transform
namespace __parallel_for { template <typename F, typename Size> struct ParallelForAgent {}; }
namespace core {
template <typename Agent, typename F, typename Size>
void _kernel_agent(F f, Size num_items) {}
}  // namespace core
}  // namespace cuda_cub
}  // namespace thrust

namespace cub {
inline namespace CUB_200200_800_NS {
struct NullType {};
struct Sum {};
struct Max {};
template <typename T> struct DeviceReducePolicy { struct Policy600 {}; };
template <typename T, typename O> struct DeviceScanPolicy { struct Policy600 {}; };
template <typename K, typename V, typename O> struct DeviceRadixSortPolicy { struct Policy800 {}; };
template <typename T, typename O> struct ScanTileState {};
template <typename It> struct ArgIndexInputIterator { It it; };
template <typename T> struct KeyValuePair { int key; T value; };
template <typename ChainedPolicyT, typename InputIteratorT, typename OutputIteratorT,
          typename OffsetT, typename ReductionOpT, typename InitT = NullType>
void DeviceReduceKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items,
                        ReductionOpT reduction_op) {}
template <typename ChainedPolicyT, typename InputIteratorT, typename OutputIteratorT,
          typename OffsetT, typename ReductionOpT, typename InitT>
void DeviceReduceSingleTileKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items,
                                  ReductionOpT reduction_op, InitT init) {}
template <typename ChainedPolicyT, typename InputIteratorT, typename OutputIteratorT,
          typename ScanTileStateT, typename ScanOpT, typename InitValueT, typename OffsetT>
void DeviceScanKernel(InputIteratorT d_in, OutputIteratorT d_out, ScanTileStateT tile_state,
                      int start_tile, ScanOpT scan_op, InitValueT init_value, OffsetT num_items) {}
template <typename ScanTileStateT>
void DeviceScanInitKernel(ScanTileStateT tile_state, int num_tiles) {}
template <typename ChainedPolicyT, bool IS_DESCENDING, typename KeyT, typename ValueT,
          typename OffsetT, typename PortionOffsetT, typename AtomicOffsetT = PortionOffsetT>
void DeviceRadixSortOnesweepKernel(AtomicOffsetT* d_lookback, AtomicOffsetT* d_ctrs,
                                   OffsetT* d_bins_out, const OffsetT* d_bins_in, KeyT* d_keys_out,
                                   const KeyT* d_keys_in, ValueT* d_values_out,
                                   const ValueT* d_values_in, PortionOffsetT num_items,
                                   int current_bit, int num_bits) {}
template <typename T> void EmptyKernel() {}
}  // namespace CUB_200200_800_NS
}  // namespace cub

namespace marlin {
template <typename scalar_t, int num_bits, int threads, int thread_m_blocks, int thread_n_blocks,
          int thread_k_blocks, bool m_block_size_8, int stages, bool has_act_order,
          bool has_zp, int group_blocks, bool is_zp_float>
void Marlin(const int4* A, const int4* B, int4* C, int4* C_tmp, const int4* scales_ptr,
            const int4* zp_ptr, const int* g_idx, int num_groups, int prob_m, int prob_n,
            int prob_k, int lda, int* locks, bool use_atomic_add, bool use_fp32_reduce) {}
}  // namespace marlin

namespace vllm { namespace gptq {
template <bool first_m_block, int m_count>
void gemm_half_q_half_gptq_4bit_kernel(const c10::Half* a, const uint32_t* b_q_weight,
                                       const uint32_t* b_gptq_qzeros,
                                       const c10::Half* b_gptq_scales, c10::Half* c,
                                       const int size_m, const int size_n, const int size_k,
                                       const int groups, const int* b_q_perm) {}
} namespace awq {
template <int N>
void gemm_forward_4bit_cuda_m16nXk32(int G, int split_k_iters, c10::Half* __restrict__ A,
                                     int* __restrict__ B, c10::Half* __restrict__ scaling_factors,
                                     int* __restrict__ zeros, int M, int IC, int OC,
                                     c10::Half* __restrict__ C) {}
} }  // namespace vllm::awq

template <int kNThreads_, int kNItems_, int kNRows_, bool kIsEvenLen_, bool kIsVariableB_,
          bool kIsVariableC_, bool kHasZ_, typename input_t_, typename weight_t_>
struct Selective_Scan_fwd_kernel_traits {};
struct SSMParamsBase { int batch; };
template <typename Ktraits> void selective_scan_fwd_kernel(SSMParamsBase params) {}
template <int kNThreads_, int kWidth_, bool kIsVecLoad_, typename input_t_, typename weight_t_>
struct Causal_conv1d_fwd_kernel_traits {};
struct ConvParamsBase { int batch; };
template <typename Ktraits> void causal_conv1d_fwd_kernel(ConvParamsBase params) {}

namespace {
template <typename T, typename U, typename V>
void cuApplyLayerNorm(V* __restrict__ output_vals, U* __restrict__ mean, U* __restrict__ invvar,
                      const T* __restrict__ vals, const int n1, const int n2, const U epsilon,
                      const V* __restrict__ gamma, const V* __restrict__ beta) {}
template <typename T, typename U, typename V>
void cuComputeGradInput(const V* __restrict__ dout, const T* __restrict__ input, const int n1,
                        const int n2, const U* __restrict__ mean, const U* __restrict__ invvar,
                        U epsilon, const V* gamma, T* grad_input) {}
}  // namespace

namespace megatron { namespace fused_softmax {
template <typename input_t, typename output_t, typename acc_t, int log2_elements>
void scaled_masked_softmax_warp_forward(output_t* dst, const input_t* src, const uint8_t* mask,
                                        const acc_t scale, int micro_batch_size, int element_count,
                                        int pad_batches) {}
template <typename input_t, typename output_t, typename acc_t, int log2_elements>
void scaled_upper_triang_masked_softmax_warp_forward(output_t* dst, const input_t* src,
                                                     const input_t scale, int micro_batch_size,
                                                     int stride, int element_count) {}
} }  // namespace megatron::fused_softmax

namespace at { namespace native { namespace sbtopk {
template <typename T, typename IndexType, int Dim, bool WithKthValues>
void gatherTopKSelf(T* self,
                IndexType inputSliceSize, IndexType outputSliceSize, bool largest,
                IndexType numInputSlices, IndexType inputWithinSliceStride) {}
template <typename T, typename IndexType, int Dim>
void gatherTopK(T* input, IndexType inputSliceSize, IndexType outputSliceSize, bool largest,
                IndexType numInputSlices, IndexType inputWithinSliceStride, T* topK,
                IndexType topKWithinSliceStride, int64_t* indices,
                IndexType indicesWithinSliceStride, T* kthValues) {}
} } }  // namespace at::native::sbtopk

struct SumOp { template <typename T> T operator()(T a, T b) const { return a + b; } };

void instantiate_libraries() {
  using namespace thrust;
  using namespace thrust::cuda_cub;
  core::_kernel_agent<__parallel_for::ParallelForAgent<__uninitialized_fill::functor<device_ptr<float>, float>, unsigned long>,
                      __uninitialized_fill::functor<device_ptr<float>, float>, unsigned long>({}, 0);
  core::_kernel_agent<__parallel_for::ParallelForAgent<__transform::unary_transform_f<device_ptr<int>, device_ptr<long>, __transform::no_stencil_tag, __transform::always_true_predicate>, long>,
                      __transform::unary_transform_f<device_ptr<int>, device_ptr<long>, __transform::no_stencil_tag, __transform::always_true_predicate>, long>({}, 0);
  using namespace cub;
  DeviceReduceKernel<DeviceReducePolicy<float>::Policy600, float*, float*, int, Sum>(nullptr, nullptr, 0, {});
  DeviceReduceKernel<DeviceReducePolicy<KeyValuePair<float>>::Policy600, ArgIndexInputIterator<const float*>, KeyValuePair<float>*, int, Max>({}, nullptr, 0, {});
  DeviceReduceSingleTileKernel<DeviceReducePolicy<double>::Policy600, double*, double*, unsigned long, Sum, double>(nullptr, nullptr, 0, {}, 0.0);
  DeviceScanKernel<DeviceScanPolicy<int, Sum>::Policy600, const int*, long*, ScanTileState<long, long>, Sum, NullType, int>(nullptr, nullptr, {}, 0, {}, {}, 0);
  DeviceScanInitKernel(ScanTileState<int, int>{}, 0);
  DeviceRadixSortOnesweepKernel<DeviceRadixSortPolicy<float, long, int>::Policy800, true, float, long, int, int, int>(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0);
  DeviceRadixSortOnesweepKernel<DeviceRadixSortPolicy<c10::BFloat16, short, unsigned int>::Policy800, false, c10::BFloat16, short, unsigned int, int>((int*)nullptr, (int*)nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0);
  EmptyKernel<void>();
  marlin::Marlin<c10::Half, 4, 256, 1, 8, 8, false, 4, false, false, -1, false>(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0, 0, 0, nullptr, false, false);
  marlin::Marlin<c10::BFloat16, 8, 128, 4, 4, 8, true, 4, true, true, 8, false>(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0, 0, 0, nullptr, true, true);
  vllm::gptq::gemm_half_q_half_gptq_4bit_kernel<true, 4>(nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0, 0, nullptr);
  vllm::awq::gemm_forward_4bit_cuda_m16nXk32<128>(0, 0, nullptr, nullptr, nullptr, nullptr, 0, 0, 0, nullptr);
  selective_scan_fwd_kernel<Selective_Scan_fwd_kernel_traits<128, 16, 1, true, true, true, true, c10::BFloat16, float>>({});
  causal_conv1d_fwd_kernel<Causal_conv1d_fwd_kernel_traits<128, 4, true, c10::Half, c10::Half>>({});
  cuApplyLayerNorm<c10::BFloat16, float, c10::BFloat16>(nullptr, nullptr, nullptr, nullptr, 0, 0, 0.f, nullptr, nullptr);
  cuComputeGradInput<float, float, float>(nullptr, nullptr, 0, 0, nullptr, nullptr, 0.f, nullptr, nullptr);
  megatron::fused_softmax::scaled_masked_softmax_warp_forward<c10::Half, c10::Half, float, 11>(nullptr, nullptr, nullptr, 0.f, 0, 0, 0);
  megatron::fused_softmax::scaled_upper_triang_masked_softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 13>(nullptr, nullptr, {}, 0, 0, 0);
  at::native::sbtopk::gatherTopK<float, unsigned int, 2>(nullptr, 0, 0, true, 0, 0, nullptr, 0, nullptr, 0, nullptr);
  at::native::sbtopk::gatherTopK<c10::Half, unsigned long, -1>(nullptr, 0, 0, false, 0, 0, nullptr, 0, nullptr, 0, nullptr);
  SumOp op; (void)op(1, 2); (void)op(1.5, 2.5);
}
