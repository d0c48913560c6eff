package dev.vprof.diff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vprof.time.Selection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Base names, categories and request selections, against names written out by hand. */
class DiffNamesTest {
    @TempDir
    Path dir;

    @Test
    void baseNamesStripTemplatesArgumentsAndTheReturnType() {
        assertEquals("vllm::rms_norm_kernel",
                BaseNames.of("void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int)"));
        assertEquals("at::native::vectorized_elementwise_kernel", BaseNames.of(
                "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                        + "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"));
        assertEquals("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64",
                BaseNames.of("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"));
        assertEquals("flash::flash_fwd_kernel",
                BaseNames.of("void flash::flash_fwd_kernel<128, 128, 64, 4, true, false, true>(flash::Flash_fwd_params)"));
    }

    @Test
    void theDefaultCategoriesOfVllmsKernels() {
        Categories c = Categories.defaults();
        assertEquals("GEMM", c.of("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_kernel__5x_cublas"));
        assertEquals("attention", c.of("void flash::flash_fwd_kernel<128, 128, 64, 4, true, false, true>(flash::Flash_fwd_params)"));
        assertEquals("attention", c.of("void vllm::paged_attention_v2_kernel<c10::BFloat16, 128, 16, 128, 512>(float*, int)"));
        assertEquals("sampling", c.of("void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, 1u, float, int>(float*)"));
        assertEquals("all-reduce", c.of("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
        assertEquals("collective", c.of("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
        assertEquals("KV cache", c.of("void vllm::reshape_and_cache_kernel<c10::BFloat16, c10::BFloat16>(long const*, int, int)"));
        assertEquals("rotary", c.of("void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*)"));
        assertEquals("norm", c.of("void vllm::fused_add_rms_norm_kernel<c10::BFloat16>(c10::BFloat16*)"));
        assertEquals("elementwise", c.of("void vllm::act_and_mul_kernel<c10::BFloat16>(c10::BFloat16*)"));
        assertEquals("other", c.of("my_own_kernel"));
    }

    @Test
    void categoriesFromAFileReplaceTheDefaultsAndBadLinesAreNamed() throws IOException {
        Path f = dir.resolve("cats.txt");
        Files.writeString(f, "# mine\nmine my_\nGEMM gemm\n");
        Categories c = Categories.load(f);
        assertEquals("mine", c.of("my_own_kernel"));
        assertEquals("GEMM", c.of("sm90_xmma_gemm"));
        assertEquals("other", c.of("void vllm::rms_norm_kernel"));
        Files.writeString(f, "lonely\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Categories.load(f));
        assertEquals(true, e.getMessage().contains("line 1"), e.getMessage());
        Files.writeString(f, "bad [unclosed\n");
        assertThrows(IllegalArgumentException.class, () -> Categories.load(f));
    }

    @Test
    void theSlowestPercentOfRequestsAndTheRest() {
        long[] e2e = {50, 10, 40, 30, 20, 60, 70, 80, 90, 100};
        assertArrayEquals(new boolean[] {false, false, false, false, false, false, false, true, true, true},
                Selection.slowest(25).pick(e2e), "ceil(25 % of 10) = 3 slowest: 80, 90, 100");
        assertArrayEquals(new boolean[] {true, true, true, true, true, true, true, false, false, false},
                Selection.rest(25).pick(e2e));
        assertThrows(IllegalArgumentException.class, () -> Selection.slowest(0));
        assertThrows(IllegalArgumentException.class, () -> Selection.window(5, 5));
        assertEquals("0s..1.5s", Selection.window(0, 1_500_000_000L).describe());
    }

    @Test
    void escapingKeepsControlCharactersOffTheTerminal() {
        assertEquals("a\\u001b[31mb\\u000a", DiffText.escape("a\u001b[31mb\n"));
        assertEquals("plain", DiffText.escape("plain"));
    }

    /** Two long names differing only in a template argument past the cut: the difference stays in view. */
    @Test
    void namesThatShareALongPrefixKeepTheirDifferenceVisible() {
        String head = "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<c10::BFloat16,"
                + " c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<";
        String a = head + "float> >, at::detail::Array<char*, 3> >(int)";
        String b = head + "double> >, at::detail::Array<char*, 3> >(int)";
        String other = "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int)"
                + " and more text past the cut of one hundred characters";
        List<String> shown = DiffText.distinct(List.of(a, b, other, "short"), 100);
        assertEquals(false, shown.get(0).equals(shown.get(1)), shown.toString());
        assertEquals(true, shown.get(0).contains("float> >") && shown.get(1).contains("double> >"), shown.toString());
        assertEquals(true, shown.get(0).length() <= 100 && shown.get(1).length() <= 100, shown.toString());
        assertEquals(DiffText.shorten(other, 100), shown.get(2), "a name without a twin is cut as before");
        assertEquals("short", shown.get(3));
        assertEquals(a, DiffText.distinct(List.of(a, b), Integer.MAX_VALUE).getFirst(), "--long: in full");
    }
}
