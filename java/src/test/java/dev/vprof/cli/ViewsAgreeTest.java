package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureReader;
import dev.vprof.html.PageData;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.Span;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import dev.vprof.source.CaptureSources;
import dev.vprof.spanexport.GpuSpans;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Selection;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One capture, every view, the same numbers: the kernel count, the per-name counts and totals and the
 * step count of {@code report} (text and JSON), of the HTML page's data, and of {@code diff X X}'s
 * sides, and, over the whole capture, each request's GPU time per phase in the report and in the
 * OTLP export. Inputs: a capture with spans, metrics and an NVTX step whose every answer is known
 * ({@link SyntheticCapture}), a simulator capture with an NVTX step range per step, and a real
 * PyTorch trace; each whole and through a window (the report's {@code --window}, the page of that
 * report, the diff's {@code --base-window}/{@code --new-window}). Then the same on every real fixture
 * that holds CUDA work, checked against the fixture's own count by another reader.
 */
@Timeout(300)
class ViewsAgreeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The text report's kernel table: total (11), count (9), mean (11), p50 (12), p99 (12), max (11), name. */
    private static final Pattern KERNEL_ROW = Pattern.compile(
            "^  (.{11}) (.{9}) (.{11}) (.{12}) (.{12}) (.{11})  (.*)$");
    private static final Pattern SUMMARY = Pattern.compile("summary: .*?, (\\d+) kernels \\(");
    private static final Pattern STEPS = Pattern.compile("\nsteps \\([^)]*\\): (\\d+),");

    @TempDir
    static Path dir;
    static Path synthetic;
    static Path simulated;

    @BeforeAll
    static void captures() throws IOException {
        synthetic = SyntheticCapture.write(dir.resolve("synthetic.vprof"), true);
        simulated = dir.resolve("simulated.vprof");
        E2e e2e = E2e.nativeParts();
        E2e.run(List.of("-o", simulated.toString()), e2e.sim("--steps", "120", "--step-us", "2000", "--nvtx"));
    }

    record Case(String input, String window) {
        Path path() {
            return switch (input) {
                case "synthetic" -> synthetic;
                case "simulated" -> simulated;
                default -> TraceOracle.REAL.resolve("hta/trace_diff/test/test.json.gz");
            };
        }

        @Override
        public String toString() {
            return input + (window == null ? "" : " --window " + window);
        }
    }

    static List<Case> cases() {
        return List.of(new Case("synthetic", null), new Case("synthetic", "1s..3s"),
                new Case("simulated", null), new Case("simulated", "100ms..200ms"),
                new Case("trace", null), new Case("trace", "100ms..400ms"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyViewCountsTheSameKernelsNamesAndSteps(Case c) throws IOException {
        viewsAgree(c.path(), c.window(), c.toString());
    }

    /**
     * The agreement matrix on every real fixture that holds CUDA work (each PyTorch trace, each
     * Nsight Systems export), whole: every view agrees as above, and with the file's own count kept
     * by another reader: the trace's kernel events tallied by Jackson, the export's kernel rows by
     * SQL; the SQLite export of each holds that many kernel rows too (SQL again).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void everyViewAgreesWithTheFixturesOwnCount(Path fixture) throws Exception {
        Map<String, long[]> byName = viewsAgree(fixture, null, fixture.toString());
        long kernels = byName.values().stream().mapToLong(v -> v[0]).sum();
        List<Long> counts = byName.values().stream().map(v -> v[0]).sorted().toList();
        if (fixture.toString().endsWith(".sqlite")) {
            List<Long> sql = new ArrayList<>();
            try (Connection db = DriverManager.getConnection("jdbc:sqlite:file:" + fixture.toAbsolutePath() + "?mode=ro");
                 Statement st = db.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY "
                         + "coalesce(demangledName, shortName)")) {
                while (rs.next()) {
                    sql.add(rs.getLong(1));
                }
            }
            assertEquals(sql.stream().mapToLong(Long::longValue).sum(), kernels, fixture + ": kernels, by SQL");
            assertEquals(sql.stream().sorted().toList(), counts, fixture + ": kernels per name, by SQL");
        } else {
            TraceOracle.Kernels oracle = TraceOracle.kernels(fixture);
            assertEquals(oracle.count(), kernels, fixture + ": kernels, by Jackson");
            assertEquals(oracle.byName().values().stream().map(v -> v[0]).sorted().toList(), counts,
                    fixture + ": kernels per name, by Jackson");
        }
        Path sqlite = dir.resolve(fixture.getFileName() + ".export.sqlite");
        ok(Cli.run("export", fixture.toString(), "-o", sqlite.toString(), "--force"));
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:file:" + sqlite.toAbsolutePath() + "?mode=ro");
             Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")) {
            assertTrue(rs.next());
            assertEquals(kernels, rs.getLong(1), fixture + ": the SQLite export's kernel rows");
        }
    }

    static List<Path> fixtures() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path t : TraceOracle.cudaTraces()) {
            if (TraceOracle.kernels(t).count() > 0) {
                all.add(t);
            }
        }
        all.add(TraceOracle.REAL.resolve("nsys-ai/h100_2gpu_1s.sqlite"));
        all.add(TraceOracle.REAL.resolve("pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"));
        return all;
    }

    /** Every view of {@code file} (through {@code window}, or whole when null) agrees; the report's counts and totals by name. */
    private static Map<String, long[]> viewsAgree(Path file, String window, String c) throws IOException {
        List<String> windowArgs = window == null ? List.of() : List.of("--window", window);

        // report --json and report text
        JsonNode json = JSON.readTree(ok(cli(List.of("report", "--json", "--top", "1000"), windowArgs, file)).out());
        String text = ok(cli(List.of("report", "--top", "1000"), windowArgs, file)).out();
        long kernels = json.get("totals").get("kernels").asLong();
        assertTrue(kernels > 0, c + ": the view holds kernels");
        Map<String, long[]> byName = new TreeMap<>();
        long summed = 0;
        for (JsonNode k : json.get("top_kernels")) {
            byName.put(k.get("name").asText(), new long[] {k.get("count").asLong(), k.get("total_ns").asLong()});
            summed += k.get("count").asLong();
        }
        assertEquals(kernels, summed, c + ": the per-name counts add up to the kernels");
        Matcher summary = SUMMARY.matcher(text);
        assertTrue(summary.find(), text);
        assertEquals(kernels, Long.parseLong(summary.group(1)), c + ": text summary");
        assertEquals(byName.keySet(), textCounts(text).keySet(), c + ": text kernel names");
        textCounts(text).forEach((name, count) -> assertEquals(byName.get(name)[0], count, c + ": text count of " + name));
        long steps = json.get("steps").isNull() ? 0 : json.get("steps").get("count").asLong();
        Matcher stepLine = STEPS.matcher(text);
        assertEquals(steps, stepLine.find() ? Long.parseLong(stepLine.group(1)) : 0, c + ": text steps");
        if (steps > 0) {
            long inSteps = 0;
            for (JsonNode r : json.get("steps").get("rows")) {
                inSteps += r.get("kernels").asLong();
            }
            assertEquals(kernels, inSteps + json.get("steps").get("outside").get("kernels").asLong(),
                    c + ": every kernel in a step or outside them");
        }

        // the page's data, of the report as the command narrows it
        try (CaptureReader reader = CaptureSources.open(file)) {
            KernelNames names = KernelNames.demangled();
            Report whole = CaptureReport.build(reader, 1000, names);
            CaptureWindow only = window == null ? null : Selection.parseWindow("--window", window)
                    .within(new CaptureWindow(whole.window().startNs(), whole.window().endNs(), whole.window().source()));
            Report report = only == null ? whole : CaptureReport.build(reader, 1000, names, only);
            assertEquals(kernels, report.totals().kernels(), c + ": the command's report and the API's");
            PageData page = PageData.collect(reader, report, names, only);
            long binned = 0;
            for (PageData.KernelHistogram h : page.kernels()) {
                long n = 0;
                for (long v : h.counts()) {
                    n += v;
                }
                assertEquals(byName.get(h.name())[0], n, c + ": the page's bins of " + h.name());
                binned += n;
            }
            if (page.kernels().size() == byName.size()) { // the page draws its top 100 names
                assertEquals(kernels, binned, c + ": the page bins every kernel");
            }
            long pageSteps = page.steps().isEmpty() || !page.steps().getFirst().step() ? 0 : page.steps().getFirst().count();
            assertEquals(steps, pageSteps, c + ": the page's steps");

            if (window == null && !report.requests().isEmpty()) {
                otlpAgrees(c, reader, report);
            }
        }

        // diff X X: each side is the same view
        List<String> diffArgs = new ArrayList<>(List.of("diff", "--json", "--top", "1000"));
        if (window != null) {
            diffArgs.addAll(List.of("--base-window", window, "--new-window", window, file.toString()));
        } else {
            diffArgs.addAll(List.of(file.toString(), file.toString()));
        }
        JsonNode diff = JSON.readTree(ok(Cli.run(diffArgs.toArray(String[]::new))).out());
        for (String side : List.of("base", "new")) {
            JsonNode s = diff.get(side);
            assertEquals(kernels, s.get("kernels").asLong(), c + ": diff's " + side + " kernels");
            assertEquals(byName.values().stream().mapToLong(v -> v[1]).sum(), s.get("gpu_ns").asLong(),
                    c + ": diff's " + side + " GPU time");
            assertEquals(steps, s.get("steps").asLong(), c + ": diff's " + side + " steps");
            long outside = s.get("outside_steps").isNull() ? 0 : s.get("outside_steps").get("kernels").asLong();
            Map<String, long[]> rows = new TreeMap<>();
            for (JsonNode r : diff.get("kernels")) {
                JsonNode f = r.get(side);
                if (f.get("count").asLong() > 0) {
                    rows.put(r.get("name").asText(), new long[] {f.get("count").asLong(), f.get("total_ns").asLong()});
                }
            }
            if (outside == 0) { // the rows are the kernels of the side's steps (all of them here)
                assertEquals(byName.keySet(), rows.keySet(), c + ": diff's " + side + " names");
                byName.forEach((n, v) -> {
                    assertEquals(v[0], rows.get(n)[0], c + ": diff's count of " + n);
                    assertEquals(v[1], rows.get(n)[1], c + ": diff's total of " + n);
                });
            } else {
                assertEquals(kernels, rows.values().stream().mapToLong(v -> v[0]).sum() + outside, c + ": diff's rows");
            }
        }
        return byName;
    }

    /** Each request's GPU time per phase: the report's, and the attributes the OTLP export sends. */
    private static void otlpAgrees(String c, CaptureReader reader, Report report) {
        Map<String, Report.RequestSummary> requests = new HashMap<>();
        report.requests().forEach(r -> requests.put(r.requestId(), r));
        int seen = 0;
        for (Span s : GpuSpans.of(reader)) {
            if (!s.name().equals("llm_request")) {
                continue;
            }
            Map<String, AnyValue> a = new HashMap<>();
            for (Attribute x : s.attributes()) {
                a.put(x.key(), x.value());
            }
            AnyValue given = a.get(RequestPhases.ATTR_REQUEST_ID);
            String id = given == null || given.asText().isEmpty() ? s.spanIdHex() : given.asText();
            Report.RequestSummary r = requests.get(id);
            assertTrue(r != null, c + ": request " + id + " is in the report");
            assertEquals(r.gpuNsInQueue(), gpu(a, "queue"), c + ": " + id + " queue");
            assertEquals(r.gpuNsInPrefill(), gpu(a, "prefill"), c + ": " + id + " prefill");
            assertEquals(r.gpuNsInDecode(), gpu(a, "decode"), c + ": " + id + " decode");
            seen++;
        }
        assertEquals(report.requests().size(), seen, c + ": every request exported");
    }

    private static long gpu(Map<String, AnyValue> attributes, String phase) {
        return (long) attributes.get("vprof.gpu.busy_ns." + phase).asDouble();
    }

    /** Name -> count, from the text report's first kernel table. */
    private static Map<String, Long> textCounts(String text) {
        Map<String, Long> out = new TreeMap<>();
        boolean in = false;
        for (String line : text.split("\n")) {
            if (line.contains("kernels by total time, all processes and ranges:")) {
                in = true;
                continue;
            }
            if (in) {
                if (line.startsWith("  total:")) {
                    break;
                }
                Matcher m = KERNEL_ROW.matcher(line);
                if (m.matches() && !m.group(2).strip().equals("count")) {
                    out.put(m.group(7), Long.parseLong(m.group(2).strip()));
                }
            }
        }
        return out;
    }

    private static Cli.Result cli(List<String> head, List<String> window, Path file) {
        List<String> a = new ArrayList<>(head);
        a.addAll(window);
        a.add(file.toString());
        return Cli.run(a.toArray(String[]::new));
    }

    private static Cli.Result ok(Cli.Result r) {
        assertEquals(0, r.code(), r.err());
        return r;
    }
}
