package dev.vprof.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential check of {@link Demangler} against binutils' c++filt, on every prefix of the
 * corpus, random edits of it and random grammar-built names ({@code names/gen/random_names.py}):
 * each name must come out as c++filt prints it or unchanged, never differently. c++filt is the
 * oracle, run here and now, not a frozen file. Needs {@code c++filt} (binutils, which gcc brings)
 * and {@code python3}; under {@code CI=true} their absence fails the test instead of skipping it.
 * The seed is fixed so a failure reproduces; {@code crosscheck.sh SEED COUNT} runs other seeds.
 */
class DemanglerCrossCheckTest {
    static final int SEED = 1;
    static final int COUNT = 20_000;

    @TempDir
    Path tmp;

    @Test
    void everyNameIsAsCxxfiltPrintsItOrUnchanged() throws Exception {
        boolean tools = runs("c++filt", "--version") && runs("python3", "--version");
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(tools, "CI must run the demangler cross-check: c++filt (binutils) and python3 are needed");
        }
        assumeTrue(tools, "c++filt or python3 is missing: the cross-check against c++filt is skipped");
        Path gen = Path.of("src/test/resources/names/gen");
        Path names = tmp.resolve("names");
        Path expected = tmp.resolve("expected");
        run(List.of("python3", gen.resolve("random_names.py").toString(),
                gen.resolve("../demangle-corpus.tsv").toString(), Integer.toString(SEED), Integer.toString(COUNT)),
                null, names);
        run(List.of("c++filt", "--no-recurse-limit"), names, expected);
        List<String> in = Files.readAllLines(names, StandardCharsets.UTF_8);
        List<String> want = Files.readAllLines(expected, StandardCharsets.UTF_8);
        assertEquals(in.size(), want.size(), "c++filt prints one line per input line");
        assertTrue(in.size() > COUNT, "the generator made too few names: " + in.size());
        int same = 0;
        int unchanged = 0;
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            String actual = Demangler.demangle(in.get(i));
            if (actual.equals(want.get(i))) {
                same++;
            } else if (actual.equals(in.get(i))) {
                unchanged++;
            } else if (wrong.size() < 20) {
                wrong.add(in.get(i) + "\n  c++filt: " + want.get(i) + "\n  actual:  " + actual);
            }
        }
        System.out.printf("Demangler cross-check (seed %d): %d names, %d as c++filt, %d unchanged, %d wrong%n",
                SEED, in.size(), same, unchanged, wrong.size());
        if (!wrong.isEmpty()) {
            fail("names demangled differently from c++filt (seed " + SEED + "):\n" + String.join("\n", wrong));
        }
    }

    private static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void run(List<String> command, Path stdin, Path stdout) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        if (stdin != null) {
            pb.redirectInput(stdin.toFile());
        }
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed");
    }
}
