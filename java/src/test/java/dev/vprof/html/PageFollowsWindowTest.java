package dev.vprof.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.cli.Cli;
import dev.vprof.trace.TraceOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof report --window A..B --html}: the page's kernel table and each row's duration
 * histogram count the same kernels, those that start in the window. Read off the page itself: a
 * row's count cell, and the counts in its histogram bars' titles ("from to to: N").
 */
class PageFollowsWindowTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ROW = Pattern.compile(
            "<tr><td class=\"name\">.*?</td><td class=\"n\" data-v=\"(\\d+)\">.*?</tr>", Pattern.DOTALL);
    private static final Pattern BAR = Pattern.compile("<rect class=\"hist mark\"[^>]*><title>[^<]*: (\\d+)</title>");

    @TempDir
    Path dir;

    @Test
    void aKernelRowsCountIsItsHistogramsBinSumInsideAWindow() throws Exception {
        Path trace = TraceOracle.REAL.resolve("hta/trace_diff/test/test.json.gz");
        Path page = dir.resolve("page.html");
        Cli.Result run = Cli.run("report", "--json", "--window", "0s..100ms",
                trace.toString(), "--html", page.toString());
        assertEquals(0, run.code(), run.err());
        JsonNode report = JSON.readTree(run.out());
        long inWindow = report.path("totals").path("kernels").asLong();
        assertTrue(inWindow > 0 && inWindow < TraceOracle.kernels(trace).count(), "a part of the trace: " + inWindow);
        String html = Files.readString(page);
        int table = html.indexOf("id=\"kernel-table\"");
        assertTrue(table > 0, "the page has its kernel table");
        Matcher rows = ROW.matcher(html.substring(table, html.indexOf("</table>", table)));
        int checked = 0;
        while (rows.find()) {
            long count = Long.parseLong(rows.group(1));
            long binned = 0;
            Matcher bars = BAR.matcher(rows.group());
            while (bars.find()) {
                binned += Long.parseLong(bars.group(1));
            }
            assertEquals(count, binned, "row " + checked + ": its count and its histogram's bins");
            checked++;
        }
        assertTrue(checked > 0, "the page lists kernels");
    }
}
