package dev.vprof.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No source file in {@code java/src/main} passes 700 lines, so that each unit can be read whole.
 * The demangler's parser and printer are the exception: each is one grammar (the Itanium C++ ABI's
 * mangling), kept whole so that it reads against the specification; the names package says so.
 */
class FileLengthTest {
    static final int MOST_LINES = 700;
    /** Kept long on purpose, with the reason written in their package-info. */
    static final Set<String> ALLOWED = Set.of(
            "dev/vprof/names/DemangleParser.java",
            "dev/vprof/names/DemanglePrinter.java");

    @Test
    void noMainFileOtherThanTheDemanglersPassesSevenHundredLines() throws IOException {
        Path root = Path.of("src/main/java");
        List<String> tooLong;
        try (Stream<Path> files = Files.walk(root)) {
            tooLong = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !ALLOWED.contains(root.relativize(p).toString()))
                    .filter(p -> lines(p) > MOST_LINES)
                    .map(p -> root.relativize(p) + " (" + lines(p) + " lines)")
                    .sorted()
                    .toList();
        }
        assertEquals(List.of(), tooLong, "split these along their stages");
    }

    @Test
    void theExceptionsStillExistAndSayWhyTheyAreLong() throws IOException {
        Path root = Path.of("src/main/java");
        for (String f : ALLOWED) {
            assertTrue(Files.exists(root.resolve(f)), f + " is gone: take it off the list");
        }
        String info = Files.readString(root.resolve("dev/vprof/names/package-info.java"));
        assertTrue(info.contains("Itanium C++ ABI") && info.contains("kept whole"), info);
    }

    private static long lines(Path p) {
        try (Stream<String> s = Files.lines(p)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
