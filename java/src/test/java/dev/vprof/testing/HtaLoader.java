package dev.vprof.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Reads a folder of Kineto traces the way Holistic Trace Analysis does before it parses any event
 * (hta/common/trace_file.py and hta/common/trace.py, read, not copied):
 *
 * <ul>
 *   <li>every file of the folder whose name ends in {@code .json} or {@code .gz} is a trace;
 *   <li>a file's rank is the first {@code "rank": N} in its text (a space after the colon, as
 *       PyTorch writes it); a file without one is taken as rank 0;
 *   <li>the ranks go into a rank-to-file map, so a second file with a rank already in it
 *       silently replaces the first.
 * </ul>
 *
 * <p>And, for step-based analyses, the iteration HTA gives each GPU op: a host event (one without a
 * {@code stream} arg) belongs to {@code ProfilerStep#N} when {@code ts} falls in
 * {@code [step.ts, step.ts + step.dur)}; a GPU op belongs to the iteration of the host event with its
 * {@code correlation}; -1 otherwise. And what {@code TraceAnalysis} keeps by default once a trace
 * has two or more steps: the host events that start before the last step does, and the GPU ops whose
 * correlation one of them carries.
 */
public final class HtaLoader {
    private static final Pattern RANK = Pattern.compile("\"rank\": (\\d+)");
    private static final Pattern STEP = Pattern.compile("ProfilerStep\\s*#\\s*(\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private HtaLoader() {}

    /** What the loader made of a folder. */
    public record Folder(List<Path> traceFiles, Map<Integer, Path> rankToFile, Map<Path, Integer> scannedRank) {}

    public static Folder load(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".json") || p.getFileName().toString().endsWith(".gz"))
                    .sorted().toList();
        }
        Map<Integer, Path> rankToFile = new LinkedHashMap<>();
        Map<Path, Integer> scanned = new LinkedHashMap<>();
        for (Path f : files) {
            Matcher m = RANK.matcher(text(f));
            int rank = m.find() ? Integer.parseInt(m.group(1)) : 0;
            scanned.put(f, rank);
            rankToFile.put(rank, f);
        }
        return new Folder(files, rankToFile, scanned);
    }

    public static String text(Path f) throws IOException {
        if (f.getFileName().toString().endsWith(".gz")) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        return Files.readString(f);
    }

    public static JsonNode parse(Path f) throws IOException {
        return JSON.readTree(text(f));
    }

    /** The {@code X} events of a trace with this category. */
    public static List<JsonNode> events(JsonNode trace, String cat) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if ("X".equals(e.path("ph").asText()) && cat.equals(e.path("cat").asText())) {
                out.add(e);
            }
        }
        return out;
    }

    /** The {@code ProfilerStep#N} events of a trace, as HTA recognizes them by name. */
    public static List<JsonNode> profilerSteps(JsonNode trace) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if ("X".equals(e.path("ph").asText()) && e.path("name").asText().startsWith("ProfilerStep")) {
                out.add(e);
            }
        }
        return out;
    }

    /** GPU ops of category {@code cat} that TraceAnalysis keeps by default (include_last_profiler_step=False). */
    public static long keptByDefault(JsonNode trace, String cat) {
        List<JsonNode> steps = profilerSteps(trace);
        if (steps.stream().map(s -> s.get("name").asText()).distinct().count() < 2) {
            return events(trace, cat).size(); // HTA filters nothing
        }
        double lastStart = steps.stream().mapToDouble(s -> s.get("ts").asDouble()).max().orElseThrow();
        Set<Long> kept = new HashSet<>();
        for (JsonNode e : trace.get("traceEvents")) {
            JsonNode args = e.path("args");
            if ("X".equals(e.path("ph").asText()) && !args.has("stream") && args.has("correlation")
                    && e.get("ts").asDouble() < lastStart) {
                kept.add(args.get("correlation").asLong());
            }
        }
        return events(trace, cat).stream().filter(e -> kept.contains(e.get("args").get("correlation").asLong())).count();
    }

    /** Iteration of each GPU op of category {@code cat}, in file order (-1: none). */
    public static List<Integer> gpuIterations(JsonNode trace, String cat) {
        List<double[]> steps = new ArrayList<>();
        for (JsonNode s : profilerSteps(trace)) {
            Matcher m = STEP.matcher(s.get("name").asText());
            if (!m.find()) {
                throw new AssertionError("HTA fails to parse the step of " + s.get("name"));
            }
            steps.add(new double[] {s.get("ts").asDouble(), s.get("ts").asDouble() + s.get("dur").asDouble(),
                    Integer.parseInt(m.group(1))});
        }
        Map<Long, Integer> hostIteration = new HashMap<>();
        for (JsonNode e : trace.get("traceEvents")) {
            JsonNode args = e.path("args");
            if ("X".equals(e.path("ph").asText()) && !args.has("stream") && args.has("correlation")) {
                double ts = e.get("ts").asDouble();
                int iteration = -1;
                for (double[] s : steps) {
                    if (s[0] <= ts && ts < s[1]) {
                        iteration = (int) s[2];
                    }
                }
                hostIteration.put(args.get("correlation").asLong(), iteration);
            }
        }
        List<Integer> out = new ArrayList<>();
        for (JsonNode e : events(trace, cat)) {
            out.add(hostIteration.getOrDefault(e.get("args").get("correlation").asLong(), -1));
        }
        return out;
    }
}
