package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.SpansV1;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `vprof export` of captures that hold little or much: it says so instead of writing silently. */
class ExportRefusalsTest {
    @TempDir
    Path dir;

    /** A capture with a process and, if asked, spans, but no record at all (a range never opened). */
    private Path capture(boolean withSpans) throws Exception {
        Path file = dir.resolve(withSpans ? "spans-only.vprof" : "empty.vprof");
        try (CaptureWriter w = CaptureWriter.create(file,
                new CaptureMetadata("host", SyntheticCapture.R0, "0.1.0", List.of("vprof", "attach"), Map.of()))) {
            w.process(new ProcessInfo(100, 1, "python serve.py", 130000, 1, 1 << 20, SyntheticCapture.R0));
            if (withSpans) {
                w.chunk(CaptureFormat.KIND_SPANS, SpansV1.encode(SyntheticCapture.spans()));
            }
        }
        return file;
    }

    @Test
    void aCaptureWithNothingToShowIsAnErrorAndWritesNoTrace() throws Exception {
        Path out = dir.resolve("t.pftrace");
        Cli.Result r = Cli.run("export", capture(false).toString(), "-o", out.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("holds nothing to show: no GPU work, NVTX ranges, API calls, spans or metrics"),
                r.err());
        assertTrue(r.err().contains("cudaProfilerStart"), "says what to check: " + r.err());
        assertFalse(Files.exists(out), "no empty trace is left behind");
    }

    @Test
    void aCaptureWithSpansButNoGpuWorkExportsThemWithAWarning() throws Exception {
        Path out = dir.resolve("t.json");
        Cli.Result r = Cli.run("export", capture(true).toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("holds no GPU work") && r.err().contains("the trace has only spans"), r.err());
        assertTrue(Files.readString(out).contains("llm_request"), "the spans are in the trace");
    }

    @Test
    void aCaptureWithGpuWorkHasNoSuchWarning() throws Exception {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        Cli.Result r = Cli.run("export", capture.toString(), "-o", dir.resolve("c.json").toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("no GPU work") || r.err().contains("of JSON"), r.err());
    }

    @Test
    void aLargeJsonTraceWarnsAndSuggestsPerfetto() throws Exception {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        ExportCommand command = new ExportCommand();
        command.largeJsonBytes = 1024; // the synthetic trace is a few KiB; the real limit is 100 MiB
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        Path json = dir.resolve("big.json");
        assertEquals(0, cl.execute(capture.toString(), "-o", json.toString()), err.toString());
        assertTrue(err.toString().contains("vprof: warning: " + json + " is ") && err.toString().contains("of JSON"),
                err.toString());
        assertTrue(err.toString().contains("vprof export " + capture + " -o " + dir.resolve("big.pftrace")), err.toString());
        // Perfetto output is never warned about.
        StringWriter err2 = new StringWriter();
        CommandLine cl2 = new CommandLine(command);
        cl2.setOut(new PrintWriter(new StringWriter(), true));
        cl2.setErr(new PrintWriter(err2, true));
        assertEquals(0, cl2.execute(capture.toString(), "-o", dir.resolve("big.pftrace").toString()));
        assertFalse(err2.toString().contains("of JSON"), err2.toString());
        assertEquals(100L << 20, ExportCommand.LARGE_JSON_BYTES);
    }
}
