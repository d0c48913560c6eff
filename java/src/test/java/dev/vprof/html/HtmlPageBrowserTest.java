package dev.vprof.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.analysis.AnalysisText;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.cli.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML pages in a real browser: Debian's Chromium, headless, through its DevTools protocol.
 * Each page must load from disk with no console error and no network request, draw every chart,
 * show the verdict; a screenshot of each is kept under target/html-screenshots/. Without Chromium
 * the tests fail under CI=true and are skipped, with the reason, elsewhere.
 */
@Timeout(300)
class HtmlPageBrowserTest {
    @TempDir
    static Path dir;

    static final Path SHOTS = Path.of("target", "html-screenshots");
    static Chromium browser;

    @BeforeAll
    static void startChromium() throws Exception {
        browser = Chromium.launchOrSkip(dir.resolve("chromium-profile"), "the HTML pages are not checked in a browser");
    }

    @AfterAll
    static void stopChromium() throws Exception {
        if (browser != null) {
            browser.close();
        }
    }

    /** The checks every page passes; returns the probe. */
    static JsonNode loadsCleanly(Path page, String name) throws Exception {
        assertTrue(Files.size(page) <= 3L << 20, page + " is " + Files.size(page) + " bytes, over 3 MiB");
        Chromium.PageLoad load = browser.load(page, PageProbe.EXPRESSION, SHOTS.resolve(name + ".png"));
        assertEquals(List.of(), load.consoleErrors(), "console errors in " + name);
        assertEquals(List.of(), load.networkRequests(), "network requests from " + name);
        assertEquals(List.of(), load.dialogs(), "dialogs opened by " + name);
        JsonNode p = load.probe();
        assertEquals("1", p.path("ready").asText(), "the page's script ran to its end in " + name);
        assertEquals(1, p.path("scripts").asInt(), "the page's own script and no other");
        assertEquals(0, p.path("handlers").asInt(), "no element carries an event-handler attribute");
        assertTrue(p.path("charts").size() > 0, "no chart in " + name);
        for (JsonNode c : p.path("charts")) {
            assertTrue(c.path("width").asDouble() > 0 && c.path("height").asDouble() > 0, "chart not drawn: " + c);
            assertTrue(c.path("marks").asInt() > 0, "chart with nothing drawn in it: " + c);
        }
        assertTrue(Files.size(load.screenshot()) > 10_000, "screenshot kept: " + load.screenshot());
        return p;
    }

