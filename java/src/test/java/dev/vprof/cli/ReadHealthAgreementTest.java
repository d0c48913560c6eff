package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ChunkInfo;
import dev.vprof.html.Html;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Read health is judged once: each damaged or incomplete copy of one real capture (taken through
 * the agent on the CUPTI test double) gets the same exit code and the same sentence from every
 * command that reads it: report (text, --json, --html), export to each format, import, diff, merge
 * and replay. The sentence is checked against what the test itself did to the file (where it cut,
 * which byte it flipped); a live capture (a writer's lock held by another process, util-linux
 * flock(1)) is read as live and exits 0 everywhere.
 */
@Timeout(900)
class ReadHealthAgreementTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Path whole;
    private static List<ChunkInfo> chunks;

    @BeforeAll
    static void aCapture() throws IOException {
        E2e e2e = E2e.nativeParts();
        whole = dir.resolve("whole.vprof");
        E2e.run(List.of("-o", whole.toString()), e2e.sim("--steps", "1000", "--kernels-per-step", "40"));
        try (CaptureReader r = CaptureReader.open(whole)) {
            chunks = List.copyOf(r.chunks());
        }
        assertTrue(chunks.stream().filter(c -> c.kind() == CaptureFormat.KIND_RECORDS).count() >= 2,
                "a capture of several RECORDS chunks: " + chunks);
    }

    /** Each way a capture can be damaged or incomplete, made from the whole one, and what its sentence says. */
    // Immutable in fact: each make is a lambda that only copies its input, each says a List.of.
    @SuppressWarnings("ImmutableEnumChecker")
    enum Damage {
        CUT_INSIDE_THE_HEADER(b -> Arrays.copyOf(b, 10),
                "it ends at byte 10, inside its 16-byte file header: the rest of the file after byte 10 is missing",
                "nothing in it was readable"),
        CUT_AT_BYTE_16(b -> Arrays.copyOf(b, 16),
                "it was never closed by its writer, which is no longer running",
                "whatever it would have written after byte 16 is missing", "nothing in it was readable"),
        METADATA_ONLY(b -> Arrays.copyOf(b, (int) end(first(CaptureFormat.KIND_METADATA))),
                "it was never closed by its writer", "covers the 1 whole chunk read"),
        CUT_MID_CHUNK(b -> Arrays.copyOf(b, (int) midRecords()),
                "in the middle of a chunk (cut short): the rest of the file after byte", "is missing"),
        BAD_CHECKSUM(b -> {
            byte[] c = b.clone();
            c[(int) (records(1).offset() + CaptureFormat.CHUNK_HEADER_SIZE + 64)] ^= 0x5a;
            return c;
        }, "1 damaged chunk (", "was skipped"),
        NEVER_CLOSED(b -> Arrays.copyOf(b, (int) end(chunks.getLast())),
                "it was never closed by its writer, which is no longer running"),
        LIVE(b -> Arrays.copyOf(b, (int) end(chunks.getLast())));

        final Function<byte[], byte[]> make;
        final List<String> says;

        Damage(Function<byte[], byte[]> make, String... says) {
            this.make = make;
            this.says = List.of(says);
        }
    }

    private static ChunkInfo first(int kind) {
        return chunks.stream().filter(c -> c.kind() == kind).findFirst().orElseThrow();
    }

    private static ChunkInfo records(int i) {
        return chunks.stream().filter(c -> c.kind() == CaptureFormat.KIND_RECORDS).toList().get(i);
    }

    private static long end(ChunkInfo c) {
        return c.offset() + CaptureFormat.CHUNK_HEADER_SIZE + ((c.length() + 7L) & ~7L); // payloads are padded to 8 bytes
    }

    private static long midRecords() {
        ChunkInfo c = records(1);
        return c.offset() + CaptureFormat.CHUNK_HEADER_SIZE + c.length() / 2 + 4;
    }

    /** One command's run over the input: what it returned and what it said. */
    private record Seen(String command, Cli.Result result, String sentence) {}

    @ParameterizedTest
    @EnumSource(Damage.class)
    void everyCommandGivesTheSameExitCodeAndTheSameSentence(Damage damage) throws Exception {
        Path file = dir.resolve(damage.name().toLowerCase(Locale.ROOT) + ".vprof");
        Files.write(file, damage.make.apply(Files.readAllBytes(whole)));
        Process holder = null;
        if (damage == Damage.LIVE) {
            holder = new ProcessBuilder("flock", "--exclusive", "--close", file.toString(), "sleep", "120")
                    .redirectErrorStream(true).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!lockHeld(file) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
        try {
            check(damage, file);
        } finally {
            if (holder != null) {
                holder.descendants().forEach(ProcessHandle::destroyForcibly);
                holder.destroyForcibly().waitFor();
            }
        }
    }

    /** Whether flock(1) took its lock yet: a lock taken without waiting fails while it is held. */
    private static boolean lockHeld(Path file) throws Exception {
        Process p = new ProcessBuilder("flock", "--shared", "--nonblock", file.toString(), "true").start();
        return p.waitFor() != 0;
    }

    private void check(Damage damage, Path file) throws IOException {
        String f = file.toString();
        String tag = damage.name().toLowerCase(Locale.ROOT);
        Path out = Files.createDirectories(dir.resolve(tag));
        List<Seen> seen = new ArrayList<>();

        Cli.Result text = Cli.run("report", f);
        seen.add(new Seen("report", text, line(text, "vprof report: ")));
        Cli.Result json = Cli.run("report", "--json", f);
        JsonNode health = JSON.readTree(json.out()).get("read_health");
        assertNotNull(health, "report --json carries read_health: " + json.out());
        seen.add(new Seen("report --json", json, health.get("summary").isNull() ? null : health.get("summary").asText()));
        Path page = out.resolve("page.html");
        Cli.Result html = Cli.run("report", f, "--html", page.toString());
        seen.add(new Seen("report --html", html, line(html, "vprof report: ")));
        for (String target : List.of("t.pftrace", "t.json", "k/t.json", "t.sqlite")) {
            Path o = out.resolve(target);
            Files.createDirectories(o.getParent());
            List<String> args = new ArrayList<>(List.of("export", f, "-o", o.toString()));
            if (target.startsWith("k/")) {
                args.addAll(List.of("--format", "kineto"));
            }
            Cli.Result x = Cli.run(args.toArray(String[]::new));
            seen.add(new Seen("export " + target, x, line(x, "vprof export: ")));
        }
        Cli.Result imp = Cli.run("import", f, "-o", out.resolve("kept.vprof").toString());
        seen.add(new Seen("import", imp, line(imp, "vprof import: ")));
        Cli.Result diff = Cli.run("diff", whole.toString(), f);
        seen.add(new Seen("diff", diff, line(diff, "vprof diff: the new side, ")));
        Path tar = out.resolve("m.tar");
        Cli.Result merge = Cli.run("merge", "--force", whole.toString(), f, "-o", tar.toString()); // copies of one capture
        seen.add(new Seen("merge", merge, line(merge, "vprof merge: the capture of node 1, ")));
        Cli.Result replay = Cli.run("simulate", "--replay", f);
        seen.add(new Seen("simulate --replay", replay, line(replay, "vprof simulate: ")));

        if (damage == Damage.LIVE) {
            for (Seen s : seen) {
                assertTrue(s.result().code() != ExitCode.READ_PARTLY.code() && s.result().code() != ExitCode.CANNOT.code(),
                        s.command() + " of a live capture is not read partly: " + s.result().err());
                assertEquals(null, s.sentence(), s.command() + ": " + s.result().err());
            }
            assertTrue(text.err().contains("vprof: warning: " + f + " is a live capture, still being written"), text.err());
            assertTrue(health.get("live_capture").asBoolean(), health.toString());
            assertTrue(Files.exists(tar), "a live capture merges");
            return;
        }
        String expected = seen.getFirst().sentence();
        assertNotNull(expected, "report says what was lost: " + text.err());
        assertTrue(expected.startsWith(f + " was read only partly: "), expected);
        for (String part : damage.says) {
            assertTrue(expected.contains(part), "'" + part + "' in: " + expected);
        }
        assertFalse(expected.contains(" 0 bytes"), expected);
        for (Seen s : seen) {
            assertEquals(ExitCode.READ_PARTLY.code(), s.result().code(), s.command() + ": " + s.result().err());
            assertEquals(expected, s.sentence(), s.command() + " says it the same way: " + s.result().err());
            assertFalse(s.result().err().contains("\tat ") || s.result().err().contains("Exception"),
                    s.command() + ": " + s.result().err());
        }
        assertTrue(json.out().contains("\"read_partly\" : true"), json.out());
        assertTrue(Files.readString(page).contains(Html.text(expected)), "the page shows the same sentence");
        assertTrue(diff.out().isEmpty(), "no verdict from a side read partly: " + diff.out());
        assertFalse(Files.exists(tar), "no archive from a capture read partly");
        assertTrue(merge.err().contains("--accept-loss"), merge.err());
    }

    /**
     * The summary in the line that starts with {@code prefix} on stderr (up to where the command
     * goes on with what it did about it), or null when there is none.
     */
    private static String line(Cli.Result r, String prefix) {
        for (String l : r.err().lines().toList()) {
            if (l.startsWith(prefix) && l.substring(prefix.length()).contains(" was read only partly: ")) {
                String s = l.substring(prefix.length());
                for (String tail : List.of("; no verdict was given", "; no archive was written", "; no trace was written",
                        "; nothing in what could be read is", "; the verdict covers", "; the archive holds")) {
                    int at = s.indexOf(tail);
                    if (at >= 0) {
                        s = s.substring(0, at);
                    }
                }
                return s;
            }
        }
        return null;
    }
}
