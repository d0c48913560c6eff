package dev.vprof.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's own text says what it means without a tracker to look things up in, and holds no
 * path of the machine it was written on: no tracker wording (the word "issue" with a number, or
 * pointing at "this" one: a reader of the tree has no tracker; external threads are cited with
 * their address and number, {@code #N}), and no
 * absolute home or checkout folder (a log or a test fixture that carries one points at a machine
 * nobody else has). Third-party data (fixtures/) is theirs as published and is left out.
 */
class RepositoryTextTest {
    /** The repository's root: Maven runs the tests in java/. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Built or fetched, not written: never in a clean checkout's text. */
    private static final Set<String> SKIPPED = Set.of(".git", "target", "node_modules", "fixtures", "shared");
    /** Pieced together so that this file does not hold what it looks for. */
    private static final Pattern TRACKER = Pattern.compile("(?i)\\b(this " + "issue|iss" + "ue [0-9]+)\\b");
    private static final Pattern MACHINE_PATH = Pattern.compile("(/wo" + "rk/|/ho" + "me/[a-z]|/Us" + "ers/|/ro" + "ot/)");

    static List<Path> textFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(ROOT)) {
            s.filter(p -> !skipped(p) && Files.isRegularFile(p)).forEach(files::add);
        }
        List<Path> text = new ArrayList<>();
        for (Path f : files) {
            if (isText(f)) {
                text.add(f);
            }
        }
        return text;
    }

    private static boolean skipped(Path p) {
        for (Path part : ROOT.relativize(p)) {
            if (SKIPPED.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    /** A file without a NUL byte in its first 8 KiB is text (what git's own heuristic decides). */
    private static boolean isText(Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            for (byte b : in.readNBytes(8192)) {
                if (b == 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<String> lines(Pattern p) throws IOException {
        List<String> hits = new ArrayList<>();
        for (Path f : textFiles()) {
            String[] lines = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                Matcher m = p.matcher(lines[i]);
                if (m.find()) {
                    hits.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + m.group());
                }
            }
        }
        return hits;
    }

    @Test
    void theTextFilesAreFound() throws IOException {
        List<Path> files = textFiles();
        assertTrue(files.contains(ROOT.resolve("README.md")), "the README is among the text files walked");
        assertTrue(files.size() > 200, files.size() + " text files");
        assertFalse(files.stream().anyMatch(f -> f.toString().endsWith(".sqlite")), "a database is not text");
    }

    @Test
    void thePatternsCatchWhatTheyAreFor() {
        assertTrue(TRACKER.matcher("as in iss" + "ue 2").find());
        assertTrue(TRACKER.matcher("before this " + "Issue,").find());
        assertFalse(TRACKER.matcher("pytorch/pytorch issue #144455").find(), "an external thread, cited by number");
        assertTrue(MACHINE_PATH.matcher("file:/wo" + "rk/wt/e2e/bench/target/benchmarks.jar").find());
        assertTrue(MACHINE_PATH.matcher("/ho" + "me/alice/venv").find());
        assertFalse(MACHINE_PATH.matcher("-o /tmp/x.pftrace").find(), "a scratch path in an example is fine");
    }

    @Test
    void noTextNamesATrackerIssue() throws IOException {
        assertEquals(List.of(), lines(TRACKER));
    }

    @Test
    void noTextHoldsAPathOfTheMachineItWasWrittenOn() throws IOException {
        assertEquals(List.of(), lines(MACHINE_PATH));
    }
}
