package dev.vprof.trace;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * An independent count of a trace's kernels, for tests: the whole file as a Jackson tree (fine
 * for the small fixtures), numbers as BigDecimal, durations in µs turned to ns by rounding half
 * up, as a reader that keeps the trace's ns would. Nothing of the reader under test is used.
 */
public final class TraceOracle {
    private TraceOracle() {}

    /** Per kernel name: launches and total duration in ns. */
    public record Kernels(long count, Map<String, long[]> byName) {}

    /** Where the shared real fixtures are, from the module folder Maven runs tests in. */
    public static final Path REAL = Path.of("../fixtures/real");

    public static JsonNode tree(Path file) throws IOException {
        ObjectMapper m = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        try (InputStream in = open(file)) {
            return m.readTree(in);
        }
    }

    private static InputStream open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        return file.toString().endsWith(".gz") ? new GZIPInputStream(in) : in;
    }

    public static long ns(JsonNode us) {
        return new BigDecimal(us.asText()).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    public static Kernels kernels(Path file) throws IOException {
        JsonNode root = tree(file);
        Map<String, long[]> byName = new TreeMap<>();
        long count = 0;
        for (JsonNode e : root.get("traceEvents")) {
            String cat = e.path("cat").asText();
            if ((cat.equals("kernel") || cat.equals("Kernel")) && e.path("ph").asText().equals("X")) {
                count++;
                long[] c = byName.computeIfAbsent(e.get("name").asText(), k -> new long[2]);
                c[0]++;
                c[1] += ns(e.get("dur"));
            }
        }
        return new Kernels(count, byName);
    }

    /** Every CUDA trace among the real fixtures (the ROCm one is left out). */
    public static List<Path> cudaTraces() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(REAL)) {
            s.filter(p -> p.toString().endsWith(".json.gz") && !p.toString().contains("amd_trace")).sorted()
                    .forEach(out::add);
        }
        return out;
    }
}
