package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.output.Leftovers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer per output: an input is never its own output (by the file, hard links included), two
 * commands racing for one {@code -o} leave one whole file and one refusal, an unrelated
 * {@code OUT.part} is never touched.
 */
class OneWriterPerOutputTest {
    private static final Path TRACE = Path.of("../fixtures/real/hta/trace_diff/control/control.json.gz").toAbsolutePath();

    @TempDir
    static Path dir;
    static Path capture;

    @BeforeAll
    static void capture() {
        capture = dir.resolve("a.vprof");
        assertEquals(0, Cli.run("import", TRACE.toString(), "-o", capture.toString()).code());
    }

    private static void refusedAndUntouched(Path input, Cli.Result r, byte[] before) throws IOException {
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.err());
        assertTrue(r.err().contains("over its own input"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one sentence: " + r.err());
        assertArrayEquals(before, Files.readAllBytes(input), "the input is untouched");
    }

    @Test
    void anInputIsNeverItsOwnOutputEvenThroughAHardLinkOrAnotherSpelling() throws IOException {
        Path copy = dir.resolve("self/x.vprof");
        Files.createDirectories(copy.getParent());
        Files.copy(capture, copy);
        byte[] before = Files.readAllBytes(copy);
        refusedAndUntouched(copy, Cli.run("import", "--force", copy.toString(), "-o", copy.toString()), before);
        Path link = copy.resolveSibling("link.vprof");
        Files.createLink(link, copy);
        refusedAndUntouched(copy, Cli.run("import", "--force", copy.toString(), "-o", link.toString()), before);
        Path other = copy.resolveSibling("b.vprof");
        Files.copy(capture, other);
        byte[] otherBefore = Files.readAllBytes(other);
        refusedAndUntouched(other, Cli.run("merge", "--force", copy.toString(), other.toString(), "-o",
                copy.getParent().resolve("./b.vprof").toString()), otherBefore);
        refusedAndUntouched(copy, Cli.run("export", copy.toString(), "--force", "--format", "chrome", "-o",
                link.toString()), before);
        refusedAndUntouched(copy, Cli.run("report", copy.toString(), "--force", "--html", copy.toString()), before);
    }

    @Test
    void anUnrelatedPartFileBesideTheOutputIsNeverClobbered() throws IOException {
        Path out = dir.resolve("part/e.json");
        Files.createDirectories(out.getParent());
        Path part = out.resolveSibling("e.json.part");
        Files.writeString(part, "someone else's");
        assertEquals(0, Cli.run("export", capture.toString(), "-o", out.toString()).code());
        assertEquals("someone else's", Files.readString(part));
    }

    @Test
    void twentyRacesOfTwoExportsAndOfTwoImportsEachLeaveOneWholeFileAndOneRefusal() throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (int run = 0; run < 20; run++) {
            Path folder = Files.createDirectories(dir.resolve("race" + run));
            Path trace = folder.resolve("mix.json");
            race(List.of("export", capture.toString(), "-o", trace.toString()), trace);
            assertTrue(json.readTree(trace.toFile()).has("traceEvents"), "the Chrome JSON reads back whole");
            Path imported = folder.resolve("i.vprof");
            race(List.of("import", TRACE.toString(), "-o", imported.toString()), imported);
            Cli.Result r = Cli.run("report", imported.toString());
            assertEquals(ExitCode.OK.code(), r.code(), "the capture reads back whole: " + r.err());
            try (Stream<Path> s = Files.list(folder)) {
                assertEquals(List.of(), s.filter(Leftovers::isTemporary).toList());
            }
        }
    }

    /** Runs the command twice at once: one must write {@code out}, the other refuse it in one sentence. */
    private static void race(List<String> args, Path out) {
        String[] a = args.toArray(String[]::new);
        CompletableFuture<Cli.Result> one = CompletableFuture.supplyAsync(() -> Cli.run(a));
        CompletableFuture<Cli.Result> two = CompletableFuture.supplyAsync(() -> Cli.run(a));
        List<Cli.Result> both = List.of(one.join(), two.join());
        long ok = both.stream().filter(r -> r.code() == ExitCode.OK.code()).count();
        assertEquals(1, ok, both.toString());
        Cli.Result refused = both.stream().filter(r -> r.code() != ExitCode.OK.code()).findFirst().orElseThrow();
        assertEquals(ExitCode.CANNOT.code(), refused.code(), refused.err());
        assertTrue(refused.err().contains(out.toString()) && (refused.err().contains("already exists")
                || refused.err().contains("appeared while vprof was writing it")), refused.err());
        assertTrue(Files.isRegularFile(out));
    }
}
