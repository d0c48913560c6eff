package dev.vprof.diff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.names.KernelNames;
import dev.vprof.time.Selection;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/**
 * The diff's false-alarm rate and power, measured: pairs of equivalent captures (synthetic traces
 * of different seeds and step counts; a real trace against copies jittered within its own
 * step-to-step spread) and pairs with a planted slowdown, each diffed in process by
 * {@link CaptureDiff}. The counts are tallied by verdict; nothing here reads vprof's numbers
 * but the verdict.
 */
final class DiffPower {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DiffPower() {}

    /** How many pairs got each verdict. */
    record Tally(int pairs, int regressed, int improved, int noChange, int other) {
        Tally add(String verdict) {
            return switch (verdict) {
                case DiffResult.REGRESSED -> new Tally(pairs + 1, regressed + 1, improved, noChange, other);
                case DiffResult.IMPROVED -> new Tally(pairs + 1, regressed, improved + 1, noChange, other);
                case DiffResult.NO_CHANGE -> new Tally(pairs + 1, regressed, improved, noChange + 1, other);
                default -> new Tally(pairs + 1, regressed, improved, noChange, other + 1);
            };
        }

        double regressedRate() {
            return pairs == 0 ? 0 : regressed / (double) pairs;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d pairs: %d REGRESSED (%.1f %%), %d IMPROVED, %d NO CHANGE, %d other",
                    pairs, regressed, 100 * regressedRate(), improved, noChange, other);
        }
    }

    static Tally empty() {
        return new Tally(0, 0, 0, 0, 0);
    }

    static String verdict(Path base, Path next, double threshold) throws IOException {
        DiffOptions d = DiffOptions.of(base, next);
        DiffOptions o = new DiffOptions(base, Selection.ALL, next, Selection.ALL, d.noiseFloor(), threshold, d.top(),
                false, false, "step", null, null, Categories.defaults(), KernelNames.demangled());
        return CaptureDiff.run(o).verdict();
    }

    /**
     * Equivalent synthetic pairs: pair {@code i} compares seed {@code 2i+1} against {@code 2i+2}, their
     * step counts drawn from 12 to 60 (so both sides resample steps, and sides of different length compare).
     */
    static Tally equivalentSynthetic(Path dir, int pairs, long seed, double threshold) throws IOException {
        Random r = new Random(seed);
        Tally t = empty();
        for (int i = 0; i < pairs; i++) {
            double share = List.of(0.01, 0.05, 0.10, 0.30).get(i % 4);
            Path a = dir.resolve("eq-a.json"), b = dir.resolve("eq-b.json");
            new SyntheticTrace(seed * 1000 + 2L * i + 1, 12 + r.nextInt(49), share, 1).write(a);
            new SyntheticTrace(seed * 1000 + 2L * i + 2, 12 + r.nextInt(49), share, 1).write(b);
            t = t.add(verdict(a, b, threshold));
        }
        return t;
    }

    /** Pairs with the target kernel (holding {@code share} of GPU time) made {@code slowdown} times slower. */
    static Tally slowed(Path dir, int pairs, long seed, double share, double slowdown, int steps, double threshold)
            throws IOException {
        Tally t = empty();
        for (int i = 0; i < pairs; i++) {
            Path a = dir.resolve("slow-a.json"), b = dir.resolve("slow-b.json");
            new SyntheticTrace(seed * 1000 + 2L * i + 1, steps, share, 1).write(a);
            new SyntheticTrace(seed * 1000 + 2L * i + 2, steps, share, slowdown).write(b);
            t = t.add(verdict(a, b, threshold));
        }
        return t;
    }

    // ---- a real trace and its jittered copies ----------------------------------------------

    /** A real trace read once: its JSON and, per kernel event, the step its launch started in (-1 none). */
    record Real(JsonNode tree, Map<String, double[]> spread, int steps) {}

    static JsonNode read(Path gz) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return JSON.readTree(in);
        }
    }

    /**
     * The trace's own step-to-step spread per kernel name: the coefficient of variation of the name's
     * summed time per ProfilerStep (its launch call, by correlation id, placing a kernel in a step;
     * names in fewer than two steps get none). Returned per name as {cv}.
     */
    static Real real(Path gz) throws IOException {
        JsonNode tree = read(gz);
        Steps steps = Steps.of(tree);
        Map<String, double[]> perStep = new HashMap<>();
        for (JsonNode e : tree.get("traceEvents")) {
            if (!"kernel".equals(e.path("cat").asText())) {
                continue;
            }
            int s = steps.stepOf(e);
            if (s >= 0) {
                perStep.computeIfAbsent(e.get("name").asText(), k -> new double[steps.stepsUs().size()])[s] += e.get("dur").asDouble();
            }
        }
        Map<String, double[]> spread = new HashMap<>();
        for (Map.Entry<String, double[]> en : perStep.entrySet()) {
            double[] v = en.getValue();
            double mean = 0;
            for (double x : v) {
                mean += x / v.length;
            }
            double var = 0;
            for (double x : v) {
                var += (x - mean) * (x - mean) / (v.length - 1);
            }
            spread.put(en.getKey(), new double[] {mean > 0 ? Math.sqrt(var) / mean : 0});
        }
        return new Real(tree, spread, steps.stepsUs().size());
    }

    /** A trace's ProfilerStep spans ({start, end} in µs) and its launch calls' start by correlation id. */
    private record Steps(List<double[]> stepsUs, Map<Long, Double> launchTs) {
        static Steps of(JsonNode tree) {
            List<double[]> stepsUs = new ArrayList<>();
            Map<Long, Double> launchTs = new HashMap<>();
            for (JsonNode e : tree.get("traceEvents")) {
                String name = e.path("name").asText();
                if ("user_annotation".equals(e.path("cat").asText()) && name.startsWith("ProfilerStep#")) {
                    stepsUs.add(new double[] {e.get("ts").asDouble(), e.get("ts").asDouble() + e.get("dur").asDouble()});
                } else if ("cuda_runtime".equals(e.path("cat").asText()) && e.path("args").has("correlation")) {
                    launchTs.put(e.get("args").get("correlation").asLong(), e.get("ts").asDouble());
                }
            }
            return new Steps(stepsUs, launchTs);
        }

        /** The step whose span holds the kernel's launch call, or -1. */
        int stepOf(JsonNode kernel) {
            Double ts = launchTs.get(kernel.path("args").path("correlation").asLong(-1));
            if (ts == null) {
                return -1;
            }
            for (int i = 0; i < stepsUs.size(); i++) {
                if (ts >= stepsUs.get(i)[0] && ts < stepsUs.get(i)[1]) {
                    return i;
                }
            }
            return -1;
        }
    }

    /**
     * A copy of the real trace whose kernels of each name in each step are scaled by one lognormal
     * factor with the name's own step-to-step spread (its coefficient of variation, at most 0.5), so
     * a copy's per-step times vary as the trace's steps do; {@code target} (null: none) is then
     * made {@code slowdown} times slower.
     */
    static void jitteredCopy(Real real, long seed, String target, double slowdown, Path out) throws IOException {
        Random r = new Random(seed);
        Map<String, Double> factor = new HashMap<>();
        JsonNode copy = real.tree().deepCopy();
        Steps steps = Steps.of(copy);
        for (JsonNode e : copy.get("traceEvents")) {
            if (!"kernel".equals(e.path("cat").asText()) || !e.has("dur")) {
                continue;
            }
            String name = e.get("name").asText();
            double cv = Math.min(0.5, real.spread().getOrDefault(name, new double[] {0})[0]);
            String key = name + "#" + steps.stepOf(e);
            double f = factor.computeIfAbsent(key, k -> Math.exp(cv * r.nextGaussian() - cv * cv / 2));
            if (name.equals(target)) {
                f *= slowdown;
            }
            ((ObjectNode) e).put("dur", Math.round(e.get("dur").asDouble() * f * 1000) / 1000.0);
        }
        try (OutputStream o = Files.newOutputStream(out)) {
            JSON.writeValue(o, copy);
        }
    }

    /** A copy of the real trace with {@code target}'s kernels {@code slowdown} times slower, nothing else changed. */
    static void slowedCopy(Real real, String target, double slowdown, Path out) throws IOException {
        JsonNode copy = real.tree().deepCopy();
        for (JsonNode e : copy.get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText()) && target.equals(e.path("name").asText())) {
                ((ObjectNode) e).put("dur", e.get("dur").asDouble() * slowdown);
            }
        }
        try (OutputStream o = Files.newOutputStream(out)) {
            JSON.writeValue(o, copy);
        }
    }

    /** The real trace against {@code pairs} jittered copies of itself ({@code target} slowed in each, or none). */
    static Tally realJittered(Path gz, Path dir, int pairs, long seed, String target, double slowdown,
                              double threshold) throws IOException {
        Real real = real(gz);
        Tally t = empty();
        Path copy = dir.resolve("jittered.json");
        for (int i = 0; i < pairs; i++) {
            jitteredCopy(real, seed * 1000 + i, target, slowdown, copy);
            t = t.add(verdict(gz, copy, threshold));
        }
        return t;
    }

    /** The name holding the largest share of the real trace's kernel time, and that share. */
    static Map.Entry<String, Double> heaviest(Path gz) throws IOException {
        Map<String, Double> total = new HashMap<>();
        double all = 0;
        for (JsonNode e : read(gz).get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText())) {
                total.merge(e.get("name").asText(), e.get("dur").asDouble(), Double::sum);
                all += e.get("dur").asDouble();
            }
        }
        Map.Entry<String, Double> best = null;
        for (Map.Entry<String, Double> en : total.entrySet()) {
            if (best == null || en.getValue() > best.getValue()) {
                best = en;
            }
        }
        return Map.entry(best.getKey(), best.getValue() / all);
    }
}
