// Kernel shapes modelled on PyTorch's ATen CUDA kernels: elementwise kernels templated on
// functors and on lambdas defined inside (nested) dispatch lambdas, std::array of pointers,
// anonymous namespaces, reduction ops wrapping lambdas, and std library types.
#include <array>
#include <cstdint>
#include <tuple>
#include <utility>

namespace c10 {
struct BFloat16 { unsigned short x; };
struct Half { unsigned short x; };
template <typename T> struct complex { T re, im; };
template <typename T, unsigned N> struct SmallVector { T d[N]; };
}  // namespace c10

namespace at {
struct TensorIteratorBase {};
struct TensorIterator : TensorIteratorBase {};
namespace detail { template <typename T, int N> struct Array { T data[N]; }; }
namespace cuda { namespace detail { template <typename I> struct IntDivider { I d; }; } }

namespace native {
template <int NARGS, typename index_t = uint32_t, bool signed_strides = false>
struct OffsetCalculator { index_t sizes[25]; };
namespace memory {
struct LoadWithoutCast {};
struct StoreWithoutCast {};
struct LoadWithCast { int n; };
struct StoreWithCast { int n; };
}  // namespace memory
template <typename scalar_t> struct FillFunctor { scalar_t value; };
template <typename T> struct AbsFunctor { T operator()(T a) const { return a; } };
template <typename scalar_t, typename accscalar_t, typename index_t, int N>
struct ReduceOp { accscalar_t acc; };
template <typename acc_t, typename factor_t, typename out_t> struct MeanOps { factor_t f; };
template <typename acc_t> struct WelfordData { acc_t mean, m2; };
template <typename scalar_t, typename acc_scalar_t, typename index_t, typename combine_t,
          typename res_t>
struct WelfordOps { combine_t c; };
template <typename scalar_t, typename func_t> struct func_wrapper_t { func_t combine; };
template <typename scalar_t, typename func_t>
func_wrapper_t<scalar_t, func_t> func_wrapper(const func_t& op) { return {op}; }

template <int vec_size, typename func_t, typename array_t>
void vectorized_elementwise_kernel(int N, func_t f, array_t data) {}
template <int nt, int vt, typename func_t>
void elementwise_kernel(int N, func_t f) {}
template <typename func_t, typename array_t, typename inp_calc_t, typename out_calc_t,
          typename loader_t, typename storer_t>
void unrolled_elementwise_kernel(int N, func_t f, array_t data, inp_calc_t ic, out_calc_t oc,
                                 loader_t l, storer_t s) {}
template <int nt, int output_vec_size, typename R>
void reduce_kernel(R reduction) {}
template <typename func_t>
void gpu_kernel_impl(TensorIteratorBase& iter, const func_t& f) {}
template <typename func_t>
void gpu_kernel_impl_nocast(TensorIteratorBase& iter, const func_t& f) {}
template <typename func_t>
void gpu_kernel(TensorIteratorBase& iter, const func_t& f) {
  gpu_kernel_impl(iter, f);
  elementwise_kernel<128, 4>(0, [=](int idx) { (void)idx; (void)f; });
}

void direct_copy_kernel_cuda(TensorIteratorBase& iter) {
  [&] {
    [&] { gpu_kernel_impl_nocast(iter, [] (c10::BFloat16 x) { return x; }); }();
    [&] { gpu_kernel_impl_nocast(iter, [] (float x) { return x; }); }();
    [&] { gpu_kernel_impl_nocast(iter, [] (c10::complex<double> x) { return x; }); }();
  }();
}

void abs_kernel_cuda(TensorIteratorBase& iter) {
  gpu_kernel(iter, AbsFunctor<float>());
  gpu_kernel(iter, AbsFunctor<c10::Half>());
  [&]() { gpu_kernel(iter, [] (int8_t a) -> int8_t { return a; }); }();
}

template <typename scalar_t, typename acc_t = float, typename out_t = scalar_t>
struct sum_functor {
  void operator()(TensorIterator& iter) {
    reduce_kernel<512, 1>(ReduceOp<scalar_t, func_wrapper_t<out_t, decltype([](acc_t a, acc_t b) { return a + b; })>, uint32_t, 4>{});
  }
};
template struct sum_functor<float, float, float>;
template struct sum_functor<c10::BFloat16, float, c10::BFloat16>;

void mean_kernel_cuda(TensorIterator& iter) {
  reduce_kernel<512, 1>(ReduceOp<float, MeanOps<float, float, float>, uint32_t, 4>{});
  reduce_kernel<256, 2>(ReduceOp<c10::Half, MeanOps<float, float, c10::Half>, uint64_t, 2>{});
  reduce_kernel<512, 1>(ReduceOp<double, WelfordOps<double, double, int, float, std::pair<double, double>>, uint32_t, 1>{});
}

namespace {
template <int ILP, typename scalar_t, typename accscalar_t, typename outscalar_t,
          template <typename, typename, typename> class Epilogue>
void cunn_SoftMaxForward(outscalar_t* output, const scalar_t* input, int classes) {}
template <typename T, typename AccumT, typename OutT> struct SoftMaxForwardEpilogue { AccumT m; };
template <typename T, typename AccumT, typename OutT> struct LogSoftMaxForwardEpilogue { AccumT m; };
template <typename scalar_t>
void indexSelectLargeIndex(cuda::detail::IntDivider<unsigned int> d, scalar_t* out, int64_t dim,
                           const scalar_t* src) {}
struct FusedSgdMathFunctor {};
}  // namespace

template <typename T, int depth> struct TensorListMetadata { void* addresses[depth][110]; };
template <typename T, typename U, typename... ArgTypes>
void multi_tensor_apply_kernel(T tensorListMeta, U callable, ArgTypes... args) {}

void softmax_and_friends() {
  cunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue>(nullptr, nullptr, 0);
  cunn_SoftMaxForward<8, c10::BFloat16, float, c10::BFloat16, LogSoftMaxForwardEpilogue>(nullptr, nullptr, 0);
  indexSelectLargeIndex<float>({}, nullptr, 0, nullptr);
  multi_tensor_apply_kernel(TensorListMetadata<float, 4>{}, FusedSgdMathFunctor{}, 0.5, 1.0f, true, (float*)nullptr);
  multi_tensor_apply_kernel(TensorListMetadata<c10::Half, 2>{}, FusedSgdMathFunctor{});
}

void fill_and_copy() {
  vectorized_elementwise_kernel<4>(0, FillFunctor<float>{}, std::array<char*, 1>{});
  vectorized_elementwise_kernel<2>(0, FillFunctor<c10::complex<float>>{}, std::array<char*, 1>{});
  vectorized_elementwise_kernel<4>(0, AbsFunctor<double>{}, std::array<char*, 2>{});
  unrolled_elementwise_kernel(0, FillFunctor<bool>{}, std::array<char*, 1>{},
                              OffsetCalculator<0, unsigned int, false>{},
                              OffsetCalculator<1, unsigned int, false>{},
                              memory::LoadWithoutCast{}, memory::StoreWithoutCast{});
  unrolled_elementwise_kernel(0, AbsFunctor<int64_t>{}, detail::Array<char*, 2>{},
                              OffsetCalculator<1, uint32_t, true>{},
                              OffsetCalculator<1, uint32_t, true>{},
                              memory::LoadWithCast{}, memory::StoreWithCast{});
  auto lam = [](float a, float b) -> float { return a * b; };
  vectorized_elementwise_kernel<4>(0, lam, std::array<char*, 3>{});
  elementwise_kernel<128, 2>(0, [=](int) { (void)lam; });
  std::tuple<float, int64_t> t;
  elementwise_kernel<64, 4>(0, t);
}
}  // namespace native
}  // namespace at
