// Kernel shapes modelled on CUTLASS 2.x/3.x and CuTe: deeply nested class templates,
// integral-constant wrappers, tuples built from parameter packs, enum and bool arguments,
// and a single kernel entry point templated on the operator type.
#include <cstdint>

namespace cute {
template <int v> struct C { static constexpr int value = v; };
template <class... T> struct tuple {};
template <class Shape, class Stride> struct Layout {};
template <class... Layouts> struct ComposedLayout {};
template <int B, int M, int S> struct Swizzle {};
template <class T> struct ViewEngine {};
template <class Engine, class Layout> struct Tensor {};
template <class T> struct smem_ptr { T* p; };
template <class T> struct gmem_ptr { T* p; };
struct SM90_TMA_LOAD {};
struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL {};
template <class Op, class Type = void> struct Copy_Atom {};
template <class... Args> struct TiledMMA {};
template <class MMAOp> struct MMA_Atom {};
struct SM80_16x8x16_F32BF16BF16F32_TN {};
struct SM90_64x128x16_F32BF16BF16_SS {};
using _1 = C<1>;
using _2 = C<2>;
using _64 = C<64>;
using _128 = C<128>;
}  // namespace cute

namespace cutlass {
struct bfloat16_t { uint16_t s; };
struct half_t { uint16_t s; };
struct float_e4m3_t { uint8_t s; };
template <typename T, int N, bool R = true> struct Array { T d[N]; };
template <int M, int N, int K> struct GemmShape {};
namespace layout { struct RowMajor {}; struct ColumnMajor {}; }
namespace arch { struct Sm80 {}; struct Sm90 {}; struct OpMultiplyAdd {}; }
enum class FloatRoundStyle { round_indeterminate, round_toward_zero, round_to_nearest };
namespace epilogue {
namespace thread {
template <typename ElementOutput, int Count, typename ElementAccumulator = ElementOutput,
          typename ElementCompute = ElementOutput, int Scale = 0,
          FloatRoundStyle Round = FloatRoundStyle::round_to_nearest>
struct LinearCombination {};
}  // namespace thread
}  // namespace epilogue
namespace gemm {
enum class GemmUniversalMode { kGemm, kGemmSplitKParallel, kBatched, kArray };
namespace threadblock {
template <int N> struct GemmIdentityThreadblockSwizzle {};
template <typename Shape, typename WarpShape, typename InstructionShape, typename ElementA,
          typename LayoutA, typename ElementB, typename LayoutB, typename ElementC,
          typename LayoutC, typename OperatorClass, int Stages, typename Operator>
struct DefaultMmaCore {};
template <typename Shape, typename Policy, int Stages, typename Enable = bool>
struct MmaMultistage {};
}  // namespace threadblock
namespace kernel {
template <typename Mma, typename Epilogue, typename ThreadblockSwizzle, bool SplitKSerial>
struct Gemm { struct Params { int m; }; };
template <typename ProblemShape, typename CollectiveMainloop, typename CollectiveEpilogue,
          typename TileScheduler = void, typename Enable = void>
struct GemmUniversal { struct Params { int m; }; };
struct PersistentScheduler {};
template <class TileShape, class ClusterShape> struct PersistentTileSchedulerSm90StreamK {};
}  // namespace kernel
namespace collective {
template <int Stages, class ClusterShape, class KernelSchedule> struct MainloopSm90TmaGmmaWarpSpecialized {};
template <class DispatchPolicy, class TileShape, class ElementA, class StrideA, class ElementB,
          class StrideB, class TiledMma, class GmemTiledCopyA, class SmemLayoutAtomA,
          class SmemCopyAtomA, class TransformA, class GmemTiledCopyB, class SmemLayoutAtomB,
          class SmemCopyAtomB, class TransformB>
struct CollectiveMma {};
struct KernelTmaWarpSpecializedCooperative {};
}  // namespace collective
}  // namespace gemm

template <typename Operator> void Kernel(typename Operator::Params params) {}
template <typename Operator> void Kernel2(typename Operator::Params params) {}
template <typename Operator> void device_kernel(typename Operator::Params const params) {}
}  // namespace cutlass

namespace identity { template <class T> struct Identity {}; }
namespace cutlass { namespace epilogue { namespace thread {
template <class T> struct SiLu {};
} } }

