package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.output.Leftovers;
import dev.vprof.output.OutputTakenException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each format's entry point, called directly on {@link SyntheticCapture} (whose six kernels are
 * known: four gemm on GPU 0's stream 7, two attn on GPU 1's stream 13, requests A and B in the
 * window), read back with another tool's reader: protobuf's decoder, Jackson, sqlite3.
 */
class TraceExportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private interface Write {
        TraceExports.Exported to(TraceExports.Input in) throws IOException;
    }

    private TraceExports.Exported export(KernelNames names, Write write) throws IOException {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        try (CaptureReader reader = CaptureReader.open(file)) {
            CaptureTimeline.Result r = CaptureTimeline.stream(reader, names, null);
            return write.to(new TraceExports.Input(reader, file, r));
        }
    }

    private List<Path> temporaries() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Leftovers::isTemporary).toList();
        }
    }

    @Test
    void perfettoWritesEveryKernelOnItsStreamAndSaysHowToOpenIt() throws IOException {
        Path out = dir.resolve("t.pftrace");
        TraceExports.Exported e = export(KernelNames.demangled(), in -> TraceExports.perfetto(in, out, false));
        PerfettoTraceReader t = PerfettoTraceReader.read(Files.readAllBytes(out));
        assertEquals(4, t.slices(t.trackNamed("Stream 7").uuid()).size());
        assertEquals(2, t.slices(t.trackNamed("Stream 13").uuid()).size());
        assertEquals(List.of(out), e.files());
        assertTrue(e.wrote().getFirst().startsWith("wrote " + out + " (perfetto, ")
                && e.wrote().getFirst().contains(": 6 GPU ops, 1 processes, 2 requests, "), e.wrote().toString());
        assertTrue(e.howToOpen().getFirst().contains("https://ui.perfetto.dev"), e.howToOpen().toString());
        assertEquals(List.of(), temporaries());
    }

    @Test
    void chromeWritesJsonWithEveryKernel() throws IOException {
        Path out = dir.resolve("t.json");
        TraceExports.Exported e = export(KernelNames.demangled(), in -> TraceExports.chrome(in, out, false));
        long kernels = 0;
        for (JsonNode ev : JSON.readTree(out.toFile()).get("traceEvents")) {
            String name = ev.path("name").asText();
            kernels += ev.path("ph").asText().equals("X") && (name.equals("gemm") || name.equals("attn")) ? 1 : 0;
        }
        assertEquals(6, kernels);
        assertTrue(e.wrote().getFirst().startsWith("wrote " + out + " (chrome, ")
                && e.wrote().getFirst().contains(": 6 GPU ops, 1 processes, 2 requests, "), e.wrote().toString());
        assertEquals(List.of(), e.said());
    }

    @Test
    void kinetoWritesOneFilePerProcessAndSaysWhatItLeavesOut() throws IOException {
        Path out = dir.resolve("t.json");
        TraceExports.Exported e = export(KernelNames.demangled(), in -> TraceExports.kineto(in, out, null, false));
        assertEquals(1, e.files().size(), "one process");
        long kernels = 0;
        for (JsonNode ev : JSON.readTree(e.files().getFirst().toFile()).get("traceEvents")) {
            kernels += ev.path("cat").asText().equals("kernel") ? 1 : 0;
        }
        assertEquals(6, kernels);
        assertTrue(e.wrote().getFirst().startsWith("wrote " + e.files().getFirst() + " (kineto, ")
                && e.wrote().getFirst().contains("pid 100"), e.wrote().toString());
        // Requests A and B have no place in Kineto JSON: a note says so, naming where they can be seen.
        assertTrue(e.said().stream().anyMatch(s -> !s.warning() && s.sentence().contains("2 requests")
                && s.sentence().contains(".pftrace")), e.said().toString());
        assertTrue(e.howToOpen().getFirst().startsWith("Holistic Trace Analysis: TraceAnalysis(trace_dir=\""
                + dir.toAbsolutePath()), e.howToOpen().toString());
    }

    @Test
    void sqliteWritesNsightSystemsTablesThatSqlite3Reads() throws Exception {
        Path out = dir.resolve("t.sqlite");
        TraceExports.Exported e = export(TraceExports.names(ExportFormat.SQLITE, KernelNames.demangled()),
                in -> TraceExports.sqlite(in, out, false));
        Process p = new ProcessBuilder("sqlite3", out.toString(), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")
                .redirectErrorStream(true).start();
        String count = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("6", count);
        assertTrue(e.wrote().getFirst().startsWith("wrote " + out + " (sqlite, "), e.wrote().toString());
        assertTrue(e.howToOpen().getFirst().startsWith("SQL in Nsight Systems' export schema: sqlite3 " + out),
                e.howToOpen().toString());
    }

    @Test
    void theSqliteWalkTakesNamesAsRecordedAndTheOthersTheChosenOnes() {
        KernelNames chosen = KernelNames.demangled();
        String mangled = "_Z4gemmv";
        assertEquals("gemm()", chosen.show(mangled), "the chosen names demangle");
        assertEquals(mangled, TraceExports.names(ExportFormat.SQLITE, chosen).show(mangled),
                "SQLite writes every form itself, from the name as recorded");
        for (ExportFormat f : List.of(ExportFormat.PERFETTO, ExportFormat.CHROME, ExportFormat.KINETO)) {
            assertSame(chosen, TraceExports.names(f, chosen), f.name());
        }
    }

    @Test
    void withoutReplaceAnOutputThatExistsIsLeftAsItIsAndNoTemporaryFileStays() throws IOException {
        Path out = dir.resolve("t.pftrace");
        Files.writeString(out, "someone else's");
        assertThrows(OutputTakenException.class,
                () -> export(KernelNames.demangled(), in -> TraceExports.write(ExportFormat.PERFETTO, in, out, null, false)));
        assertEquals("someone else's", Files.readString(out));
        assertEquals(List.of(), temporaries());
    }
}
