package dev.vprof.names;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The demangler reads kernel names out of capture files, which may be damaged or hostile.
 * Contract: it never throws, and what it returns is either the input unchanged or a text no
 * longer than {@link Demangler#MAX_OUTPUT}.
 */
class DemanglerFuzzTest {
    static Stream<Arguments> seeds() {
        // The corpus the demangler is checked against (name TAB c++filt's output), names only.
        String corpus = new String(dev.vprof.testing.FuzzSeeds.resource("/names/demangle-corpus.tsv"),
                StandardCharsets.UTF_8);
        return corpus.lines().filter(l -> l.startsWith("_Z")).limit(400)
                .map(l -> l.substring(2, l.indexOf('\t') < 0 ? l.length() : l.indexOf('\t')))
                .map(n -> Arguments.of((Object) n.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void demanglingNeverThrowsAndStaysBounded(byte[] input) {
        // Every input is a mangled-looking name: the fuzzer need not discover the prefix.
        String name = "_Z" + new String(input, StandardCharsets.ISO_8859_1);
        String out = Demangler.demangle(name);
        assertTrue(out.equals(name) || out.length() <= Demangler.MAX_OUTPUT,
                () -> "output of " + out.length() + " chars for " + name);
    }
}
