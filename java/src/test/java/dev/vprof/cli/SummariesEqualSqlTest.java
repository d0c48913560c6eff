package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.analysis.Summaries;
import dev.vprof.trace.TraceOracle;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each nsys-style summary of {@code vprof report --section} equals the same summary written in SQL
 * over vprof's own SQLite export of the same input, run by Debian's {@code sqlite3}: count, total,
 * min, max, the nearest-rank median and the sample standard deviation per name.
 */
class SummariesEqualSqlTest {
    @TempDir
    static Path dir;

    private static final RunsOnce ONCE = new RunsOnce("s");

    /** A value per row of the summary: {@code name} and {@code val}. */
    private static final Map<String, String> VALUES = Map.of(
            "cuda_gpu_kern_sum", """
                    SELECT s.value AS name, k.end - k.start AS val
                    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName""",
            // A host sync is a runtime row named "... (sync)" in the export (docs/sqlite.md); nsys keeps it apart.
            "cuda_api_sum", """
                    SELECT s.value AS name, r.end - r.start AS val
                    FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r JOIN StringIds AS s ON s.id = r.nameId
                    WHERE s.value NOT LIKE '% (sync)'""",
            "cuda_gpu_mem_time_sum", """
                    SELECT 'memcpy ' || CASE copyKind WHEN 1 THEN 'HtoD' WHEN 2 THEN 'DtoH' WHEN 8 THEN 'DtoD'
                           WHEN 9 THEN 'HtoH' WHEN 10 THEN 'PtoP' ELSE 'kind ' || copyKind END AS name,
                           end - start AS val FROM CUPTI_ACTIVITY_KIND_MEMCPY
                    UNION ALL SELECT 'memset', end - start FROM CUPTI_ACTIVITY_KIND_MEMSET""",
            "cuda_gpu_mem_size_sum", """
                    SELECT 'memcpy ' || CASE copyKind WHEN 1 THEN 'HtoD' WHEN 2 THEN 'DtoH' WHEN 8 THEN 'DtoD'
                           WHEN 9 THEN 'HtoH' WHEN 10 THEN 'PtoP' ELSE 'kind ' || copyKind END AS name,
                           bytes AS val FROM CUPTI_ACTIVITY_KIND_MEMCPY
                    UNION ALL SELECT 'memset', bytes FROM CUPTI_ACTIVITY_KIND_MEMSET""",
            "nvtx_sum", """
                    SELECT coalesce(n.text, s.value) AS name, n.end - n.start AS val
                    FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = n.textId
                    WHERE n.eventType = 59 AND n.end IS NOT NULL""",
            "cpu_op_sum", """
                    SELECT s.value AS name, c.end - c.start AS val
                    FROM VPROF_CPU_OPS AS c JOIN StringIds AS s ON s.id = c.nameId""");

    private static String summary(String values) {
        return "WITH v AS (" + values + """
                ),
                r AS (SELECT name, val, row_number() OVER (PARTITION BY name ORDER BY val) AS rn,
                             count(*) OVER (PARTITION BY name) AS n, avg(val) OVER (PARTITION BY name) AS mean FROM v)
                SELECT name, count(*) AS count, sum(val) AS total, min(val) AS min, max(val) AS max,
                       max(CASE WHEN rn = (n + 1) / 2 THEN val END) AS median,
                       CASE WHEN count(*) < 2 THEN 0.0
                            ELSE sqrt(sum((val - mean) * (val - mean)) / (count(*) - 1)) END AS stddev
                FROM r GROUP BY name""";
    }

    static Stream<Arguments> cases() {
        List<Path> inputs = List.of(TraceOracle.REAL.resolve("hta/trace_filter/sampled_rank-0.json.gz"),
                TraceOracle.REAL.resolve("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"),
                TraceOracle.REAL.resolve("nsys-ai/h100_2gpu_1s.sqlite"));
        return inputs.stream().flatMap(p -> VALUES.keySet().stream().sorted().map(s -> Arguments.of(p, s)));
    }

    private static Path export(Path input) {
        return ONCE.sqlite(dir, input);
    }

    private static JsonNode sections(Path input) throws Exception {
        return ONCE.json("report", "--json", "--top", "100000", "--section", String.join(",", VALUES.keySet()),
                input.toString());
    }

    @ParameterizedTest(name = "{1} of {0}")
    @MethodSource("cases")
    void theSummaryEqualsSqlOverTheExport(Path input, String section) throws Exception {
        JsonNode got = sections(input).get(section);
        assertFalse(got.get("cut").asBoolean(), section + " was cut");
        Map<String, JsonNode> byName = new HashMap<>();
        got.get("rows").forEach(r -> byName.put(r.get("name").asText(), r));
        List<JsonNode> want = SqliteQueries.rows(export(input), summary(VALUES.get(section)));
        if (want.size() > Summaries.MAX_NAMES) {
            // Past the bound of names the rest are counted under one row: the totals stay whole.
            assertTrue(byName.containsKey(Summaries.MORE), section + " has more names than the bound");
            long wantCount = 0, wantTotal = 0, gotCount = 0, gotTotal = 0;
            for (JsonNode w : want) {
                wantCount += w.get("count").asLong();
                wantTotal += w.get("total").asLong();
            }
            for (JsonNode g : got.get("rows")) {
                gotCount += g.get("count").asLong();
                gotTotal += g.get("total").asLong();
            }
            assertEquals(wantCount, gotCount, section + " count over every name");
            assertEquals(wantTotal, gotTotal, section + " total over every name");
            return;
        }
        TreeSet<String> wantNames = new TreeSet<>();
        want.forEach(w -> wantNames.add(w.get("name").asText()));
        assertEquals(wantNames, new TreeSet<>(byName.keySet()), section + ": the same names");
        for (JsonNode w : want) {
            String name = w.get("name").asText();
            JsonNode g = byName.get(name);
            for (String f : List.of("count", "total", "min", "max")) {
                assertEquals(w.get(f).asLong(), g.get(f).asLong(), section + " " + f + " of " + name);
            }
            long median = w.get("median").asLong();
            if (g.get("median_exact").asBoolean()) {
                assertEquals(median, g.get("median").asLong(), section + " median of " + name);
            } else { // past 1024 values of a name: the log histogram's bound
                assertEquals((double) median, (double) g.get("median").asLong(), 0.004 * median + 1, section + " median of " + name);
            }
            double sd = w.get("stddev").asDouble();
            assertEquals(sd, g.get("stddev").asDouble(), 1e-6 * sd + 1e-3, section + " stddev of " + name);
            assertEquals(w.get("total").asDouble() / w.get("count").asLong(), g.get("mean").asDouble(),
                    1e-9 * Math.abs(g.get("mean").asDouble()) + 1e-6, section + " mean of " + name);
        }
        if (section.equals("cuda_gpu_kern_sum")) {
            assertFalse(want.isEmpty(), "the input has kernels");
        }
    }
}
