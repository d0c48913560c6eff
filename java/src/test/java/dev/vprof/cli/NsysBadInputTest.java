package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

/**
 * Inputs named {@code .sqlite} that are not whole Nsight Systems exports, in every command that
 * reads a capture: one sentence each (what the file is), the exit code of a file that cannot be
 * read, no output written and no temporary capture left in the temporary folder. An export that
 * only lacks an activity table is read, with a sentence saying what it lacked; an export is never
 * written to.
 */
@Timeout(300)
class NsysBadInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private void sqlite3(Path db, String sql) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sqlite3", db.toString(), sql).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
    }

    private Path copyWithout(String name, Path export, String... tables) throws IOException, InterruptedException {
        Path copy = dir.resolve(name);
        Files.copy(export, copy);
        for (String t : tables) {
            sqlite3(copy, "DROP TABLE " + t);
        }
        return copy;
    }

    /** Runs {@code args} with the temporary folder set to a fresh one; returns the result and that folder's files. */
    private record Run(Cli.Result result, List<Path> leftInTemp) {}

    /**
     * sqlite-jdbc unpacks its native library into java.io.tmpdir the first time a JVM loads it (and
     * removes it at exit): loaded before {@link #run} swaps the folder, the folder holds only what
     * vprof itself leaves, whichever test of this JVM reads an export first.
     */
    @BeforeAll
    static void loadSqliteBeforeTheTemporaryFolderIsSwapped() throws Exception {
        SQLiteJDBCLoader.initialize();
    }

    private Run run(String... args) throws IOException {
        Path temp = Files.createDirectories(dir.resolve("tmp-" + System.nanoTime()));
        String before = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", temp.toString());
        try {
            Cli.Result r = Cli.run(args);
            try (Stream<Path> s = Files.list(temp)) {
                return new Run(r, s.toList());
            }
        } finally {
            System.setProperty("java.io.tmpdir", before);
        }
    }

    private void assertRefusedEverywhere(Path bad, String says) throws IOException {
        String f = bad.toString();
        List<String[]> commands = List.of(
                new String[] {"report", f},
                new String[] {"report", "--json", f},
                new String[] {"report", "--html", dir.resolve("out.html").toString(), f},
                new String[] {"export", f, "-o", dir.resolve("out.pftrace").toString()},
                new String[] {"export", f, "-o", dir.resolve("out.sqlite").toString()},
                new String[] {"diff", f, f},
                new String[] {"import", f, "-o", dir.resolve("out.vprof").toString()});
        for (String[] args : commands) {
            Run run = run(args);
            Cli.Result r = run.result();
            String what = String.join(" ", args) + ": " + r.err();
            assertEquals(ExitCode.CANNOT.code(), r.code(), what);
            assertEquals(1, r.err().strip().lines().count(), what);
            assertTrue(r.err().contains(says) && r.err().contains(bad.getFileName().toString()), what);
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), what);
            assertEquals(List.of(), run.leftInTemp(), what);
        }
        for (String out : List.of("out.html", "out.pftrace", "out.sqlite", "out.vprof")) {
            assertFalse(Files.exists(dir.resolve(out)), out);
        }
    }

    @Test
    void anEmptyFileIsSaidToBeEmpty() throws IOException {
        Path bad = Files.createFile(dir.resolve("empty.sqlite"));
        assertRefusedEverywhere(bad, "is an empty file");
    }

    @Test
    void randomBytesAreNotAnSqliteDatabase() throws IOException {
        byte[] junk = new byte[64 << 10];
        new Random(26).nextBytes(junk);
        Path bad = Files.write(dir.resolve("random.sqlite"), junk);
        assertRefusedEverywhere(bad, "is not a vprof capture");
    }

    @Test
    void anExportCutInHalfIsSaidToBeCutShort() throws IOException {
        byte[] whole = Files.readAllBytes(NsysInputTest.NSYS_2026);
        Path bad = Files.write(dir.resolve("cut.sqlite"), Arrays.copyOf(whole, whole.length / 2));
        assertRefusedEverywhere(bad, "is cut short");
    }

    @Test
    void anotherProgramsDatabaseIsNotAnNsysExport() throws IOException, InterruptedException {
        Path bad = dir.resolve("notes.sqlite");
        sqlite3(bad, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hi')");
        assertRefusedEverywhere(bad, "is an SQLite database but not an Nsight Systems export");
    }

    @Test
    void anExportWithoutStringIdsIsRefusedNamingTheTable() throws IOException, InterruptedException {
        Path bad = copyWithout("nostrings.sqlite", NsysInputTest.NSYS_2022, "StringIds");
        assertRefusedEverywhere(bad, "without its StringIds table");
    }

    @Test
    void anExportWithoutItsKernelTableIsReadAsHavingNoKernelsAndSaysSo() throws IOException, InterruptedException {
        Path export = copyWithout("nokernels.sqlite", NsysInputTest.NSYS_2022, "CUPTI_ACTIVITY_KIND_KERNEL",
                "NVTX_EVENTS");
        Run run = run("report", "--json", export.toString());
        assertEquals(ExitCode.OK.code(), run.result().code(), run.result().err());
        assertEquals(List.of(), run.leftInTemp());
        JsonNode report = JSON.readTree(run.result().out());
        assertEquals(0, report.path("totals").path("kernels").asLong());
        assertEquals(SqliteQueries.value(export, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"),
                report.path("totals").path("memcpys").asLong());
        String warnings = report.get("warnings").toString();
        assertTrue(warnings.contains("has no CUPTI_ACTIVITY_KIND_KERNEL table")
                && warnings.contains("has no NVTX_EVENTS table"), warnings);
    }

    @Test
    void readingAnExportNeverWritesToItOrBesideIt() throws IOException {
        Path export = dir.resolve("ro").resolve("run.sqlite");
        Files.createDirectories(export.getParent());
        Files.copy(NsysInputTest.NSYS_2026, export);
        byte[] bytes = Files.readAllBytes(export);
        FileTime modified = Files.getLastModifiedTime(export);
        assertTrue(export.toFile().setReadOnly());
        for (String[] args : List.of(new String[] {"report", export.toString()},
                new String[] {"diff", export.toString(), export.toString()})) {
            Run run = run(args);
            assertEquals(ExitCode.OK.code(), run.result().code(), run.result().err());
            assertEquals(List.of(), run.leftInTemp());
        }
        assertArrayEquals(bytes, Files.readAllBytes(export));
        assertEquals(modified, Files.getLastModifiedTime(export));
        try (Stream<Path> s = Files.list(export.getParent())) {
            assertEquals(List.of(export), s.toList()); // no -journal, -wal or -shm beside it
        }
    }
}
