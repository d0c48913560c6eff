package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.source.CaptureSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof diff} on captures of the synthetic GPU process: a capture against itself, and a
 * schedule whose GEMMs were made 30 % slower ({@code simulate --slow gemm:1.3}, another seed)
 * against the plain one. The oracle for the planted change is the base capture read directly
 * (its GEMM time per step), and the factor the simulator was given.
 */
@Timeout(240)
class DiffSimulatedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path base;
    static Path slow;
    static Path reseeded;

    @BeforeAll
    static void captures() {
        E2e e2e = E2e.nativeParts();
        base = dir.resolve("base.vprof");
        slow = dir.resolve("slow.vprof");
        reseeded = dir.resolve("reseeded.vprof");
        E2e.run(List.of("-o", base.toString()), e2e.sim("--steps", "400", "--nvtx", "--seed", "1"));
        E2e.run(List.of("-o", slow.toString()), e2e.sim("--steps", "400", "--nvtx", "--seed", "2", "--slow", "gemm:1.3"));
        E2e.run(List.of("-o", reseeded.toString()), e2e.sim("--steps", "400", "--nvtx", "--seed", "2"));
    }

    static JsonNode diffJson(int expectedCode, String... args) throws IOException {
        List<String> a = new ArrayList<>(List.of("diff", "--json"));
        a.addAll(List.of(args));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertEquals(expectedCode, r.code(), "exit code; stderr: " + r.err());
        return JSON.readTree(r.out());
    }

    @Test
    void aCaptureAgainstItselfIsNoChangeWithEveryChangeZero() throws IOException {
        JsonNode d = diffJson(0, base.toString(), base.toString());
        assertEquals("NO CHANGE", d.get("verdict").asText(), d.get("headline").asText());
        assertEquals(0.0, d.get("gpu_time").get("delta").asDouble());
        for (String table : List.of("kernels", "base_names", "categories")) {
            assertTrue(d.get(table).size() > 0, table);
            for (JsonNode row : d.get(table)) {
                assertEquals("matched", row.get("status").asText(), row.toString());
                assertEquals(0.0, row.get("time").get("delta").asDouble(), row.get("name").asText());
                assertEquals(0.0, row.get("count_change").asDouble(), row.get("name").asText());
            }
        }
        assertEquals("step", d.get("basis").get("unit").asText());
        assertEquals(400, d.get("basis").get("base_units").asInt(), "the 400 NVTX steps the simulator pushed");
    }

    @Test
    void anotherSeedOfTheSameScheduleIsNoChange() throws IOException {
        JsonNode d = diffJson(0, base.toString(), reseeded.toString());
        assertEquals("NO CHANGE", d.get("verdict").asText(), d.get("headline").asText());
    }

    /** GEMM ns per step in a capture, read directly: kernels whose name holds "gemm", over its "step" ranges. */
    private static double gemmNsPerStep(Path file) throws IOException {
        long[] gemm = {0};
        Set<Integer> steps = new TreeSet<>();
        try (CaptureReader r = CaptureSources.open(file)) {
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int c, KernelDesc desc, String name) {
                    if (name.contains("gemm")) {
                        gemm[0] += end - start;
                    }
                }

                @Override
                public void marker(int pid, MarkerEvent m) {
                    if ("step".equals(m.name())) {
                        steps.add(m.id());
                    }
                }
            });
        }
        return gemm[0] / (double) steps.size();
    }

    @Test
    void slowerGemmsRegressWithAGemmRowFirstExplainingTheChange() throws IOException {
        JsonNode d = diffJson(0, base.toString(), slow.toString());
        assertEquals("REGRESSED", d.get("verdict").asText(), d.get("headline").asText());
        JsonNode first = d.get("kernels").get(0);
        JsonNode firstCategory = d.get("categories").get(0);
        assertTrue(first.get("name").asText().contains("gemm") || firstCategory.get("name").asText().equals("GEMM"),
                "a GEMM row first: " + first.get("name") + " / " + firstCategory.get("name"));
        assertTrue(first.get("time").get("ci_low").asDouble() > 0, "the first row's interval excludes 0: " + first);
        // The GEMM rows' share of the change the shown rows explain, the GEMM rows told by name here.
        int top = d.get("settings").get("top").asInt();
        double gemm = 0, shown = 0;
        for (int i = 0; i < Math.min(top, d.get("kernels").size()); i++) {
            JsonNode row = d.get("kernels").get(i);
            double delta = row.get("time").get("delta").asDouble();
            shown += delta;
            if (row.get("name").asText().contains("gemm")) {
                gemm += delta;
            }
        }
        assertTrue(gemm / shown >= 0.9, "GEMM share of the explained change " + gemm / shown);
        // The planted change: 30 % of the base's GEMM time per step.
        double expected = 0.3 * gemmNsPerStep(base);
        JsonNode gemmCategory = null;
        for (JsonNode c : d.get("categories")) {
            if (c.get("name").asText().equals("GEMM")) {
                gemmCategory = c;
            }
        }
        double measured = gemmCategory.get("time").get("delta").asDouble();
        assertEquals(expected, measured, 0.05 * expected, "GEMM change per step against 0.3 x its base time");
        assertTrue(d.get("gpu_time").get("ci_low").asDouble() > 0, d.get("gpu_time").toString());
    }

    @Test
    void exitCodes() throws IOException {
        assertEquals(1, Cli.run("diff", "--fail-on-regression", base.toString(), slow.toString()).code());
        assertEquals(0, Cli.run("diff", "--fail-on-regression", base.toString(), base.toString()).code());
        assertEquals(0, Cli.run("diff", base.toString(), slow.toString()).code(), "REGRESSED alone exits 0");
        Cli.Result one = Cli.run("diff", base.toString());
        assertEquals(2, one.code());
        assertTrue(one.err().contains("--split-at"), one.err());
        assertEquals(2, Cli.run("diff", base.toString(), dir.resolve("missing.vprof").toString()).code());
        assertEquals(2, Cli.run("diff", base.toString(), slow.toString(), "--split-at", "1s").code());
        assertEquals(2, Cli.run("diff", base.toString(), "--base-window", "5s..1s", "--new-window", "1s..2s").code());
        assertEquals(2, Cli.run("diff", base.toString(), "--base-window", "0s..1s").code());
        assertEquals(2, Cli.run("diff", "--top", "0", base.toString(), slow.toString()).code());
        Cli.Result past = Cli.run("diff", base.toString(), "--split-at", "1h");
        assertEquals(2, past.code(), "a side without kernels");
        assertTrue(past.err().contains("holds no kernels"), past.err());
        assertEquals(2, Cli.run("diff", "--rank", "7", base.toString(), slow.toString()).code(), "no such rank");
        Path notCapture = dir.resolve("not-a-capture.vprof");
        Files.writeString(notCapture, "hello");
        Cli.Result bad = Cli.run("diff", notCapture.toString(), base.toString());
        assertEquals(2, bad.code());
        assertTrue(!bad.err().contains("Exception"), "one sentence, no stack trace: " + bad.err());
    }

    @Test
    void theTextLeadsWithTheVerdict() {
        Cli.Result r = Cli.run("diff", base.toString(), slow.toString());
        // The row that moved most is named first (every GEMM was made 1.3x slower), then the total.
        String first = r.out().lines().findFirst().orElse("");
        assertTrue(first.startsWith("REGRESSED: GEMM "), first);
        assertTrue(first.contains("of GPU time per step; GPU time per step +"), first);
        assertTrue(r.out().lines().count() <= 50, "fits a screen with the default --top: " + r.out());
    }

    @Test
    void theHtmlPageIsWrittenAndAnExistingOneIsRefused() throws IOException {
        Path page = dir.resolve("diff.html");
        Cli.Result r = Cli.run("diff", "--html", page.toString(), base.toString(), slow.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(page).contains("REGRESSED"), "the verdict is on the page");
        Cli.Result again = Cli.run("diff", "--html", page.toString(), base.toString(), slow.toString());
        assertEquals(2, again.code());
        assertTrue(again.err().contains("already exists"), again.err());
    }

    /** Every key the JSON holds is documented in docs/diff.md (as `key`). */
    @Test
    void everyJsonKeyIsDocumented() throws IOException {
        String doc = Files.readString(Path.of("../docs/diff.md"));
        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("`([a-z0-9_]+)`").matcher(doc);
        while (m.find()) {
            documented.add(m.group(1));
        }
        Set<String> keys = new TreeSet<>();
        collect(diffJson(0, base.toString(), slow.toString(), "--by-shape"), keys);
        collect(diffJson(0, base.toString(), base.toString()), keys);
        keys.removeAll(documented);
        assertTrue(keys.isEmpty(), "keys missing from docs/diff.md: " + keys);
    }

    static void collect(JsonNode n, Set<String> keys) {
        if (n.isObject()) {
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                keys.add(k);
                collect(n.get(k), keys);
            }
        } else if (n.isArray()) {
            for (JsonNode x : n) {
                collect(x, keys);
            }
        }
    }
}
