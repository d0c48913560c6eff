package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges the PyTorch cases (torch_selftest.py) from their outputs: the kernel counts torch.profiler
 * recorded in a process of its own (the reference), and vprof's reports. Pure, so its verdicts are
 * tested on recorded outputs (TorchCheckTest).
 */
final class TorchCheck {
    /** What the agent says when another CUPTI client in the process took its records (R1). */
    static final List<String> LOUD = List.of("no_records", "records_missing", "buffers_taken_by_another_client",
            "cupti_clock_changed");

    private TorchCheck() {}

    /** Total kernels of a torch.profiler count map. */
    static long total(JsonNode counts) {
        long n = 0;
        for (JsonNode c : counts) {
            n += c.asLong();
        }
        return n;
    }

    /** Kernel name to count in a report's range (or its whole top_kernels), names demangled. */
    static Map<String, Long> names(JsonNode topKernels) {
        Map<String, Long> names = new HashMap<>();
        for (JsonNode k : topKernels) {
            names.merge(Toolchain.demangle(k.path("name").asText()), k.path("count").asLong(), Long::sum);
        }
        return names;
    }

    /** torch.profiler's kernels in another process against vprof's (the comparison the self-test always made). */
    static List<Row> compare(String label, JsonNode reference, long vprofKernels, Map<String, Long> vprofNames) {
        List<Row> rows = new ArrayList<>();
        rows.add(Row.count(label + ": kernels (torch.profiler vs vprof)", total(reference), vprofKernels));
        int mismatched = 0;
        List<String> which = new ArrayList<>();
        for (var e : reference.properties()) {
            Long ours = vprofNames.get(e.getKey());
            if (ours == null || ours != e.getValue().asLong()) {
                mismatched++;
                if (which.size() < 3) {
                    which.add(e.getKey() + ": torch " + e.getValue().asLong() + ", vprof " + (ours == null ? 0 : ours));
                }
            }
        }
        int all = reference.size();
        rows.add(Row.of(label + ": names with equal counts", "all " + all,
                (all - mismatched) + " of " + all + (which.isEmpty() ? "" : " (" + String.join("; ", which) + ")"),
                mismatched == 0));
        return rows;
    }

    /**
     * torch.profiler in vprof's own process. {@code ranges} are the report's ranges 1 and 2 (null
     * where missing); {@code result} is the script's JSON (null when it printed none).
     */
    static List<Row> sameProcess(JsonNode reference, int exitCode, JsonNode result, JsonNode r1, JsonNode r2) {
        List<Row> rows = new ArrayList<>();
        String label = "pytorch same process";
        rows.add(Row.of(label + ": the program runs on with both", "exit 0", "exit " + exitCode, exitCode == 0));
        long want = total(reference);
        if (r1 == null) {
            rows.add(Row.of(label + " r1 (torch.profiler ran before it): range", "a range", "none", false));
        } else {
            rows.addAll(compare(label + " r1 (torch.profiler ran before it)", reference,
                    r1.path("kernels").asLong(), names(r1.path("top_kernels"))));
            List<String> w = warnings(r1);
            rows.add(Row.of(label + " r1: warnings", "none", w.isEmpty() ? "none" : w.toString(), w.isEmpty()));
        }
        if (r2 == null) {
            rows.add(Row.of(label + " r2 (torch.profiler inside it): range", "a range", "none", false));
        } else {
            long got = r2.path("kernels").asLong();
            List<String> w = warnings(r2);
            List<String> loud = w.stream().filter(LOUD::contains).toList();
            String expected = want + ", or fewer with a warning naming another client";
            if (got == want && w.isEmpty()) {
                rows.add(new Row(label + " r2 (torch.profiler inside it): kernels", expected, got + ", exact", CheckOutcome.OK));
            } else if (!loud.isEmpty()) {
                rows.add(new Row(label + " r2 (torch.profiler inside it): kernels", expected,
                        got + ", said loudly: " + w, CheckOutcome.OK));
            } else {
                rows.add(new Row(label + " r2 (torch.profiler inside it): kernels", expected,
                        got + (w.isEmpty() ? " and no warning: a silent loss" : ", warnings " + w), CheckOutcome.MISMATCH));
            }
        }
        if (result != null) {
            rows.add(Row.info(label + ": torch.profiler's own kernels, run before / inside vprof's range",
                    total(result.path("torch_before")) + " / " + total(result.path("torch_during"))
                            + " (alone: " + want + ")"));
        }
        return rows;
    }

    /** The range's warnings, less those about this CUPTI rather than the range (RangeCheck.CUPTI_CAVEATS). */
    private static List<String> warnings(JsonNode range) {
        List<String> w = new ArrayList<>();
        range.path("fidelity").path("warnings").forEach(x -> w.add(x.asText()));
        w.removeAll(RangeCheck.CUPTI_CAVEATS);
        return w;
    }
}
