package dev.vprof.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.cli.Cli;
import dev.vprof.metrics.Quantile;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.Seconds;
import dev.vprof.metrics.WindowStats;
import dev.vprof.otlp.Span;
import dev.vprof.triage.Triage;
import dev.vprof.triage.TriageReport;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
        Cli.Result r = Cli.run("demo", "--dir", dir.toString(), "--steady", "12", "--rate", "8", "--burst", "24",
                "--max-tokens", "16");
        code = r.code();
        out = r.out();
        err = r.err();
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
        Map<Long, Long> kernelsInTrace = new TreeMap<>();
        Set<String> requestsInTrace = new TreeSet<>();
        for (JsonNode e : events) {
            switch (e.path("cat").asText()) {
                case "kernel" -> kernelsInTrace.merge(e.get("pid").asLong(), 1L, Long::sum);
                case "request" -> assertTrue(requestsInTrace.add(e.at("/args/span_id").asText()), "one slice a request: " + e);
                default -> { }
            }
        }
        // The oracle, read the other way: the capture's kernel records and the demo's own request spans.
        Map<Long, Long> kernelsInCapture = new TreeMap<>();
        Set<String> requestSpans = new TreeSet<>();
        try (CaptureReader r = capture()) {
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    kernelsInCapture.merge((long) pid, 1L, Long::sum);
                }
            });
            r.spans().spans().stream().filter(s -> s.name().equals("llm_request")).forEach(s -> requestSpans.add(s.spanIdHex()));
        }
        assertEquals(2, kernelsInCapture.size(), "kernels from both workers: " + kernelsInCapture);
        assertEquals(kernelsInCapture, kernelsInTrace, "every kernel of each worker on the timeline, once");
        assertEquals(12 + 24, requestSpans.size(), "the demo sent 12 steady and 24 burst requests");
        assertEquals(requestSpans, requestsInTrace, "every request on the timeline, under its own span id");
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
    void eachTensorParallelWorkerHasItsOwnRankAndDevice() throws Exception {
        Map<Integer, Set<Integer>> devices = new HashMap<>();
        try (CaptureReader r = capture()) {
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    devices.computeIfAbsent(pid, k -> new HashSet<>()).add(desc.deviceId());
                }
            });
            Set<Integer> ranks = new HashSet<>();
            r.processes().forEach(p -> ranks.add(p.rank()));
            assertEquals(Set.of(0, 1), ranks, "each worker's RANK: " + r.processes());
        }
        assertEquals(2, devices.size(), "kernels from each worker: " + devices);
        Set<Integer> all = new HashSet<>();
        devices.values().forEach(d -> {
            assertEquals(1, d.size(), "one device per worker: " + devices);
            all.addAll(d);
        });
        assertEquals(Set.of(0, 1), all, "worker i runs on device i, as vLLM's workers do: " + devices);
        assertTrue(out.contains("device 0 busy") && out.contains("device 1 busy"), "the report shows both devices:\n" + out);
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

    // ---- honest quantiles, over the demo's own output ----

    private static final String[] LATENCIES = {"ttft", "queue", "prefill", "decode", "e2e", "inter_token"};
    /** A value as the report writes it: "1.31 s", "29.8 ms". */
    private static final Pattern VALUE = Pattern.compile("[0-9.]+ (s|ms|us|ns)");
    /** A histogram quantile: its bucket's bounds, "1-2.5 s", "<= 10 ms", "> 2.5 s" (or "~X" when the sum pins it). */
    private static final Pattern BUCKET = Pattern.compile("([0-9.]+-[0-9.]+|<= [0-9.]+|> [0-9.]+|~[0-9.]+) (s|ms|us|ns)");

    private static JsonNode reportJson() throws Exception {
        Cli.Result r = Cli.run("report", "--json", dir.resolve("capture.vprof").toString());
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    /** The capture's own scrapes over the report's window, read without spans: what triage alone sees. */
    private static WindowStats histogramsOnly(JsonNode report) throws Exception {
        List<ScrapeResult> scrapes = new ArrayList<>();
        try (CaptureReader r = capture()) {
            r.scrapes(scrapes::add);
        }
        WindowStats w = WindowStats.window(scrapes, report.at("/window/start_ns").asLong(),
                report.at("/window/end_ns").asLong());
        assertTrue(w != null, "the demo's capture has scrapes over its window");
        return w;
    }

    /** The rows of a latency table: name -> its p50, p99 and source cells. */
    private static Map<String, String[]> table(String text, String header) {
        Map<String, String[]> rows = new LinkedHashMap<>();
        List<String> lines = text.lines().toList();
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(header)) {
                start = i + 2; // the heading line, then the column names
                break;
            }
        }
        assertTrue(start > 0, "a table under '" + header + "' in:\n" + text);
        for (int i = start; i < lines.size() && lines.get(i).startsWith("  ") && !lines.get(i).startsWith("  histogram"); i++) {
            String l = lines.get(i);
            rows.put(l.substring(2, 14).strip(), new String[] {l.substring(15, 29).strip(), l.substring(30, 44).strip(),
                    l.substring(l.lastIndexOf("  ") + 2).strip()});
        }
        return rows;
    }

    private static void assertShownHonestly(String where, Map<String, String[]> rows) {
        assertFalse(rows.isEmpty(), where);
        for (Map.Entry<String, String[]> e : rows.entrySet()) {
            String[] c = e.getValue();
            Pattern expected = c[2].equals("server spans, exact") ? VALUE : BUCKET;
            assertTrue(c[2].equals("server spans, exact") || c[2].equals("metrics histogram buckets"),
                    where + ": " + e.getKey() + " says where its figures come from: " + c[2]);
            for (int i = 0; i < 2; i++) {
                assertTrue(expected.matcher(c[i]).matches(), where + ": " + e.getKey() + (i == 0 ? " p50" : " p99")
                        + " '" + c[i] + "' is shown as " + (expected == VALUE ? "an exact value" : "its bucket"));
            }
        }
    }

    @Test
    void everyQuantileInTheDemoReportIsExactFromSpansOrShownWithItsBucket() throws Exception {
        JsonNode j = reportJson();
        for (String name : LATENCIES) {
            JsonNode l = j.at("/latency/" + name);
            String source = l.get("source").asText();
            for (String q : List.of("p50", "p99", "max")) {
                if (source.equals("spans")) {
                    assertTrue(l.at("/" + q + "/exact").asBoolean(), name + " " + q + " from spans is exact");
                } else if (source.equals("histogram")) {
                    assertFalse(l.at("/" + q + "/exact").asBoolean(), name + " " + q + " from a histogram is a bucket");
                    assertTrue(l.at("/" + q + "/low_s").isNumber(), name + " " + q + " has its lower bound as a number");
                }
            }
        }
        assertEquals("spans", j.at("/latency/ttft/source").asText(), "a span per request: TTFT is exact");
        assertEquals("histogram", j.at("/latency/inter_token/source").asText(), "spans carry no inter-token latency");
        assertShownHonestly("the demo's report", table(out, "request latency over the capture window"));
        // Triage reads only the histograms: every quantile it prints is a bucket.
        String triage = TriageReport.text(Triage.assess(histogramsOnly(j), true, Triage.Thresholds.DEFAULT,
                URI.create("http://127.0.0.1:8000/metrics")), "demo");
        Map<String, String[]> rows = table(triage, "Window:");
        assertShownHonestly("triage over the demo's metrics", rows);
        rows.values().forEach(c -> assertEquals("metrics histogram buckets", c[2], triage));
        assertFalse(triage.matches("(?s).*p99 = [0-9.]+ (s|ms) .*"), "no bare histogram p99 in the evidence: " + triage);
    }

    @Test
    void noFigureInTheDemoReportContradictsAnother() throws Exception {
        JsonNode j = reportJson();
        double slowestE2e = j.at("/slowest_requests/0/e2e_ns").asLong() / 1e9;
        double e2eMax = j.at("/latency/e2e/max/high_s").asDouble();
        assertEquals(slowestE2e, e2eMax, 1e-6, "the e2e max is the slowest request's span");
        for (String name : LATENCIES) {
            JsonNode l = j.at("/latency/" + name);
            if (l.get("source").asText().equals("absent")) {
                continue;
            }
            double p50Low = l.at("/p50/low_s").asDouble();
            double p99Low = l.at("/p99/low_s").asDouble();
            double p99High = l.at("/p99/high_s").isNull() ? Double.POSITIVE_INFINITY : l.at("/p99/high_s").asDouble();
            double maxHigh = l.at("/max/high_s").isNull() ? Double.POSITIVE_INFINITY : l.at("/max/high_s").asDouble();
            assertTrue(p50Low <= p99High && p99Low <= maxHigh, name + ": p50 <= p99 <= max allowed: " + l);
            if (!name.equals("inter_token")) {
                assertTrue(p99Low <= slowestE2e + 1e-6, name + " p99 (" + p99Low + " s) is not above the slowest"
                        + " request's whole span (" + slowestE2e + " s)");
            }
        }
        // The same requests, seen by the server's histograms: each exact figure lies in its bucket.
        WindowStats h = histogramsOnly(j);
        Map<String, WindowStats.Latency> byName = Map.of("ttft", h.ttft(), "queue", h.queue(), "prefill", h.prefill(),
                "decode", h.decode(), "e2e", h.e2e());
        for (Map.Entry<String, WindowStats.Latency> e : byName.entrySet()) {
            JsonNode l = j.at("/latency/" + e.getKey());
            WindowStats.Latency hist = e.getValue();
            assertEquals(hist.count(), l.get("count").asDouble(), 0.5, e.getKey() + ": the same requests");
            for (String q : List.of("p50", "p99")) {
                Quantile bucket = q.equals("p50") ? hist.p50() : hist.p99();
                double exact = l.at("/" + q + "/low_s").asDouble();
                assertTrue(bucket.allows(exact, 1e-6), e.getKey() + " " + q + ": the spans' " + exact
                        + " s lies in the histogram's " + Seconds.format(bucket));
            }
            assertEquals(hist.mean(), l.get("mean_s").asDouble(), 1e-3, e.getKey() + ": the same mean either way");
        }
        // The verdict at the top quotes the table below it, whichever findings it has.
        Map<String, String[]> rows = table(out, "request latency over the capture window");
        String verdict = out.substring(out.indexOf("Verdict:"), out.indexOf("summary:"));
        Map<String, String> rowOf = Map.of("TTFT", "TTFT", "queue time", "queue", "prefill time", "prefill",
                "decode time", "decode", "e2e latency", "e2e");
        Matcher m = Pattern.compile("(TTFT|queue time|prefill time|decode time|e2e latency)"
                + " (p99|p50/p99) = (?:([0-9.]+ [a-z]+) / )?([0-9.]+ [a-z]+) \\(server spans, exact\\)").matcher(verdict);
        int quoted = 0;
        while (m.find()) {
            String[] row = rows.get(rowOf.get(m.group(1)));
            if (m.group(3) != null) {
                assertEquals(row[0], m.group(3), m.group() + " against the table");
            }
            assertEquals(row[1], m.group(4), m.group() + " against the table");
            quoted++;
        }
        assertTrue(quoted > 0 || verdict.startsWith("Verdict: KV-CACHE PRESSURE"),
                "the verdict quotes request latencies, from the spans: " + verdict);
        for (JsonNode k : j.get("top_kernels")) {
            assertTrue(k.get("min_ns").asLong() <= k.get("p50_ns").asLong()
                    && k.get("p50_ns").asLong() <= k.get("p99_ns").asLong()
                    && k.get("p99_ns").asLong() <= k.get("max_ns").asLong(), "kernel percentiles in order: " + k);
        }
    }

    @Test
    void theReportLeadsWithTheVerdictAndFoldsIdenticalWorkerTables() {
        int verdict = out.indexOf("Verdict:");
        int summary = out.indexOf("summary:");
        int kernels = out.indexOf("top 10 kernels");
        assertTrue(verdict >= 0 && verdict < summary && summary < kernels, "verdict, then summary, then kernels:\n" + out);
        assertTrue(out.lines().limit(3).anyMatch(l -> l.startsWith("Verdict:")), "the verdict within the first lines");
        assertTrue(out.contains("~: within 0.4%") || !out.contains("~"), "a legend explains the ~ mark");
        assertTrue(out.contains("total: GPU time of all launches"), "the kernel columns are explained");
    }

    @Test
    void theTorchProfilerPathHoldsTheKernelsOfTheWorkersNewestTraces() throws Exception {
        // The folder also holds the traces of the first capture's /stop_profile: the newest two are the path's own.
        List<Path> traces = new ArrayList<>();
        try (var ds = Files.newDirectoryStream(dir.resolve("torch_traces"), "*.pt.trace.json.gz")) {
            ds.forEach(traces::add);
        }
        traces.sort(Comparator.comparing(p -> p.getFileName().toString().replaceAll("^.*?\\.", "")));
        assertEquals(4, traces.size(), traces.toString());
        Map<String, Long> expected = new TreeMap<>();
        for (Path t : traces.subList(2, 4)) {
            JsonNode root;
            try (var in = new GZIPInputStream(Files.newInputStream(t))) {
                root = new ObjectMapper().readTree(in);
            }
            for (JsonNode e : root.get("traceEvents")) {
                if ("kernel".equals(e.path("cat").asText())) {
                    expected.merge(e.get("name").asText(), 1L, Long::sum);
                }
            }
        }
        Map<String, Long> got = new TreeMap<>();
        try (CaptureReader r = CaptureReader.open(dir.resolve("torch-capture.vprof"))) {
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    got.merge(name, 1L, Long::sum);
                }
            });
            assertTrue(r.hasSpans(), "the path's capture holds the requests' spans");
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected, got);
        assertTrue(out.contains("torch-capture.vprof"), out);
    }

    @Test
    void noRequestOfTheDemoIsFlaggedAsAnAnomaly() throws Exception {
        JsonNode requests = reportJson().get("requests");
        assertTrue(requests.size() > 0);
        for (JsonNode r : requests) {
            assertEquals(0, r.get("anomalies").size(), r.toString());
            assertTrue(r.get("before_engine_ns").asLong() >= 0, r.toString());
        }
    }
}
