package dev.vprof.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.cli.Cli;
import dev.vprof.cli.ExitCode;
import dev.vprof.report.ReportFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof diff … --html} in a real browser (headless Chromium, as {@link HtmlPageBrowserTest}):
 * the verdict, both sides, the ranked contributors with their intervals and the comparability
 * notes, with no console error, no network request and every chart drawn.
 */
@Timeout(300)
class DiffPageBrowserTest {
    @TempDir
    static Path dir;

    static Chromium browser;

    @BeforeAll
    static void startChromium() throws Exception {
        browser = Chromium.launchOrSkip(dir.resolve("chromium-profile"), "the diff page is not checked in a browser");
    }

    @AfterAll
    static void stopChromium() throws Exception {
        if (browser != null) {
            browser.close();
        }
    }

    private static JsonNode load(Path page, String name) throws Exception {
        HtmlPageBrowserTest.browser = browser;
        return HtmlPageBrowserTest.loadsCleanly(page, name);
    }

    @Test
    void aPlantedSlowdownIsRegressedWithItsKernelRankedFirstAndItsNameShownAsText() throws Exception {
        Path base = HostileCapture.write(dir.resolve("base.vprof"), 1);
        Path slow = HostileCapture.write(dir.resolve("slow.vprof"), 2);
        Path page = dir.resolve("diff.html");
        Cli.Result run = Cli.run("diff", base.toString(), slow.toString(), "--html",
                page.toString());
        assertEquals(0, run.code(), run.err() + run.out());
        JsonNode p = load(page, "diff-regressed");
        assertEquals("REGRESSED", p.path("verdict").asText());
        assertEquals(List.of("sides", "contributors", "categories"), HtmlPageBrowserTest.sections(p));
        assertEquals(0, p.path("images").asInt(), "no img element exists");
        String shown = p.path("text").asText();
        // The planted change, worked out here: the hostile kernel's runs doubled, one request on each
        // side (the basis), so it gained its whole base time per request.
        long planted = 0;
        for (int i = 0; i < 50; i++) {
            if (i % 3 != 0) {
                planted += HostileCapture.hostileKernelNs(i);
            }
        }
        String firstRow = "1\t" + HostileCapture.KERNEL;
        assertTrue(shown.contains(firstRow), "the hostile kernel ranked first, as text: " + shown);
        String row = shown.substring(shown.indexOf(firstRow));
        row = row.substring(0, row.indexOf('\n'));
        assertTrue(row.contains("+" + ReportFormat.duration(planted)), row + " vs +" + ReportFormat.duration(planted));
        assertTrue(shown.contains("95% CI"), "the intervals are named");
        assertTrue(shown.contains("Comparability"), "comparability notes");
    }

    @Test
    void sidesOnDifferentGpusAreNotComparableAndThePageSaysWhy() throws Exception {
        // HTA's real trace pair: an A100 run against a V100 run (fixtures/real/hta, README there).
        Path control = Path.of("../fixtures/real/hta/trace_diff/control");
        Path test = Path.of("../fixtures/real/hta/trace_diff/test");
        Path page = dir.resolve("not-comparable.html");
        Cli.Result run = Cli.run("diff", control.toString(), test.toString(), "--html",
                page.toString());
        assertEquals(ExitCode.NOT_COMPARABLE.code(), run.code(), "NOT COMPARABLE exits 4: " + run.err());
        assertTrue(Files.isRegularFile(page), "the page is written for every verdict");
        JsonNode p = load(page, "diff-not-comparable");
        assertEquals("NOT COMPARABLE", p.path("verdict").asText());
        String shown = p.path("text").asText();
        assertTrue(shown.contains("Not comparable"), shown);
        assertTrue(shown.contains("A100") && shown.contains("V100") && shown.contains("blocks the comparison"), shown);
    }
}