    static List<String> sections(JsonNode probe) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : probe.path("charts")) {
            if (!out.contains(c.path("section").asText())) {
                out.add(c.path("section").asText());
            }
        }
        return out;
    }

    @Test
    void theDemosPageLoadsCleanlyWithEveryChartDrawnAndTheVerdict() throws Exception {
        Path demo = dir.resolve("vprof-demo");
        Cli.Result run = Cli.smallDemo(demo);
        Path page = demo.resolve("report.html");
        assertTrue(Files.isRegularFile(page), "the demo writes report.html");
        assertTrue(run.out().contains("report.html") && run.out().contains(page.toAbsolutePath().toString()),
                "the demo names the page and says where it is: " + run.out());
        JsonNode p = loadsCleanly(page, "demo-report");
        // The verdict the page shows is the one the text report leads with.
        String text = Files.readString(demo.resolve("report.txt"));
        Matcher v = Pattern.compile("Verdict: ([^\\n(]+)").matcher(text);
        assertTrue(v.find(), text);
        String verdict = p.path("verdict").asText();
        assertTrue(verdict.toUpperCase(java.util.Locale.ROOT).startsWith(v.group(1).trim()), "page verdict '" + verdict + "' vs '" + v.group(1) + "'");
        assertEquals(List.of("timeline", "requests", "kernels"), sections(p), "the demo's charts");
        // What the text report says beyond the charts: each of the verdict's Next steps, the queue facts,
        // the slowest requests' phase tables, and the analyses (breakdown, phases, summaries).
        String shown = p.path("text").asText();
        Matcher next = Pattern.compile("(?m)^    > (.+)$").matcher(text);
        int steps = 0;
        while (next.find()) {
            steps++;
            assertTrue(shown.contains(next.group(1).trim()), "the page holds the advice '" + next.group(1) + "'");
        }
        assertTrue(steps > 0 && shown.contains("Next:"), "the verdict's Next: advice: " + text);
        assertTrue(shown.contains("Requests queued for"), "queue facts: " + shown);
        assertTrue(shown.contains("Top kernels in the prefill of the slowest")
                && shown.contains("Top kernels in the decode of the slowest"), "slow-phase tables: " + shown);
        assertTrue(text.contains("top kernels in the prefill of the slowest"), "the text has them too: " + text);
        for (String h : List.of("Where the GPU's time went", "Inside request phases", "slowest prefill",
                "cuda_gpu_kern_sum")) {
            assertTrue(shown.contains(h), h + ": " + shown);
        }
        // Its kernel count against one counted here, straight from the file.
        long[] kernels = {0};
        try (CaptureReader reader = CaptureReader.open(demo.resolve("capture.vprof"))) {
            reader.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    kernels[0]++;
                }
            });
        }
        assertTrue(kernels[0] > 0);
        assertTrue(p.path("text").asText().contains(kernels[0] + " kernels in all"), p.path("text").asText());
        // Every table and fact the page holds, number by number, against report --json of the same capture.
        List<String> held = agreesWithTheJson(p, demo.resolve("capture.vprof"));
        assertTrue(held.containsAll(List.of("next", "queue", "slow-prefill", "slow-decode", "breakdown-table",
                "phase-table", "stragglers-table", "cuda_gpu_kern_sum")), held.toString());
        // Red is for loss: none on the demo's page unless records were dropped (a busy machine can fill the ring).
        JsonNode totals = new ObjectMapper().readTree(Cli.run("report", demo.resolve("capture.vprof").toString(), "--json")
                .out()).path("totals");
        if (totals.path("ring_drops").asLong() + totals.path("cupti_drops").asLong() == 0) {
            assertTrue(p.path("bad").isEmpty(), "marked bad on a demo that lost nothing: " + p.path("bad"));
        }
    }

    /** The page's tables against report --json and report --section (every section) --json of {@code input}. */
    static List<String> agreesWithTheJson(JsonNode probe, Path input) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Cli.Result report = Cli.run("report", input.toString(), "--json");
        assertEquals(0, report.code(), report.err());
        Cli.Result sections = Cli.run("report", input.toString(), "--section", String.join(",", AnalysisText.sections()),
                "--json");
        assertEquals(0, sections.code(), sections.err());
        List<String> held = new ArrayList<>(PageAgreesWithJson.report(probe, json.readTree(report.out())));
        held.addAll(PageAgreesWithJson.analyses(probe, json.readTree(sections.out())));
        return held;
    }

    @Test
    void aFolderOfRankTracesShowsItsRanksStragglersStepsAndLaunchQueue() throws Exception {
        // HTA's trace_filter test data: two ranks of one job, each a Kineto trace (fixtures/real/README.md).
        Path ranks = Path.of("../fixtures/real/hta/trace_filter");
        Path page = dir.resolve("ranks.html");
        Cli.Result run = Cli.run("report", ranks.toString(), "--html", page.toString());
        assertEquals(0, run.code(), run.err());
        JsonNode p = loadsCleanly(page, "ranks-report");
        List<String> held = agreesWithTheJson(p, ranks);
        assertTrue(held.containsAll(List.of("steps", "breakdown-table", "ranks-table", "stragglers-table",
                "launch-queue-table", "cuda_gpu_kern_sum", "cuda_api_sum")), held.toString());
        // Steps named as the source names them, on both ranks.
        assertTrue(PageAgreesWithJson.table(p, "ranks-table").get(0).get(0).path("text").asText()
                .startsWith("ProfilerStep#"), p.path("tables").path("ranks-table").toString());
        // Two of the job's ranks, no metrics: normal for a trace, so nothing in red.
        assertTrue(p.path("bad").isEmpty(), "marked bad: " + p.path("bad"));
        // One rank alone has no rank tables, and nothing in red either.
        Path one = dir.resolve("rank0.html");
        assertEquals(0, Cli.run("report", ranks.resolve("sampled_rank-0.json.gz").toString(), "--html", one.toString())
                .code());
        JsonNode q = loadsCleanly(one, "rank0-report");
        assertTrue(q.path("bad").isEmpty(), "marked bad: " + q.path("bad"));
        assertTrue(PageAgreesWithJson.table(q, "ranks-table").isMissingNode()
                && PageAgreesWithJson.table(q, "stragglers-table").isMissingNode(), "no rank tables for one rank");
        agreesWithTheJson(q, ranks.resolve("sampled_rank-0.json.gz"));
    }

    @Test
    void hostileStringsAreShownAsTextAndNothingRuns() throws Exception {
        Path capture = HostileCapture.write(dir.resolve("hostile.vprof"));
        Path page = dir.resolve("hostile.html");
        Cli.Result run = Cli.run("report", capture.toString(), "--html", page.toString());
        assertEquals(0, run.code(), run.err());
        JsonNode p = loadsCleanly(page, "hostile-report");
        assertEquals(0, p.path("images").asInt(), "no img element exists");
        String shown = p.path("text").asText();
        assertTrue(shown.contains(HostileCapture.KERNEL), "the kernel name is shown as text: " + shown);
        assertTrue(shown.contains(HostileCapture.ATTRIBUTE), "the span attribute is shown as text: " + shown);
        assertTrue(shown.contains(HostileCapture.COMMAND), "the command line is shown as text: " + shown);
        assertTrue(sections(p).containsAll(List.of("timeline", "requests", "kernels")), sections(p).toString());
    }

    @Test
    void aCaptureWithMetricsAndSpansDrawsTheirLanesAndTheVerdict() throws Exception {
        Path capture = SyntheticCapture.write(dir.resolve("serving.vprof"), true);
        Path page = dir.resolve("serving.html");
        Cli.Result run = Cli.run("report", capture.toString(), "--html", page.toString());
        assertEquals(0, run.code(), run.err());
        JsonNode p = loadsCleanly(page, "serving-report");
        assertTrue(!p.path("verdict").asText().isBlank(), "verdict present");
        String shown = p.path("text").asText();
        // The synthetic capture's gauges (see SyntheticCapture): waiting peaks at 3 inside the window
        // and 5 after it; KV-cache use at 0.9 after it.
        for (String lane : List.of("queue depth (waiting)", "running requests", "KV-cache use")) {
            assertTrue(shown.contains(lane), lane + " lane: " + shown);
        }
        // req-A and req-B end inside the window (0.5 .. 9.5 s); req-C, at 20 s, is marked as outside it.
        assertTrue(shown.contains("req-A") && shown.contains("req-B"), shown);
        Matcher c = Pattern.compile("req-C[^\\n]*").matcher(shown);
        List<String> rows = new ArrayList<>();
        while (c.find()) {
            rows.add(c.group());
        }
        assertTrue(rows.stream().anyMatch(r -> r.endsWith("outside the capture window")), rows.toString());
        assertTrue(rows.stream().noneMatch(r -> r.contains("req-A") || r.contains("req-B")), rows.toString());
    }

    @Test
    void theTimelineZoomsByDraggingAndTheKernelTableSorts() throws Exception {
        Path capture = HostileCapture.write(dir.resolve("interact.vprof"));
        Path page = dir.resolve("interact.html");
        assertEquals(0, Cli.run("report", capture.toString(), "--html", page.toString()).code());
        Chromium.PageLoad load = browser.load(page, PageProbe.INTERACT, SHOTS.resolve("interact.png"));
        assertEquals(List.of(), load.consoleErrors());
        JsonNode p = load.probe();
        String[] before = p.path("before").asText().split(" ");
        String[] after = p.path("after").asText().split(" ");
        assertEquals("0", before[0]);
        assertEquals("1000", before[2]);
        // A quarter to a half of 1000 units: 250 wide from 250 (rounding of pixels aside).
        assertEquals(250, Double.parseDouble(after[0]), 2);
        assertEquals(250, Double.parseDouble(after[2]), 2);
        assertTrue(p.path("readout").asText().contains("(zoomed)"), p.path("readout").asText());
        assertEquals(p.path("before").asText(), p.path("reset").asText(), "reset zoom goes back");
        // The capture's two kernels run 33 and 17 times (HostileCapture): descending, then ascending.
        assertEquals("[33,17]", p.path("first").toString());
        assertEquals("[17,33]", p.path("second").toString());
    }

    @Test
    void aRealPyTorchTracesPageCountsItsKernels() throws Exception {
        // TraceLens's H100 BERT inference trace (fixtures/real/README.md): its kernels counted here
        // from the JSON itself.
        Path trace = Path.of("../fixtures/real/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
        long kernels = 0;
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(trace))) {
            JsonNode events = new com.fasterxml.jackson.databind.ObjectMapper().readTree(in).path("traceEvents");
            for (JsonNode e : events) {
                if ("kernel".equals(e.path("cat").asText()) && "X".equals(e.path("ph").asText())) {
                    kernels++;
                }
            }
        }
        assertTrue(kernels > 0);
        Path page = dir.resolve("bert.html");
        Cli.Result run = Cli.run("report", trace.toString(), "--html", page.toString());
        assertEquals(0, run.code(), run.err());
        JsonNode p = loadsCleanly(page, "trace-report");
        assertTrue(p.path("text").asText().contains(kernels + " kernels in all"), kernels + " kernels: "
                + p.path("text").asText());
        assertTrue(sections(p).containsAll(List.of("timeline", "kernels")), sections(p).toString());
    }
}
