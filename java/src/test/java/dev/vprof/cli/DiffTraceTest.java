package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.aggregate.StepOracle;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof diff} on HTA's own real trace pairs (fixtures/real/hta). The oracles: what HTA's
 * trace-diff test expects of the small pair (rank 1, ProfilerStep#1010), and the traces' own JSON
 * read here with Jackson (kernel names, GPU models, world sizes).
 */
@Timeout(300)
class DiffTraceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path COMPARE = Path.of("../fixtures/real/hta/trace_compare");
    private static final Path DIFF = Path.of("../fixtures/real/hta/trace_diff");

    @TempDir
    Path dir;

    private static JsonNode read(Path gz) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return JSON.readTree(in);
        }
    }

    private static Set<String> kernelNames(JsonNode trace) {
        Set<String> names = new TreeSet<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText())) {
                names.add(e.get("name").asText());
            }
        }
        return names;
    }

    private static JsonNode diffJson(int code, String... args) throws IOException {
        List<String> a = new ArrayList<>(List.of("diff", "--json"));
        a.addAll(List.of(args));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertEquals(code, r.code(), "exit code; stderr: " + r.err());
        return JSON.readTree(r.out());
    }

    private static Set<String> names(JsonNode rows, String status) {
        Set<String> s = new TreeSet<>();
        for (JsonNode r : rows) {
            if (r.get("status").asText().equals(status)) {
                s.add(r.get("name").asText());
            }
        }
        return s;
    }

    /** As HTA's test restricts the pair: rank 1, ProfilerStep#1010. */
    @Test
    void htaComparePairOneStepAgreesWithHtasExpectations() throws IOException {
        JsonNode d = diffJson(0, "--rank", "1", "--step", "1010", COMPARE.resolve("base").toString(),
                COMPARE.resolve("test").toString());
        JsonNode ops = d.get("cpu_ops");
        assertEquals(Set.of("AddmmBackward0", "All2All_Pooled_Req", "CatBackward0"), names(ops, "new"));
        assertEquals(Set.of("nccl:all_reduce"), names(ops, "gone"));
        int unchanged = 0;
        for (JsonNode r : ops) {
            if (r.get("status").asText().equals("matched") && r.get("base").get("count").asLong()
                    == r.get("new").get("count").asLong()) {
                unchanged++;
            }
        }
        assertEquals(5, unchanged, "five CPU ops unchanged: " + ops);
        // GPU: one kernel row (templates stripped, as HTA's test compares), with a lower count.
        JsonNode bases = d.get("base_names");
        assertEquals(1, bases.size(), bases.toString());
        JsonNode row = bases.get(0);
        assertEquals("matched", row.get("status").asText());
        assertTrue(row.get("new").get("count").asLong() < row.get("base").get("count").asLong(), row.toString());
        assertEquals(1, d.get("basis").get("base_units").asInt(), "one step");
    }

    @Test
    void a100AgainstV100IsNotComparableNamingTheGpusAndWorldSizes() throws IOException {
        JsonNode control = read(DIFF.resolve("control/control.json.gz"));
        JsonNode test = read(DIFF.resolve("test/test.json.gz"));
        String gpuA = control.get("deviceProperties").get(0).get("name").asText();
        String gpuB = test.get("deviceProperties").get(0).get("name").asText();
        int worldA = control.get("distributedInfo").get("world_size").asInt();
        int worldB = test.get("distributedInfo").get("world_size").asInt();
        Cli.Result text = Cli.run("diff", DIFF.resolve("control").toString(), DIFF.resolve("test").toString());
        assertEquals(ExitCode.NOT_COMPARABLE.code(), text.code(), text.err());
        String first = text.out().lines().findFirst().orElse("");
        assertTrue(first.startsWith("NOT COMPARABLE"), first);
        assertTrue(first.contains(gpuA) && first.contains(gpuB), first);
        assertTrue(first.contains("world size " + worldA + " vs " + worldB), first);

        // --force: every kernel of both sides is a row (the outer join), and the match counts per level.
        JsonNode d = diffJson(0, "--force", DIFF.resolve("control").toString(), DIFF.resolve("test").toString());
        Set<String> a = kernelNames(control), b = kernelNames(test);
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        Set<String> rows = new TreeSet<>();
        for (JsonNode r : d.get("kernels")) {
            rows.add(r.get("name").asText());
            String name = r.get("name").asText();
            String expected = a.contains(name) && b.contains(name) ? "matched" : a.contains(name) ? "gone" : "new";
            assertEquals(expected, r.get("status").asText(), name);
        }
        assertEquals(all, rows);
        Set<String> common = new TreeSet<>(a);
        common.retainAll(b);
        JsonNode exact = d.get("matching").get(0);
        assertEquals("exact", exact.get("level").asText());
        assertEquals(a.size(), exact.get("base_keys").asInt());
        assertEquals(b.size(), exact.get("new_keys").asInt());
        assertEquals(common.size(), exact.get("matched").asInt());
        assertEquals(List.of("exact", "base", "category"),
                List.of(d.get("matching").get(0).get("level").asText(), d.get("matching").get(1).get("level").asText(),
                        d.get("matching").get(2).get("level").asText()));
        assertTrue(d.get("comparability").get("mismatches").size() >= 2, "the mismatches stay in the result");
    }

    @Test
    void aRealTraceAgainstItselfAndAgainstDurationsScaledWithinOnePercent() throws IOException {
        Path control = DIFF.resolve("control/control.json.gz");
        JsonNode self = diffJson(0, control.toString(), control.toString());
        assertEquals("NO CHANGE", self.get("verdict").asText());
        for (JsonNode r : self.get("kernels")) {
            assertEquals(0.0, r.get("time").get("delta").asDouble(), r.get("name").asText());
        }
        JsonNode trace = read(control);
        Random random = new Random(7);
        int scaled = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText()) && e.has("dur")) {
                double f = 0.99 + 0.02 * random.nextDouble();
                ((ObjectNode) e).put("dur", Math.round(e.get("dur").asDouble() * f * 1000) / 1000.0);
                scaled++;
            }
        }
        assertTrue(scaled > 1000, "kernels scaled: " + scaled);
        Path copy = dir.resolve("scaled.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(copy))) {
            JSON.writeValue(out, trace);
        }
        JsonNode d = diffJson(0, control.toString(), copy.toString());
        assertEquals("NO CHANGE", d.get("verdict").asText(), d.get("headline").asText());
        assertTrue(Math.abs(d.get("gpu_time").get("relative").asDouble()) < 0.01, d.get("gpu_time").toString());
    }

    /**
     * Every kernel of a side is counted: those in its steps, and those outside any step as a row of
     * their own. The oracle: the trace's JSON (its kernels, its ProfilerStep annotations and the
     * launch call of each kernel, by correlation id).
     */
    @Test
    void everyKernelOfTheSideIsCountedInsideItsStepsOrOutsideThem() throws IOException {
        Path test = DIFF.resolve("test/test.json.gz");
        StepOracle.Steps expected = StepOracle.of(test);
        assertEquals(TraceOracle.kernels(test).count(), expected.kernels(), "the oracle places every kernel");
        JsonNode d = diffJson(0, test.toString(), test.toString());
        for (String side : List.of("base", "new")) {
            JsonNode s = d.get(side);
            assertEquals(expected.kernels(), s.get("kernels").asLong(), side + ": every kernel of the trace");
            assertEquals(expected.steps().size(), s.get("steps").asInt(), side);
            assertEquals(expected.outsideKernels(), s.path("outside_steps").path("kernels").asLong(-1), side);
        }
    }
}
