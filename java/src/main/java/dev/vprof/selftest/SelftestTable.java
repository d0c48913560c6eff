package dev.vprof.selftest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The GPU self-test's table. Each row is printed the moment it is decided, and results.json is
 * rewritten with every row and fact, so a run stopped by its time limit still leaves what it had;
 * {@link #finish} prints the whole table once more, aligned, and says whether anything failed.
 */
final class SelftestTable {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final PrintWriter out;
    private final Path resultsJson;
    private final List<Row> rows = new ArrayList<>();
    private final Map<String, Object> facts = new LinkedHashMap<>();

    SelftestTable(PrintWriter out, Path resultsJson) {
        this.out = out;
        this.resultsJson = resultsJson;
    }

    synchronized void add(Row r) {
        rows.add(r);
        out.printf(Locale.ROOT, "  %-12s %s: expected %s, got %s%n", "[" + r.verdict().word() + "]", r.check(),
                r.expected(), r.actual());
        out.flush();
        save(false);
    }

    void addAll(List<Row> rs) {
        rs.forEach(this::add);
    }

    /** A fact about the machine or the run (device, versions, which libcupti), for results.json and the header. */
    synchronized void fact(String key, Object value) {
        facts.put(key, value);
        save(false);
    }

    synchronized List<Row> rows() {
        return List.copyOf(rows);
    }

    /** Prints the whole table and the verdict; returns the exit code (1 when a row is a MISMATCH). */
    synchronized int finish(Path work) {
        int w = Math.min(90, rows.stream().mapToInt(r -> r.check().length()).max().orElse(10));
        int e = Math.min(40, rows.stream().mapToInt(r -> r.expected().length()).max().orElse(8));
        String fmt = "%-" + w + "s  %-" + e + "s  %-12s  %s%n";
        out.println();
        facts.forEach((k, v) -> out.println(k + ": " + v));
        out.printf(Locale.ROOT, fmt, "check", "expected", "", "vprof / the GPU");
        Map<CheckOutcome, Integer> n = new LinkedHashMap<>();
        for (Row r : rows) {
            out.printf(Locale.ROOT, fmt, r.check(), r.expected(), r.verdict().word(), r.actual());
            n.merge(r.verdict(), 1, Integer::sum);
        }
        boolean failed = n.getOrDefault(CheckOutcome.MISMATCH, 0) > 0;
        StringBuilder counts = new StringBuilder();
        n.forEach((v, c) -> counts.append(counts.isEmpty() ? "" : ", ").append(c).append(' ').append(v.word()));
        out.println((failed ? "GPU self-test FAILED: see the MISMATCH rows (" : "GPU self-test passed (") + counts
                + "). Raw outputs of every case: " + work);
        out.flush();
        save(true);
        return failed ? 1 : 0;
    }

    private void save(boolean complete) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("complete", complete);
        doc.put("facts", facts);
        List<Map<String, String>> rs = new ArrayList<>();
        for (Row r : rows) {
            rs.add(Map.of("check", r.check(), "expected", r.expected(), "actual", r.actual(),
                    "verdict", r.verdict().word()));
        }
        doc.put("rows", rs);
        try {
            Path tmp = resultsJson.resolveSibling(resultsJson.getFileName() + ".tmp");
            Files.writeString(tmp, JSON.writeValueAsString(doc));
            Files.move(tmp, resultsJson, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ex) {
            out.println("(cannot write " + resultsJson + ": " + ex.getMessage() + ")");
        }
    }
}
