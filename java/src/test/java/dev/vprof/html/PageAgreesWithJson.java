package dev.vprof.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.report.ReportFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's tables, as Chromium rendered them ({@link PageProbe#EXPRESSION}'s {@code tables}),
 * against {@code vprof report --json} and {@code vprof report --section ... --json} of the same
 * input: row by row, every number the page holds (its cells' whole-ns {@code data-v}), every name
 * in full (a long one shortened on the page with the whole name on hover).
 */
final class PageAgreesWithJson {
    private PageAgreesWithJson() {}

    /** The analyses' section names whose tables the page shows. */
    static final List<String> ANALYSES = List.of("breakdown", "phases", "ranks", "stragglers", "launch_queue");

    /** Characters the page shows of a name (AnalysisSections.NAME_CHARS). */
    private static final int NAME_CHARS = 90;

    /** The rows of table {@code id}; an absent table has none. */
    static JsonNode table(JsonNode probe, String id) {
        return probe.path("tables").path(id);
    }

    /** A name cell's whole name: its hover text when shortened, checked to be a prefix of what is shown. */
    static String name(JsonNode cell) {
        String text = cell.path("text").asText();
        String title = cell.path("title").asText();
        if (title.isEmpty()) {
            assertTrue(text.length() <= NAME_CHARS, "a long name is shortened: " + text);
            return text;
        }
        assertEquals(NAME_CHARS, text.length(), "shortened to " + NAME_CHARS + " characters: " + text);
        assertTrue(text.endsWith("…") && title.startsWith(text.substring(0, NAME_CHARS - 1)), text + " / " + title);
        return title;
    }

    private static long v(JsonNode cell) {
        return Long.parseLong(cell.path("v").asText());
    }

    /** The JSON row {@code x}'s {@code fields} are the values of the cells of {@code c} from {@code first} on, in order. */
    private static void assertLongs(JsonNode x, JsonNode c, int first, String... fields) {
        for (int i = 0; i < fields.length; i++) {
            assertEquals(x.path(fields[i]).asLong(), v(c.get(first + i)), fields[i]);
        }
    }

    private static String rank(Map<Integer, String> ranks, int pid) {
        return ranks.getOrDefault(pid, "pid " + pid);
    }

    /**
     * Each analysis table of the page against {@code sections} ({@code report --section ... --json}):
     * same rows in the same order (the page lists at most {@code CapturePage.MAX_ROWS}). Returns the
     * tables that had rows.
     */
    static List<String> analyses(JsonNode probe, JsonNode sections) {
        List<String> checked = new ArrayList<>();
        // The rank each pid is shown as, from the breakdown's rows.
        Map<Integer, String> ranks = new HashMap<>();
        for (JsonNode x : sections.path("breakdown").path("rows")) {
            ranks.put(x.path("pid").asInt(), x.has("rank") ? "rank " + x.path("rank").asInt() : "pid " + x.path("pid").asInt());
        }
        rows(probe, "breakdown-table", sections.path("breakdown"), checked, (c, x) -> {
            assertEquals(rank(ranks, x.path("pid").asInt()), c.get(0).path("text").asText());
            assertEquals(x.path("device").asInt(), (int) v(c.get(1)));
            assertEquals(x.path("step").isNull() ? "capture" : x.path("step").asText(), c.get(2).path("text").asText());
            long[] want = {x.path("span_ns").asLong(), x.path("idle_ns").asLong(), x.path("compute_ns").asLong(),
                x.path("communication_ns").asLong(), x.path("memory_ns").asLong(), x.path("overlap_ns").asLong()};
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], v(c.get(3 + i)), "breakdown column " + (3 + i) + " of " + x);
            }
        });
        rows(probe, "phase-table", sections.path("phases"), checked, (c, x) -> {
            assertEquals(x.path("phase").asText(), c.get(0).path("text").asText());
            assertEquals(x.path("requests").asLong(), v(c.get(1)));
            assertEquals(rank(ranks, x.path("pid").asInt()), c.get(2).path("text").asText());
            assertEquals(x.path("device").asLong(), v(c.get(3)));
            long[] want = {x.path("length_ns").asLong(), x.path("idle_ns").asLong(), x.path("compute_ns").asLong(),
                x.path("communication_ns").asLong(), x.path("memory_ns").asLong()};
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], v(c.get(4 + i)), "phase column " + (4 + i) + " of " + x);
            }
        });
        rows(probe, "ranks-table", sections.path("ranks"), checked, (c, x) -> {
            assertEquals(x.path("step").asText(), name(c.get(0)));
            assertEquals(x.path("ranks").asLong(), v(c.get(1)));
            assertEquals(rank(ranks, x.path("slowest_pid").asInt()), c.get(2).path("text").asText());
            assertEquals(x.path("slowest_span_ns").asLong(), v(c.get(3)));
            assertEquals(rank(ranks, x.path("fastest_pid").asInt()), c.get(4).path("text").asText());
            assertLongs(x, c, 5, "fastest_span_ns", "spread_ns", "compute_delta_ns", "communication_delta_ns", "idle_delta_ns");
        });
        rows(probe, "stragglers-table", sections.path("stragglers"), checked, (c, x) -> {
            assertEquals(rank(ranks, x.path("pid").asInt()), c.get(0).path("text").asText());
            assertLongs(x, c, 1, "matched", "last", "late_total_ns", "late_max_ns");
        });
        rows(probe, "launch-queue-table", sections.path("launch_queue"), checked, (c, x) -> {
            assertEquals(rank(ranks, x.path("pid").asInt()), c.get(0).path("text").asText());
            assertLongs(x, c, 1, "device", "stream", "kernels");
            assertEquals(Math.round(x.path("mean_ns").asDouble()), v(c.get(4)));
            assertEquals(x.path("median_ns").asLong(), v(c.get(5)));
            assertEquals(!x.path("median_exact").asBoolean(), c.get(5).path("text").asText().startsWith("~"));
            assertEquals(x.path("min_ns").asLong(), v(c.get(6)));
            assertEquals(x.path("max_ns").asLong(), v(c.get(7)));
        });
        for (var e : sections.properties()) {
            if (ANALYSES.contains(e.getKey()) || e.getKey().equals("read_health")) {
                continue;
            }
            // A summary: the page lists its first rows by total.
            JsonNode want = e.getValue().path("rows");
            JsonNode shown = table(probe, e.getKey());
            assertEquals(Math.min(AnalysisSections.SUMMARY_ROWS, want.size()), shown.size(), e.getKey() + " rows");
            for (int i = 0; i < shown.size(); i++) {
                JsonNode c = shown.get(i);
                JsonNode x = want.get(i);
                String at = e.getKey() + " row " + i;
                assertEquals(x.path("name").asText(), name(c.get(0)), at);
                assertEquals(x.path("count").asLong(), v(c.get(1)), at);
                assertEquals(x.path("total").asLong(), v(c.get(2)), at);
                assertEquals(Math.round(x.path("mean").asDouble()), v(c.get(3)), at);
                assertEquals(x.path("median").asLong(), v(c.get(4)), at);
                assertEquals(x.path("min").asLong(), v(c.get(5)), at);
                assertEquals(x.path("max").asLong(), v(c.get(6)), at);
                assertEquals(Math.round(x.path("stddev").asDouble()), v(c.get(7)), at);
            }
            if (!shown.isEmpty()) {
                checked.add(e.getKey());
            }
        }
        return checked;
    }

    private interface RowCheck {
        void check(JsonNode cells, JsonNode row);
    }

    private static void rows(JsonNode probe, String id, JsonNode section, List<String> checked, RowCheck check) {
        JsonNode want = section.path("rows");
        JsonNode shown = table(probe, id);
        assertEquals(Math.min(CapturePage.MAX_ROWS, want.size()), shown.size(), id + " rows against " + section);
        for (int i = 0; i < shown.size(); i++) {
            check.check(shown.get(i), want.get(i));
        }
        if (!shown.isEmpty()) {
            checked.add(id);
        }
    }

    /**
     * What the page says of the report ({@code report --json}): the verdict's Next: steps, the queue
     * facts, the kernels inside the slowest requests' phases and the step table. Returns what it held.
     */
    static List<String> report(JsonNode probe, JsonNode report) {
        List<String> checked = new ArrayList<>();
        List<String> next = new ArrayList<>();
        for (JsonNode f : report.path("verdict").path("findings")) {
            for (JsonNode n : f.path("next_steps")) {
                next.add(n.asText());
            }
        }
        List<String> shownNext = new ArrayList<>();
        probe.path("next").forEach(n -> shownNext.add(n.asText()));
        assertEquals(next, shownNext, "the verdict's Next: steps");
        if (!next.isEmpty()) {
            checked.add("next");
        }
        JsonNode q = report.path("queue");
        String facts = probe.path("queueFacts").asText();
        if (q.isObject()) {
            String busy = q.path("gpu_busy_fraction_while_queued").isNumber()
                    ? String.format(Locale.ROOT, " (%.1f%%)", 100 * q.path("gpu_busy_fraction_while_queued").asDouble())
                    : "";
            assertEquals(String.format(Locale.ROOT, "Requests queued for %s in all; the GPU was busy %s of that time%s. "
                            + "At most %d requests waited at once and %d were in the model at once (spans).",
                    ReportFormat.duration(q.path("queued_ns").asLong()),
                    ReportFormat.duration(q.path("gpu_busy_ns_while_queued").asLong()), busy,
                    q.path("waiting_max").asInt(), q.path("in_model_max").asInt()), facts);
            checked.add("queue");
        } else {
            assertEquals("", facts);
        }
        JsonNode s = report.path("slow_phase_kernels");
        for (String phase : List.of("prefill", "decode")) {
            JsonNode want = s.path(phase);
            JsonNode shown = table(probe, "slow-" + phase);
            assertEquals(want.size(), shown.size(), "kernels in the slowest requests' " + phase);
            for (int i = 0; i < shown.size(); i++) {
                JsonNode c = shown.get(i);
                assertEquals(want.get(i).path("name").asText(), name(c.get(0)));
                assertEquals(want.get(i).path("kernels").asLong(), v(c.get(1)));
                assertEquals(want.get(i).path("gpu_ns_inside").asLong(), v(c.get(2)));
            }
            if (!shown.isEmpty()) {
                checked.add("slow-" + phase);
            }
        }
        JsonNode steps = report.path("steps").path("rows");
        JsonNode shown = table(probe, "step-rows-table");
        assertEquals(Math.min(CapturePage.MAX_ROWS, steps.size()), shown.size(), "the step table's rows");
        for (int i = 0; i < shown.size(); i++) {
            JsonNode c = shown.get(i);
            JsonNode x = steps.get(i);
            assertEquals(x.path("name").asText(), name(c.get(0)), "the step named as in the source");
            assertLongs(x, c, 1, "duration_ns", "kernels", "gpu_ns", "gpu_busy_ns");
        }
        if (!shown.isEmpty()) {
            checked.add("steps");
        }
        return checked;
    }
}
