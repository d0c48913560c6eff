package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.cli.Cli;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real PyTorch profiler trace imported ({@code vprof import}) and exported to Kineto JSON again
 * ({@code vprof export -o X.pt.trace.json}) keeps, event for event, every field PyTorch wrote for
 * kernels, copies, sets, runtime and driver calls, CPU ops and annotations, and every top-level
 * field. The oracle is a Jackson tree of each file (numbers as BigDecimal, compared by value), not
 * vprof's reader: each event of the trace must have one event of the export of its category, name
 * and {@code ts} that holds each of its fields with the same value (args included; the export may
 * add fields, such as {@code context} where the trace had none), and the export has no more events
 * of those categories than the trace.
 */
class KinetoRoundTripTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    /** The categories PyTorch writes for the event kinds vprof reads. */
    static final Set<String> KINDS = Set.of("kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver",
            "cpu_op", "python_function", "user_annotation", "gpu_user_annotation");

    @TempDir
    Path dir;

    static Stream<Path> traces() throws IOException {
        return TraceOracle.cudaTraces().stream();
    }

    @ParameterizedTest
    @MethodSource("traces")
    void importThenExportKeepsEveryField(Path trace) throws IOException {
        Path capture = dir.resolve("t.vprof");
        Path out = dir.resolve("t.pt.trace.json");
        Cli.ok("import", trace.toString(), "-o", capture.toString());
        Cli.ok("export", capture.toString(), "-o", out.toString());
        JsonNode original = TraceOracle.tree(trace);
        JsonNode back = JSON.readTree(out.toFile());

        List<String> problems = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = original.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getKey().equals("traceEvents") && !holds(back.get(f.getKey()), f.getValue())) {
                problems.add("top-level " + f.getKey() + ": " + f.getValue() + " came back as " + back.get(f.getKey()));
            }
        }

        Map<String, List<JsonNode>> exported = new HashMap<>();
        Map<String, Long> exportedPerCat = new TreeMap<>();
        for (JsonNode e : back.get("traceEvents")) {
            if (isKept(e)) {
                exported.computeIfAbsent(key(e), k -> new ArrayList<>()).add(e);
                exportedPerCat.merge(e.get("cat").asText(), 1L, Long::sum);
            }
        }
        Map<String, Long> originalPerCat = new TreeMap<>();
        long compared = 0;
        for (JsonNode e : original.get("traceEvents")) {
            if (!isKept(e)) {
                continue;
            }
            originalPerCat.merge(e.get("cat").asText(), 1L, Long::sum);
            compared++;
            List<JsonNode> candidates = exported.getOrDefault(key(e), List.of());
            JsonNode match = null;
            for (JsonNode c : candidates) {
                if (holds(c, e)) {
                    match = c;
                    break;
                }
            }
            if (match != null) {
                candidates.remove(match);
            } else if (problems.size() < 10) {
                problems.add("event " + e + " came back as " + (candidates.isEmpty() ? "nothing" : candidates.getFirst()));
            } else {
                problems.add("...");
                break;
            }
        }
        assertTrue(compared > 0, "the trace has events of the kinds compared");
        assertEquals(List.of(), problems, trace.toString());
        assertEquals(originalPerCat, exportedPerCat, "events per category");
    }

    @Test
    void theComparisonSeesALostOrChangedField() throws IOException {
        JsonNode want = JSON.readTree("{\"ts\": 1.5, \"args\": {\"queued\": 0, \"grid\": [1, 2, 3]}}");
        assertTrue(holds(JSON.readTree("{\"ts\": 1.500, \"dur\": 1, \"args\": {\"queued\": 0, \"grid\": [1, 2, 3], "
                + "\"context\": 1}}"), want), "equal values, more fields");
        assertFalse(holds(JSON.readTree("{\"ts\": 1.5, \"args\": {\"grid\": [1, 2, 3]}}"), want), "an arg lost");
        assertFalse(holds(JSON.readTree("{\"ts\": 1.5, \"args\": {\"queued\": 1, \"grid\": [1, 2, 3]}}"), want),
                "an arg changed");
        assertFalse(holds(JSON.readTree("{\"ts\": 1.5, \"args\": {\"queued\": 0, \"grid\": [1, 2]}}"), want),
                "an array cut");
    }

    /** An event of a kind vprof reads: a complete event of a PyTorch category (a HIP call is not CUDA's). */
    private static boolean isKept(JsonNode e) {
        return "X".equals(e.path("ph").asText()) && KINDS.contains(e.path("cat").asText())
                && !e.path("name").asText().startsWith("hip");
    }

    private static String key(JsonNode e) {
        return e.get("cat").asText() + "\u0000" + e.path("name").asText() + "\u0000" + number(e.get("ts"));
    }

    private static String number(JsonNode n) {
        return n == null || !n.isNumber() ? String.valueOf(n) : n.decimalValue().stripTrailingZeros().toPlainString();
    }

    /**
     * Whether {@code got} holds {@code want}: equal numbers (by value), strings, booleans and nulls;
     * arrays of the same length whose elements hold each other's; objects holding each field of
     * {@code want} (more fields are allowed).
     */
    static boolean holds(JsonNode got, JsonNode want) {
        if (got == null) {
            return false;
        }
        if (want.isNumber()) {
            return got.isNumber() && toDecimal(got).compareTo(toDecimal(want)) == 0;
        }
        if (want.isArray()) {
            if (!got.isArray() || got.size() != want.size()) {
                return false;
            }
            for (int i = 0; i < want.size(); i++) {
                if (!holds(got.get(i), want.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (want.isObject()) {
            if (!got.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = want.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!holds(got.get(f.getKey()), f.getValue())) {
                    return false;
                }
            }
            return true;
        }
        return want.equals(got);
    }

    private static BigDecimal toDecimal(JsonNode n) {
        return n.isBigDecimal() || n.isFloatingPointNumber() ? n.decimalValue() : new BigDecimal(n.bigIntegerValue());
    }
}
