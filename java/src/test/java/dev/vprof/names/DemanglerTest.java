package dev.vprof.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DemanglerTest {
    /** A mangled name and what c++filt printed for it when the corpus was generated. */
    record Entry(String mangled, String expected) {}

    private static List<Entry> corpus;

    /**
     * The corpus is frozen (see names/gen/generate.sh) so these tests need neither g++ nor
     * c++filt on the machine that runs them.
     */
    @BeforeAll
    static void loadCorpus() throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (InputStream in = DemanglerTest.class.getResourceAsStream("/names/demangle-corpus.tsv")) {
            assertNotNull(in, "names/demangle-corpus.tsv is missing from the test classpath");
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                int tab = line.indexOf('\t');
                assertTrue(tab > 0, "malformed corpus line: " + line);
                entries.add(new Entry(line.substring(0, tab), line.substring(tab + 1)));
            }
        }
        corpus = List.copyOf(entries);
    }

    /**
     * Every entry must come out exactly as c++filt printed it, or unchanged (for what the
     * demangler deliberately refuses); a different demangling is never acceptable.
     */
    @Test
    void corpusMatchesCxxfiltOrIsLeftUnchanged() {
        assertTrue(corpus.size() >= 300, "corpus too small: " + corpus.size());
        int exact = 0;
        List<String> refused = new ArrayList<>();
        for (Entry e : corpus) {
            String actual = Demangler.demangle(e.mangled());
            if (actual.equals(e.expected())) {
                exact++;
            } else if (actual.equals(e.mangled())) {
                refused.add(e.mangled());
            } else {
                fail("wrong demangling of " + e.mangled() + "\n  c++filt: " + e.expected()
                        + "\n  actual:  " + actual);
            }
        }
        System.out.printf("Demangler corpus: %d of %d exactly as c++filt, %d left unchanged%n",
                exact, corpus.size(), refused.size());
        refused.forEach(name -> System.out.println("  unchanged: " + name));
        assertTrue(exact * 100 >= corpus.size() * 95,
                "only " + exact + " of " + corpus.size() + " demangled exactly");
    }

    @Test
    void vllmRmsNorm() {
        assertDemangles("_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_S6_fii",
                "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*,"
                        + " c10::BFloat16 const*, float, int, int)");
    }

    /** A pointer to a function template as a template argument, with substitutions across it. */
    @Test
    void vllmActAndMulWithFunctionPointerArgument() {
        assertDemangles(
                "_ZN4vllm18act_and_mul_kernelIN3c108BFloat16EXadL_ZNS_11silu_kernelIS2_EET_RKS4_EELb1EEEvPS4_PS5_i",
                "void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel"
                        + "<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*,"
                        + " c10::BFloat16 const*, int)");
    }

    @Test
    void ncclKernelWithUnsignedLongLiteral() {
        assertDemangles("_Z40ncclDevKernel_AllReduce_Sum_bf16_RING_LL24ncclDevKernelArgsStorageILm4096EE",
                "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    }

    @Test
    void flashAttentionIntAndBoolLiterals() {
        assertDemangles("_ZN5flash16flash_fwd_kernelILi128ELi128ELi64ELi4ELb1ELb0ELb1EEEvNS_16Flash_fwd_paramsE",
                "void flash::flash_fwd_kernel<128, 128, 64, 4, true, false, true>(flash::Flash_fwd_params)");
    }

    @Test
    void anonymousNamespace() {
        assertDemangles("_ZN2at6native12_GLOBAL__N_119cunn_SoftMaxForwardILi4EfffEEvPfPKfi",
                "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float>"
                        + "(float*, float const*, int)");
    }

    @Test
    void flashInferUnsignedLiterals() {
        assertDemangles("_ZN10flashinfer8sampling30TopKTopPSamplingFromProbKernelILj1024ELj1EfiEEvPfPij",
                "void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, 1u, float, int>"
                        + "(float*, int*, unsigned int)");
    }

    @Test
    void vllmPagedAttention() {
        assertDemangles("_ZN4vllm25paged_attention_v2_kernelIN3c108BFloat16ELi128ELi16ELi128ELi512EEEvPfi",
                "void vllm::paged_attention_v2_kernel<c10::BFloat16, 128, 16, 128, 512>(float*, int)");
    }

    @Test
    void enumLiteralAndManySubstitutions() {
        assertDemangles("_ZN4vllm25paged_attention_v1_kernelIN3c104HalfEhLi64ELi32ELi128ELNS_18Fp8KVCacheDataTypeE1"
                        + "ELb1ELi512EEEvPT_PKS4_PKT0_SA_ifPKiSC_iPKfiiiSE_SE_iiiii",
                "void vllm::paged_attention_v1_kernel<c10::Half, unsigned char, 64, 32, 128,"
                        + " (vllm::Fp8KVCacheDataType)1, true, 512>(c10::Half*, c10::Half const*,"
                        + " unsigned char const*, unsigned char const*, int, float, int const*,"
                        + " int const*, int, float const*, int, int, int, float const*,"
                        + " float const*, int, int, int, int, int)");
    }

    /** std:: abbreviations, and the "> >" c++filt keeps between closing brackets. */
    @Test
    void pytorchVectorizedElementwiseWithStdArray() {
        assertDemangles("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_",
                "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>,"
                        + " std::array<char*, 1ul> >(int, at::native::FillFunctor<float>,"
                        + " std::array<char*, 1ul>)");
    }

    /** A kernel instantiated with a lambda declared inside a function (g++-generated). */
    @Test
    void lambdaInsideFunctionAsTemplateArgument() {
        assertDemangles("_ZN2at6native29vectorized_elementwise_kernelILi4EZNS0_13fill_and_copyEvEUlffE_St5arrayIPcLm3EEEEviT0_T1_",
                "void at::native::vectorized_elementwise_kernel<4, at::native::fill_and_copy()::"
                        + "{lambda(float, float)#1}, std::array<char*, 3ul> >(int,"
                        + " at::native::fill_and_copy()::{lambda(float, float)#1},"
                        + " std::array<char*, 3ul>)");
    }

    /** A lambda inside a function template: T_ in the local function resolves to its own args. */
    @Test
    void lambdaInsideFunctionTemplate() {
        assertDemangles("_ZN2at6native18elementwise_kernelILi128ELi4EZNS0_10gpu_kernelINS0_10AbsFunctorIfEEEEvRNS_18"
                        + "TensorIteratorBaseERKT_EUliE_EEviT1_",
                "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel<at::native::"
                        + "AbsFunctor<float> >(at::TensorIteratorBase&, at::native::AbsFunctor<float>"
                        + " const&)::{lambda(int)#1}>(int, at::native::gpu_kernel<at::native::"
                        + "AbsFunctor<float> >(at::TensorIteratorBase&, at::native::AbsFunctor<float>"
                        + " const&)::{lambda(int)#1})");
    }

    @Test
    void literalsOfOtherTypes() {
        assertDemangles("_ZN2ns8by_valueILc97EEEvv", "void ns::by_value<(char)97>()");
        assertDemangles("_ZN2ns8by_valueILin5EEEvv", "void ns::by_value<-5>()");
        assertDemangles("_Z1fILf3f800000EEvv", "void f<(float)[3f800000]>()");
    }

    @Test
    void declaratorsOfFunctionPointersAndArrays() {
        assertDemangles("_Z1fIPFPFviEiEEvv", "void f<void (*(*)(int))(int)>()");
        assertDemangles("_Z1fIRA3_iEvv", "void f<int (&) [3]>()");
        assertDemangles("_Z1fM1AKFvvE", "f(void (A::*)() const)");
    }

    @Test
    void cloneSuffixesAsCxxfiltShowsThem() {
        assertDemangles("_Z1fv.constprop.0.isra.1", "f() [clone .constprop.0] [clone .isra.1]");
    }

    /**
     * Default c++filt refuses names over 1024 characters as a stack precaution; this class has
     * its own bounds and demangles them (as c++filt --no-recurse-limit does), up to MAX_INPUT.
     */
    @Test
    void namesLongerThanCxxfiltDefaultLimitAreDemangled() {
        Entry entry = corpus.stream()
                .filter(e -> e.mangled().length() > 1024 && !e.expected().equals(e.mangled()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("corpus lacks a name over 1024 characters"));
        assertEquals(entry.expected(), Demangler.demangle(entry.mangled()));
    }

    @Test
    void namesThatAreNotManglingsPassThrough() {
        for (String name : List.of(
                "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
                        + "execute_segment_k_off_kernel__5x_cublas",
                "triton_poi_fused_add_0", "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn",
                "", "_", "_Z", "Z1fv", "__Z1fv", "_R3foo", "main", "_Z1f v", "_Z1fv\u00e9",
                "_ZN3foo17h0123456789abcdefE")) {
            assertEquals(name, Demangler.demangle(name));
        }
    }

    @Test
    void malformedNamesAreUnchanged() {
        // each is rejected by c++filt too: a dangling reference, a truncation, junk after the end
        for (String name : List.of("_Z1", "_Z9foo", "_Z1fS_", "_Z1fT_", "_ZN1A1BC1Ev_",
                "_Z1fIiEvT0_", "_ZNSt", "_ZZ1fvE", "_Z1fPKK", "_Z2aaIEE", "_Z1fv.",
                "_Z1fPFviE_", "_Z1fLi1E")) {
            assertEquals(name, Demangler.demangle(name), name);
        }
    }

    @Test
    void nullIsRejected() {
        assertThrows(NullPointerException.class, () -> Demangler.demangle(null));
    }

    /**
     * Truncated names are what a damaged capture produces. Each prefix must demangle to
     * something or come back unchanged, without throwing; output that is not the prefix
     * itself must still respect the output bound.
     */
    @Test
    void everyPrefixOfEveryCorpusEntryIsSafe() {
        for (Entry e : corpus) {
            String name = e.mangled();
            for (int end = 0; end <= name.length(); end++) {
                String prefix = name.substring(0, end);
                String result = demangleWithoutThrowing(prefix);
                assertTrue(result.equals(prefix) || result.length() <= Demangler.MAX_OUTPUT, prefix);
            }
        }
    }

    /** Random edits of real names, with a fixed seed so a failure reproduces. */
    @Test
    void fuzzedNamesNeverThrowAndStayBounded() {
        Random random = new Random(0x5eed_cafeL);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.";
        String[] fragments = {"S_", "S0_", "T_", "T0_", "I", "E", "N", "Z", "L", "X", "J", "P",
                "R", "K", "F", "Dp", "Dv4_", "A3_", "M", "Ul", "UlvE_", "Ut_", "Li1E", "ad", "cl",
                "sr", "St", "Sa", "C1", "D0", "B5cxx11", "fp_", "DT", "Do", "v", "_0", ".isra.0"};
        for (int i = 0; i < 20_000; i++) {
            String name = corpus.get(random.nextInt(corpus.size())).mangled();
            int edits = 1 + random.nextInt(3);
            for (int k = 0; k < edits; k++) {
                name = mutate(name, random, alphabet, fragments);
            }
            String result = demangleWithoutThrowing(name);
            assertTrue(result.equals(name) || result.length() <= Demangler.MAX_OUTPUT, name);
        }
    }

    private static String mutate(String name, Random random, String alphabet, String[] fragments) {
        int at = name.length() <= 2 ? name.length() : 2 + random.nextInt(name.length() - 1);
        int to = Math.min(name.length(), at + 1 + random.nextInt(8));
        String head = name.substring(0, at);
        String tail = name.substring(at);
        return switch (random.nextInt(6)) {
            case 0 -> head + name.substring(Math.min(to, name.length())); // delete a run
            case 1 -> head + alphabet.charAt(random.nextInt(alphabet.length())) + tail;
            case 2 -> head + fragments[random.nextInt(fragments.length)] + tail;
            case 3 -> head + name.substring(at, to) + name.substring(at); // duplicate a run
            case 4 -> {
                String other = corpus.get(random.nextInt(corpus.size())).mangled();
                int from = Math.min(other.length(), 2 + random.nextInt(Math.max(1, other.length() - 2)));
                yield head + other.substring(from, Math.min(other.length(), from + 16)) + tail;
            }
            default -> tail.isEmpty() ? head : head + tail.substring(1); // delete one character
        };
    }

    /**
     * Each level refers twice to the level before it, so the printed form doubles per level
     * (2^40 template arguments here). It must be refused by the output bound, quickly.
     */
    @Test
    void exponentialSubstitutionsAreRefusedQuickly() {
        // S_ is A, S0_ is A<int, int>, and level n (counting from 0) becomes substitution n + 2
        assertRefusedQuickly(doubling("_Z1f1AIiiE", "S_", 1, ""));
    }

    /**
     * The same doubling built inside the pattern of a pack expansion that mentions no pack:
     * looking for the pack walks the whole unfolded tree before anything is printed, so only
     * the work bound can stop it.
     */
    @Test
    void exponentialSearchWithoutOutputIsRefusedQuickly() {
        // S_ is f, S0_ is B, S1_ is A, S2_ is A<int, int>; level n becomes substitution n + 4
        assertRefusedQuickly(doubling("_Z1fIJiEEvDp1BI1AIiiE", "S1_", 3, "E"));
    }

    /**
     * {@code head}, then 40 levels that each instantiate the template {@code template} refers to
     * with the level before twice (level n is substitution n + {@code previousOffset} + 1), then
     * {@code end}.
     */
    private static String doubling(String head, String template, int previousOffset, String end) {
        StringBuilder name = new StringBuilder(head);
        for (int level = 0; level < 40; level++) {
            String previous = seqId(level + previousOffset);
            name.append(template).append('I').append(previous).append(previous).append('E');
        }
        return name.append(end).toString();
    }

    /** The name comes back as it is (refused), within five seconds. */
    private static void assertRefusedQuickly(String mangled) {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertEquals(mangled, Demangler.demangle(mangled)));
    }

    /** How a reference to substitution number {@code n} (from 0) is spelled: S_, S0_, S1_... */
    private static String seqId(int n) {
        return n == 0 ? "S_" : "S" + Integer.toString(n - 1, 36).toUpperCase(Locale.ROOT) + "_";
    }

    @Test
    void deepNestingIsRefusedWithoutStackOverflow() {
        List<String> names = List.of(
                "_Z1f" + "P".repeat(4000) + "i",
                "_Z1f" + "P".repeat(100_000) + "i",
                "_Z1fI" + "1AI".repeat(800) + "i" + "E".repeat(801) + "vv",
                "_Z1f" + "N1a".repeat(1000) + "E",
                "_Z1fIXng" + "ng".repeat(1800) + "Li1EEEvv",
                "_Z" + "Z1fvE".repeat(800) + "1x");
        for (String name : names) {
            assertTrue(name.length() <= Demangler.MAX_INPUT || name.length() > 100_000, "test input");
            assertRefusedQuickly(name);
        }
    }

    /**
     * A chain of substitutions builds a tree far deeper than the input nests: each parameter
     * points at the previous one. Printing must refuse it rather than recurse a thousand deep.
     */
    @Test
    void deepTreeBuiltFromSubstitutionsIsRefused() {
        StringBuilder name = new StringBuilder("_Z1fPi");
        for (int i = 0; i < 700; i++) {
            name.append('P').append(seqId(i));
        }
        String mangled = name.toString();
        assertTrue(mangled.length() <= Demangler.MAX_INPUT);
        assertEquals(mangled, Demangler.demangle(mangled));
    }

    @Test
    void inputLongerThanMaxInputIsUnchanged() {
        String id = "k".repeat(Demangler.MAX_INPUT);
        String tooLong = "_Z" + id.length() + id + "v";
        assertEquals(tooLong, Demangler.demangle(tooLong));

        String fits = "k".repeat(Demangler.MAX_INPUT - 8);
        String justFits = "_Z" + fits.length() + fits + "v";
        assertTrue(justFits.length() <= Demangler.MAX_INPUT);
        assertEquals(fits + "()", Demangler.demangle(justFits));
    }

    /** Output over MAX_OUTPUT is refused, even when the input is well within bounds. */
    @Test
    void outputLongerThanMaxOutputIsUnchanged() {
        String id = "k".repeat(1000);
        String name = "_Z" + id.length() + id + "1AIiE" + "S0_".repeat(900);
        String result = Demangler.demangle(name);
        assertEquals(name, result);
    }

    /** No shared mutable state: many threads demangling the corpus agree with one thread. */
    @Test
    void concurrentCallsAgree() {
        List<String> sequential = corpus.stream().map(e -> Demangler.demangle(e.mangled())).toList();
        for (int round = 0; round < 4; round++) {
            List<String> parallel = corpus.parallelStream()
                    .map(e -> Demangler.demangle(e.mangled()))
                    .toList();
            assertEquals(sequential, parallel);
        }
    }

    private static void assertDemangles(String mangled, String expected) {
        assertEquals(expected, Demangler.demangle(mangled));
    }

    private static String demangleWithoutThrowing(String name) {
        try {
            String result = Demangler.demangle(name);
            assertNotNull(result, name);
            return result;
        } catch (RuntimeException | Error e) {
            throw new AssertionError("demangle threw for " + name, e);
        }
    }
}
