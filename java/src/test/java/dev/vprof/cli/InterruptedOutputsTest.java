package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.output.Leftovers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each command that writes an output, started as its own JVM and stopped by SIGINT or SIGKILL at
 * a seeded random moment while it works: a run that was stopped leaves nothing under the final
 * name (SIGINT: exit INTERRUPTED, 130), and after the next run into the same folder no temporary
 * file is left, in the output's folder or in the temporary folder where traces are converted.
 * SIGKILL and SIGINT come at 25 % to 75 % of the command's own time, measured by a run to the end
 * first. {@code -Dinterrupt.runs=N} sets the runs per
 * command and signal (1 in CI, to keep its time small; 20 for the full drill).
 */
class InterruptedOutputsTest {
    private static final int RUNS = Integer.getInteger("interrupt.runs", 1);
    private static final Path TRACE = Path.of("../fixtures/real/hta/trace_diff/control/control.json.gz").toAbsolutePath();

    @TempDir
    static Path dir;
    static Path capture;
    static Path other;
    static Path tmp;

    @BeforeAll
    static void captures() throws IOException {
        capture = dir.resolve("in/a.vprof");
        other = dir.resolve("in/b.vprof");
        tmp = Files.createDirectories(dir.resolve("tmp"));
        Files.createDirectories(capture.getParent());
        assertEquals(0, Cli.run("import", TRACE.toString(), "-o", capture.toString()).code());
        Files.copy(capture, other);
    }

    /** The command writing {@code out}. */
    private static List<String> command(String kind, Path out) {
        return switch (kind) {
            case "import" -> List.of("import", TRACE.toString(), "-o", out.toString());
            case "perfetto", "chrome", "kineto", "sqlite" -> List.of("export", capture.toString(), "-o", out.toString(),
                    "--format", kind);
            case "merge" -> List.of("merge", "--force", capture.toString(), other.toString(), "-o", out.toString());
            case "report-html" -> List.of("report", TRACE.toString(), "--html", out.toString());
            case "diff-html" -> List.of("diff", capture.toString(), TRACE.toString(), "--html", out.toString());
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static Process start(List<String> args, Path log) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static List<Path> temporaries(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(Leftovers::isTemporary).toList();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"import", "perfetto", "chrome", "kineto", "sqlite", "merge", "report-html", "diff-html"})
    void aStoppedCommandLeavesNothingUnderItsNameAndTheNextRunNoTemporaryFile(String kind) throws Exception {
        Path folder = Files.createDirectories(dir.resolve(kind));
        Path out = folder.resolve("out" + OutputKinds.extension(kind));
        Path log = dir.resolve(kind + ".log");
        Random random = new Random(kind.hashCode());
        int killed = 0;
        int interrupted = 0;
        // A run to the end first: how long the command takes here, so that each signal comes while
        // it works (a fixed delay missed a quick run on a quiet machine, and proved nothing).
        long fullMs = runToTheEnd(kind, out, log);
        long wholeBytes = Files.size(out);
        Files.delete(out);
        // SIGKILL at 25 % to 75 % of that: what it leaves, the run to the end after it must remove.
        for (int i = 0; i < RUNS; i++) {
            Process p = start(command(kind, out), log);
            Thread.sleep((long) (fullMs * (0.25 + 0.5 * random.nextDouble())));
            killed += stop(p, "KILL", kind, out, wholeBytes, folder, log) ? 1 : 0;
        }
        runToTheEnd(kind, out, log);
        assertEquals(List.of(), temporaries(folder), "the next run removes what SIGKILL left");
        if (kind.equals("import") || kind.endsWith("html")) {
            assertEquals(List.of(), temporaries(tmp), "the converted trace's folder");
        }
        // SIGINT at 25 % to 75 % of the command's own time: nothing left at all.
        for (int i = 0; i < RUNS; i++) {
            Files.deleteIfExists(out);
            Process p = start(command(kind, out), log);
            Thread.sleep((long) (fullMs * (0.25 + 0.5 * random.nextDouble())));
            interrupted += stop(p, "INT", kind, out, wholeBytes, folder, log) ? 1 : 0;
        }
        // The tally the full drill reports: a run that ended before its signal proved nothing.
        System.out.printf("interrupted-outputs %s: SIGKILL stopped %d of %d runs, SIGINT stopped %d of %d%n",
                kind, killed, RUNS, interrupted, RUNS);
        assertTrue(killed + interrupted > 0, "no run of " + kind + " was stopped while it worked: the drill proved nothing");
    }

    /** Runs the command to its end (its output whole); how long it took, in ms. */
    private static long runToTheEnd(String kind, Path out, Path log) throws Exception {
        long t0 = System.nanoTime();
        Process whole = start(command(kind, out), log);
        assertTrue(whole.waitFor(120, TimeUnit.SECONDS));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(whole.exitValue() == 0 || whole.exitValue() == 3, Files.readString(log));
        assertTrue(Files.isRegularFile(out), "the run to the end writes " + out);
        return ms;
    }

    /** Sends the signal; whether the command was stopped by it (else it had finished, and its file is whole). */
    private static boolean stop(Process p, String signal, String kind, Path out, long wholeBytes, Path folder, Path log)
            throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), kind + " did not end on SIG" + signal);
        int code = p.exitValue();
        if (code == 0 || code == 3) {
            assertTrue(Files.isRegularFile(out), "finished before the signal, so whole: " + out);
            Files.delete(out);
            return false;
        }
        if (signal.equals("KILL") && Files.exists(out)) {
            // Killed after the move into place, before the JVM ended: only a finished, synced
            // temporary is ever moved there, so the file must be the whole output (within 1 %:
            // some outputs carry the time they were written).
            assertTrue(Files.size(out) >= wholeBytes * 99 / 100, kind + " killed left a partial " + out + " of "
                    + Files.size(out) + " bytes, the whole run wrote " + wholeBytes + ": " + Files.readString(log));
            Files.delete(out);
            return false;
        }
        if (code == ExitCode.INTERRUPTED.code() && Files.exists(out)) {
            // The signal came after the output was moved into place, before the JVM ended: the
            // file is whole, and the sentence must say so rather than "nothing was left".
            String said = Files.readString(log);
            assertTrue(said.contains(out + " was complete: it is whole"), said);
            Files.delete(out);
            return false;
        }
        assertFalse(Files.exists(out), kind + " stopped by SIG" + signal + " left " + out + ": " + Files.readString(log));
        if (signal.equals("INT")) {
            assertEquals(ExitCode.INTERRUPTED.code(), code, Files.readString(log));
            assertEquals(List.of(), temporaries(folder), "SIGINT removes its own temporary files");
            if (kind.equals("import") || kind.endsWith("html")) {
                assertEquals(List.of(), temporaries(tmp), "SIGINT removes the converted trace");
            }
        }
        return true;
    }
}
