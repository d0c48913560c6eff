package dev.vprof.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package map of docs/architecture.md, read against the sources' import lines: a package
 * imports only packages of a lower layer.
 */
class PackageMapTest {
    /** Each package's layer, as the map in docs/architecture.md draws it (0 at the bottom). */
    static final Map<String, Integer> LAYER = Map.ofEntries(
            Map.entry("bindings", 0), Map.entry("metrics", 0), Map.entry("names", 0), Map.entry("output", 0),
            Map.entry("nativelib", 0), Map.entry("wire", 0),
            Map.entry("cuda", 1), Map.entry("drain", 1), Map.entry("loadgen", 1), Map.entry("otlp", 1),
            Map.entry("region", 1), Map.entry("triage", 1),
            Map.entry("capture", 2), Map.entry("discovery", 2),
            Map.entry("inject", 3), Map.entry("time", 3), Map.entry("timeline", 3),
            Map.entry("adapt", 4), Map.entry("aggregate", 4),
            Map.entry("nsys", 5), Map.entry("report", 5), Map.entry("trace", 5),
            Map.entry("analysis", 6),
            Map.entry("export", 6), Map.entry("source", 6), Map.entry("spanexport", 6),
            Map.entry("diff", 7), Map.entry("engine", 7), Map.entry("merge", 7), Map.entry("replay", 7),
            Map.entry("html", 8), Map.entry("selftest", 8),
            Map.entry("demo", 9), Map.entry("watch", 9),
            Map.entry("cli", 10));

    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?dev\\.vprof\\.([a-z]+)\\.", Pattern.MULTILINE);
    private static final Path ROOT = Path.of("src/main/java/dev/vprof");

    static Set<String> edges() throws IOException {
        Set<String> edges = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path rel = ROOT.relativize(f);
                if (rel.getNameCount() < 2) {
                    continue; // dev.vprof itself (VprofVersion) sits below every package
                }
                String from = rel.getName(0).toString();
                Matcher m = IMPORT.matcher(Files.readString(f));
                while (m.find()) {
                    if (!m.group(1).equals(from)) {
                        edges.add(from + " -> " + m.group(1));
                    }
                }
            }
        }
        return edges;
    }

    @Test
    void everyPackageIsOnTheMap() throws IOException {
        List<String> missing = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(ROOT)) {
            dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString())
                    .filter(p -> !LAYER.containsKey(p)).sorted().forEach(missing::add);
        }
        assertEquals(List.of(), missing, "place these in docs/architecture.md's map and in LAYER");
    }

    @Test
    void noImportGoesUpOrSideways() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String e : edges()) {
            String[] ends = e.split(" -> ");
            Integer from = LAYER.get(ends[0]);
            Integer to = LAYER.get(ends[1]);
            if (from != null && to != null && to >= from) {
                wrong.add(e + " (layer " + from + " to " + to + ")");
            }
        }
        assertEquals(List.of(), wrong, "an import crosses the package map the wrong way");
    }

    @Test
    void theMapIsInTheArchitecturePage() {
        String page;
        try {
            page = Files.readString(Path.of("../docs/architecture.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String p : LAYER.keySet()) {
            assertTrue(page.contains("`" + p + "`"), "docs/architecture.md's map does not name " + p);
        }
    }
}
