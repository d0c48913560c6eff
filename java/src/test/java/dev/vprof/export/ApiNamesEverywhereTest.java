package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.cli.Cli;
import dev.vprof.cli.ExitCode;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every CUDA call of every real trace shows under a name, never as {@code runtime API cbid N}, in
 * every view and export: report (text and JSON), diff (its CPU-op rows, which hold the calls), and
 * the Perfetto, Chrome JSON, Kineto JSON and SQLite exports. The trace's own call names (a Jackson
 * tree of it) are the oracle for the Kineto export, which must give back each of them.
 */
class ApiNamesEverywhereTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NUMBERED = "API cbid ";

    @TempDir
    Path dir;

    static Stream<Path> traces() throws IOException {
        return TraceOracle.cudaTraces().stream();
    }

    private static String vprof(String... args) {
        Cli.Result r = Cli.run(args);
        assertTrue(r.code() == ExitCode.OK.code() || r.code() == ExitCode.REGRESSED.code(),
                String.join(" ", args) + " exited " + r.code() + ": " + r.err());
        return r.out() + "\n" + r.err();
    }

    @ParameterizedTest
    @MethodSource("traces")
    void noCallIsShownByItsNumber(Path trace) throws IOException {
        String t = trace.toString();
        assertFalse(vprof("report", t).contains(NUMBERED));
        assertFalse(vprof("report", "--json", t).contains(NUMBERED));
        if (TraceOracle.kernels(trace).count() > 0) { // diff compares GPU work: a trace of CPU ops only has none
            String diff = vprof("diff", "--json", t, t);
            assertTrue(diff.contains("\"cpu_ops\""), diff);
            assertFalse(diff.contains(NUMBERED), diff);
        }

        Path chrome = dir.resolve("t.json");
        vprof("export", t, "-o", chrome.toString());
        assertFalse(Files.readString(chrome).contains(NUMBERED));

        Path sqlite = dir.resolve("t.sqlite");
        vprof("export", t, "-o", sqlite.toString());
        assertFalse(new String(Files.readAllBytes(sqlite), StandardCharsets.ISO_8859_1).contains(NUMBERED));

        Path perfetto = dir.resolve("t.pftrace");
        vprof("export", t, "-o", perfetto.toString());
        PerfettoTraceReader r = PerfettoTraceReader.read(Files.readAllBytes(perfetto));
        long slices = 0;
        for (PerfettoTraceReader.Track track : r.tracks.values()) {
            for (PerfettoTraceReader.Slice s : r.slices(track.uuid())) {
                slices++;
                assertFalse(s.name() != null && s.name().contains(NUMBERED), s.name());
            }
        }
        assertTrue(slices > 0);

        Path kineto = dir.resolve("t.pt.trace.json");
        vprof("export", t, "-o", kineto.toString());
        Set<String> exported = new HashSet<>();
        for (JsonNode e : JSON.readTree(kineto.toFile()).get("traceEvents")) {
            String cat = e.path("cat").asText();
            if (cat.equals("cuda_runtime") || cat.equals("cuda_driver")) {
                assertFalse(e.path("name").asText().contains(NUMBERED), e.toString());
                exported.add(cat + " " + e.path("name").asText());
            }
        }
        Set<String> traced = new HashSet<>();
        for (JsonNode e : TraceOracle.tree(trace).get("traceEvents")) {
            String cat = e.path("cat").asText();
            if ((cat.equals("cuda_runtime") || cat.equals("cuda_driver")) && "X".equals(e.path("ph").asText())) {
                traced.add(cat + " " + e.path("name").asText());
            }
        }
        assertEquals(traced, exported, "the trace's call names, each given back");
    }
}
