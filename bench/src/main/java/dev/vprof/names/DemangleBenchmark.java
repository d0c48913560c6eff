package dev.vprof.names;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What demangling one kernel name costs. {@code report} and {@code export} demangle each
 * distinct name once per pass (not once per kernel), so this times the per-name work: a
 * typical vLLM kernel, and a long CUTLASS 3 GEMM kernel (719 mangled chars).
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar DemangleBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx256m")
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class DemangleBenchmark {
    static final String VLLM = "_ZN4vllm18act_and_mul_kernelIN3c108BFloat16EXadL_ZNS_11silu_kernelIS2_EET_RKS4_EELb1EEEvPS4_PS5_i";
    static final String CUTLASS = "_ZN7cutlass13device_kernelINS_4gemm6kernel13GemmUniversalIN4cute5tupleIJiiiiEEENS1_10colle"
            + "ctive13CollectiveMmaINS7_34MainloopSm90TmaGmmaWarpSpecializedILi4ENS5_IJNS4_1CILi2EEENSA_I"
            + "Li1EEESC_EEENS7_35KernelTmaWarpSpecializedCooperativeEEENS5_IJNSA_ILi128EEESG_NSA_ILi64EEE"
            + "EEENS_10bfloat16_tENS5_IJlSC_lEEESJ_SK_NS4_8TiledMMAIJNS4_8MMA_AtomINS4_29SM90_64x128x16_F"
            + "32BF16BF16_SSEEENS4_6LayoutISD_NS5_IJSC_NSA_ILi0EEESQ_EEEEEEEENS4_13SM90_TMA_LOADENS4_14Co"
            + "mposedLayoutIJNS4_7SwizzleILi3ELi4ELi3EEENS4_8smem_ptrISJ_EENSP_INS5_IJSH_NSA_ILi8EEEEEENS"
            + "5_IJSH_SC_EEEEEEEEvN8identity8IdentityISJ_EESU_S14_vS17_EENS_8epilogue6thread17LinearCombi"
            + "nationISJ_Li8EffLi0ELNS_15FloatRoundStyleE2EEENS2_19PersistentSchedulerEvEEEEvNT_6ParamsE";

    /** A refused name would come back at once: time only names that really demangle. */
    @Setup
    public void check() {
        for (String name : new String[] {VLLM, CUTLASS}) {
            if (Demangler.demangle(name).equals(name)) {
                throw new IllegalStateException("not demangled: " + name);
            }
        }
    }

    @Benchmark
    public String vllmKernel() {
        return Demangler.demangle(VLLM);
    }

    @Benchmark
    public String cutlassKernel() {
        return Demangler.demangle(CUTLASS);
    }
}