namespace cutlass { namespace epilogue {
namespace fusion {
template <class ElementOutput, class ElementCompute, class ElementSource = ElementOutput,
          class ElementScalar = ElementCompute,
          FloatRoundStyle RoundStyle = FloatRoundStyle::round_to_nearest>
struct LinearCombination {};
template <class DispatchPolicy, class Operation, class CtaTileShapeMNK, class EpilogueTile,
          class... Args>
struct FusionCallbacks {};
template <template <class> class ActivationFn, class ElementOutput, class ElementCompute,
          class ElementBias = ElementOutput, class ElementSource = ElementOutput,
          class ElementScalar = ElementCompute, int AlignmentBias = 128 / 16,
          FloatRoundStyle RoundStyle = FloatRoundStyle::round_to_nearest>
struct LinCombPerRowBiasEltAct {};
}  // namespace fusion
namespace collective {
template <int StagesC, int StagesD, int FragmentSize, bool ReuseSmemC, bool DelayTmaStore>
struct Sm90TmaWarpSpecialized {};
template <class DispatchPolicy, class... Args> struct CollectiveEpilogue {};
}  // namespace collective
} }  // namespace cutlass::epilogue

void instantiate_cutlass() {
  using namespace cutlass;
  using Mma = gemm::threadblock::MmaMultistage<GemmShape<128, 128, 32>,
      gemm::threadblock::DefaultMmaCore<GemmShape<128, 128, 32>, GemmShape<64, 64, 32>,
          GemmShape<16, 8, 16>, bfloat16_t, layout::RowMajor, bfloat16_t, layout::ColumnMajor,
          float, layout::RowMajor, arch::Sm80, 3, arch::OpMultiplyAdd>, 3>;
  using Epi = epilogue::thread::LinearCombination<bfloat16_t, 8, float, float>;
  using K1 = gemm::kernel::Gemm<Mma, Epi, gemm::threadblock::GemmIdentityThreadblockSwizzle<1>, false>;
  Kernel<K1>({});
  Kernel2<gemm::kernel::Gemm<Mma, epilogue::thread::LinearCombination<half_t, 8, half_t, float, 1, FloatRoundStyle::round_toward_zero>,
                             gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, true>>({});

  using namespace cute;
  using TileShape = tuple<_128, _128, _64>;
  using StrideA = tuple<int64_t, _1, int64_t>;
  using Mainloop = gemm::collective::CollectiveMma<
      gemm::collective::MainloopSm90TmaGmmaWarpSpecialized<4, tuple<_2, _1, _1>,
          gemm::collective::KernelTmaWarpSpecializedCooperative>,
      TileShape, bfloat16_t, StrideA, bfloat16_t, StrideA,
      TiledMMA<MMA_Atom<SM90_64x128x16_F32BF16BF16_SS>, Layout<tuple<_2, _1, _1>, tuple<_1, C<0>, C<0>>>>,
      SM90_TMA_LOAD, ComposedLayout<Swizzle<3, 4, 3>, smem_ptr<bfloat16_t>, Layout<tuple<_64, C<8>>, tuple<_64, _1>>>,
      void, identity::Identity<bfloat16_t>, SM90_TMA_LOAD,
      ComposedLayout<Swizzle<3, 4, 3>, smem_ptr<bfloat16_t>, Layout<tuple<_64, C<8>>, tuple<_64, _1>>>,
      void, identity::Identity<bfloat16_t>>;
  using K3 = gemm::kernel::GemmUniversal<tuple<int, int, int, int>, Mainloop, Epi,
                                         gemm::kernel::PersistentScheduler>;
  device_kernel<K3>({});
  Kernel2<gemm::kernel::GemmUniversal<tuple<int, int, int>, Mainloop, Epi>>({});

  // The CUTLASS 3 shape with a fused epilogue: long enough (over 1024 characters) that
  // c++filt only demangles it with --no-recurse-limit.
  using EpiPolicy = epilogue::collective::Sm90TmaWarpSpecialized<4, 2, 16, true, false>;
  using Fusion = epilogue::fusion::FusionCallbacks<EpiPolicy,
      epilogue::fusion::LinCombPerRowBiasEltAct<epilogue::thread::SiLu, half_t, float,
                                                 float_e4m3_t>,
      TileShape, tuple<_64, C<32>>>;
  using Epi3 = epilogue::collective::CollectiveEpilogue<EpiPolicy, TileShape, tuple<_64, C<32>>,
      bfloat16_t, StrideA, bfloat16_t, StrideA, Fusion, SM90_TMA_LOAD, SM90_TMA_LOAD>;
  Kernel2<gemm::kernel::GemmUniversal<tuple<int, int, int, int>, Mainloop, Epi3,
      gemm::kernel::PersistentTileSchedulerSm90StreamK<tuple<_128, C<256>, C<96>>,
                                                       tuple<C<4>, C<2>, C<8>, C<16>>>>>({});
}
