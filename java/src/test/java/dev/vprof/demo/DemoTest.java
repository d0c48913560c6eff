package dev.vprof.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.cli.Main;
import dev.vprof.otlp.Span;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code vprof demo} end to end: the simulated server's two GPU workers (the CUPTI test double
 * under the real agent), the capture through the real attach path, metrics and spans in the file.
 * A smaller load than the default keeps it quick; the path it takes is the same.
 */
@Timeout(120)
class DemoTest {
    @TempDir
    static Path dir;

    static int code;
    static String out;
    static String err;

    @BeforeAll
    static void runTheDemo() {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"));
        assertTrue(Files.isExecutable(nat.resolve("vprof-simgpu")), "vprof-simgpu not built: mvn -B verify builds it");
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(e, true));
        code = cl.execute("demo", "--dir", dir.toString(), "--steady", "12", "--rate", "8", "--burst", "24",
                "--max-tokens", "16");
        out = o.toString();
        err = e.toString();
    }

    private static CaptureReader capture() throws Exception {
        return CaptureReader.open(dir.resolve("capture.vprof"));
    }

    @Test
    void theDemoSucceedsAndWritesItsFiles() {
        assertEquals(0, code, err + out);
        assertTrue(Files.isRegularFile(dir.resolve("capture.vprof")));
        assertTrue(Files.isRegularFile(dir.resolve("report.txt")));
        assertTrue(out.contains("https://ui.perfetto.dev"), "says how to open the trace: " + out);
        assertTrue(out.contains("Verdict:"), "the triage verdict is printed: " + out);
        assertTrue(err.contains("vprof demo ["), "progress lines while it runs: " + err);
    }

    @Test
    void theTracesHoldTheKernelsAndTheRequests() throws Exception {
        assertTrue(Files.size(dir.resolve("trace.pftrace")) > 0, "Perfetto trace written");
        JsonNode chrome = new ObjectMapper().readTree(dir.resolve("trace.json").toFile());
        JsonNode events = chrome.isArray() ? chrome : chrome.get("traceEvents");
        Set<String> names = new HashSet<>();
        events.forEach(e -> names.add(e.path("name").asText()));
        assertTrue(names.stream().anyMatch(n -> n.contains("gemm")), "kernels on the timeline");
        assertTrue(names.stream().anyMatch(n -> n.contains("llm_request") || n.startsWith("request")),
                "requests on the timeline: " + names.stream().limit(40).toList());
    }

    @Test
    void bothWorkersRecordedKernelsInsideAProfilerRange() throws Exception {
        Map<Integer, Long> kernels = new HashMap<>();
        Set<Integer> ranged = new HashSet<>();
        try (CaptureReader r = capture()) {
            assertTrue(r.complete());
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    kernels.merge(pid, 1L, Long::sum);
                }

                @Override
                public void range(int pid, RangeEvent range) {
                    if (range.isBegin()) {
                        ranged.add(pid);
                    }
                }
            });
            assertEquals(2, r.processes().size(), "the two GPU workers: " + r.processes());
        }
        assertEquals(2, ranged.size(), "a range in each worker");
        assertEquals(2, kernels.size(), "kernels from each worker: " + kernels);
        // Tensor-parallel ranks: every step between /start_profile and /stop_profile went to both
        // workers, so each range holds the same kernels; a kernel lost or counted twice shows here.
        List<Long> counts = List.copyOf(kernels.values());
        assertEquals(counts.get(0), counts.get(1), "both ranks recorded the same kernels: " + kernels);
    }

    @Test
    void metricsAndASpanForEveryRequestAreInTheCapture() throws Exception {
        try (CaptureReader r = capture()) {
            assertTrue(r.hasMetrics(), "METRICS chunks");
            CaptureReader.Spans read = r.spans();
            assertEquals(List.of(), read.notes());
            List<Span> spans = read.spans();
            long requests = spans.stream().filter(s -> s.name().equals("llm_request")).count();
            assertEquals(12 + 24, requests, "one llm_request span per request");
            assertEquals(12 + 24, spans.stream().map(Span::traceIdHex).distinct().count(),
                    "each parented on its own request's traceparent");
        }
    }
}
