package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.cli.Cli;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * `vprof export` of real PyTorch profiler traces to Perfetto, Chrome JSON and Kineto JSON keeps
 * every kernel: each output is counted per kernel name and compared with an independent count of
 * the trace (TraceOracle). The Perfetto file is decoded with protobuf's own reader and Perfetto's
 * field numbers spelled out independently of the writer (PerfettoTraceReader).
 */
class TorchTraceExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<Path> traces() {
        return Stream.of(TraceOracle.REAL.resolve("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"),
                TraceOracle.REAL.resolve("hta/trace_filter/sampled_rank-0.json.gz"));
    }

    private static void export(Path trace, Path out) {
        Cli.ok("export", trace.toString(), "-o", out.toString());
    }

    private static Map<String, Long> expected(Path trace) throws IOException {
        Map<String, Long> want = new TreeMap<>();
        TraceOracle.kernels(trace).byName().forEach((n, c) -> want.put(n, c[0]));
        return want;
    }

    @ParameterizedTest
    @MethodSource("traces")
    void perfettoKeepsEveryKernel(Path trace) throws IOException {
        Map<String, Long> want = expected(trace);
        Path out = dir.resolve("t.pftrace");
        export(trace, out);
        PerfettoTraceReader r = PerfettoTraceReader.read(Files.readAllBytes(out));
        Map<String, Long> got = new TreeMap<>();
        for (PerfettoTraceReader.Track t : r.tracks.values()) {
            if (t.name() != null && t.name().startsWith("Stream ")) {
                for (PerfettoTraceReader.Slice s : r.slices(t.uuid())) {
                    if (want.containsKey(s.name())) {
                        got.merge(s.name(), 1L, Long::sum);
                    }
                }
            }
        }
        assertEquals(want, got);
    }

    @ParameterizedTest
    @MethodSource("traces")
    void chromeJsonKeepsEveryKernel(Path trace) throws IOException {
        Path out = dir.resolve("t.json");
        export(trace, out);
        assertEquals(expected(trace), kernelsOf(JSON.readTree(out.toFile())));
    }

    @ParameterizedTest
    @MethodSource("traces")
    void kinetoJsonKeepsEveryKernel(Path trace) throws IOException {
        Path folder = Files.createDirectory(dir.resolve("kineto"));
        Path out = folder.resolve("t.pt.trace.json");
        export(trace, out);
        List<Path> files;
        try (Stream<Path> s = Files.list(folder)) {
            files = s.toList();
        }
        assertEquals(1, files.size(), files.toString());
        JsonNode kineto = JSON.readTree(files.getFirst().toFile());
        assertEquals(expected(trace), kernelsOf(kineto));
        // CPU ops read back as CPU ops, as many as the trace has, not as annotations.
        for (String cat : List.of("cpu_op", "python_function", "user_annotation", "gpu_user_annotation")) {
            assertEquals(count(TraceOracle.tree(trace), cat), count(kineto, cat), cat);
        }
    }

    private static long count(JsonNode root, String cat) {
        long n = 0;
        for (JsonNode e : root.get("traceEvents")) {
            if (cat.equals(e.path("cat").asText()) && "X".equals(e.path("ph").asText())) {
                n++;
            }
        }
        return n;
    }

    private static Map<String, Long> kernelsOf(JsonNode root) {
        JsonNode events = root.isArray() ? root : root.get("traceEvents");
        Map<String, Long> got = new TreeMap<>();
        for (JsonNode e : events) {
            if ("kernel".equals(e.path("cat").asText()) && "X".equals(e.path("ph").asText())) {
                got.merge(e.get("name").asText(), 1L, Long::sum);
            }
        }
        return got;
    }
}
