package dev.vprof.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.cli.Cli;
import dev.vprof.cli.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `vprof export` as a person runs it: what it writes, what it prints, how it refuses. */
class ExportCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesAPerfettoTraceChosenByItsExtensionAndSaysHowToOpenIt() throws IOException {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        Path trace = dir.resolve("c.pftrace");
        Cli.Result r = Cli.run("export", capture.toString(), "-o", trace.toString());
        assertEquals(ExitCode.OK.code(), r.code(), r.err());
        assertTrue(Files.size(trace) > 0);
        assertTrue(r.out().contains("wrote " + trace + " (perfetto"), r.out());
        assertTrue(r.out().contains("6 GPU ops"), r.out());
        assertTrue(r.out().contains("open https://ui.perfetto.dev and drag " + trace + " in"), r.out());
        assertTrue(r.out().contains("trace_processor"), r.out());
        assertTrue(r.err().contains("vprof: note: 2 span(s) outside the capture window"), r.err());
    }

    @Test
    void writesChromeJsonWhenAsked() throws IOException {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        Path trace = dir.resolve("c.trace");
        Cli.Result r = Cli.run("export", capture.toString(), "-o", trace.toString(), "--format", "chrome");
        assertEquals(ExitCode.OK.code(), r.code(), r.err());
        assertTrue(Files.readString(trace).contains("\"traceEvents\""));
    }

    @Test
    void stepsAreForTheKinetoFormatAndAMalformedSpecSaysWhatToWrite() throws IOException {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        Cli.Result chrome = Cli.run("export", capture.toString(), "-o", dir.resolve("c.json").toString(), "--steps", "nvtx:step");
        assertEquals(ExitCode.CANNOT.code(), chrome.code());
        assertTrue(chrome.err().contains("add --format kineto"), chrome.err());
        Cli.Result bad = Cli.run("export", capture.toString(), "-o", dir.resolve("k.json").toString(), "--format", "kineto",
                "--steps", "step");
        assertEquals(ExitCode.CANNOT.code(), bad.code());
        assertTrue(bad.err().contains("e.g. --steps nvtx:step"), bad.err());
        Cli.Result missing = Cli.run("export", capture.toString(), "-o", dir.resolve("k.json").toString(), "--format", "kineto",
                "--steps", "nvtx:no-such-range");
        assertEquals(ExitCode.CANNOT.code(), missing.code());
        assertTrue(missing.err().contains("no NVTX range named 'no-such-range' in the capture"), missing.err());
        assertFalse(Files.exists(dir.resolve("k.json")));
    }

    @Test
    void aFileThatIsNotACaptureIsRefusedByName() throws IOException {
        Path junk = Files.writeString(dir.resolve("notes.txt"), "hello, this is not a capture");
        Cli.Result r = Cli.run("export", junk.toString(), "-o", dir.resolve("x.pftrace").toString());
        assertEquals(ExitCode.CANNOT.code(), r.code());
        assertTrue(r.err().contains(junk + " is not a vprof capture, a PyTorch profiler trace"), r.err());
    }

    @Test
    void anOutputThatCannotBeWrittenIsRefusedBeforeReading() throws IOException {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), false);
        Path out = dir.resolve("no/such/folder/x.pftrace");
        Cli.Result r = Cli.run("export", capture.toString(), "-o", out.toString());
        assertEquals(ExitCode.CANNOT.code(), r.code());
        assertTrue(r.err().contains("cannot write " + out + ": the folder"), r.err());
        assertTrue(r.err().contains("does not exist"), r.err());
    }

    @Test
    void anUnclearExtensionAsksForAFormat() throws IOException {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), false);
        Cli.Result r = Cli.run("export", capture.toString(), "-o", dir.resolve("x.trace").toString());
        assertEquals(ExitCode.CANNOT.code(), r.code());
        assertTrue(r.err().contains("--format perfetto|chrome|kineto"), r.err());
    }
}
