package dev.vprof.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KernelNamesTest {
    private static final String RMS_NORM = "_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_S6_fii";
    private static final String RMS_NORM_SHOWN = "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, "
            + "c10::BFloat16 const*, c10::BFloat16 const*, float, int, int)";

    @Test
    void mangledNamesAreDemangledOnceAndOthersPassThrough() {
        KernelNames names = KernelNames.demangled();
        assertEquals(RMS_NORM_SHOWN, names.show(RMS_NORM));
        assertSame(names.show(RMS_NORM), names.show(RMS_NORM), "remembered, not demangled again");
        assertEquals("sm90_xmma_gemm_bf16bf16_bf16f32", names.show("sm90_xmma_gemm_bf16bf16_bf16f32"));
    }

    @Test
    void mangledKeepsCuptisNames() {
        assertEquals(RMS_NORM, KernelNames.of(true).show(RMS_NORM));
        assertEquals(RMS_NORM_SHOWN, KernelNames.of(false).show(RMS_NORM));
    }

    @Test
    void namesThatDemangleBeyondTheBudgetStayMangled() {
        // Each name is short, but its demangled form is long: what is shown is bounded, so a
        // hostile capture cannot make a report or an export hold unbounded memory.
        KernelNames names = KernelNames.demangled();
        int count = 7000;
        long shownChars = 0;
        int keptMangled = 0;
        for (int i = 1; i <= count; i++) {
            String raw = longDemangling(i);
            String shown = names.show(raw);
            shownChars += shown.length();
            keptMangled += shown.equals(raw) ? 1 : 0;
        }
        assertTrue(keptMangled > 0, "the budget ran out before the last names");
        assertTrue(keptMangled < count, "the first names were demangled");
        assertTrue(shownChars <= KernelNames.MAX_CHARS + 100L * count, "chars shown: " + shownChars);
    }

    /** A distinct mangled name of about 100 chars that demangles to about 5600. */
    private static String longDemangling(int i) {
        // f<ns::A<i>, void (*)(X, X), void (*)(Y, Y), ...>() where each function pointer type takes
        // two of the previous one through a substitution: each level doubles what is printed.
        String cls = "A" + i;
        StringBuilder sb = new StringBuilder("_Z1fIN2ns").append(cls.length()).append(cls).append('E');
        for (String sub : new String[] {"S0_", "S2_", "S4_", "S6_", "S8_", "SA_", "SC_", "SE_"}) {
            sb.append("PFv").append(sub).append(sub).append('E');
        }
        return sb.append("EvT_").toString();
    }
}
