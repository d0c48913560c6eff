package dev.vprof.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.aggregate.Steps;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The analyses as JSON (docs/report-json.md, "Sections"): one object per section, snake_case, every
 * figure whole ns (or bytes) but the mean and standard deviation; {@code rows_total} and
 * {@code cut} say when a table was cut at {@code maxRows}.
 */
public final class AnalysisJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AnalysisJson() {}

    public static ObjectNode render(Analyses.Result r, String name, int maxRows) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("section", name);
        if (name.equals(AnalysisText.BREAKDOWN)) {
            breakdown(o, r, maxRows);
        } else if (name.equals(AnalysisText.PHASES)) {
            phases(o, r, maxRows);
        } else if (name.equals(AnalysisText.LAUNCH_QUEUE)) {
            launchQueue(o, r, maxRows);
        } else if (name.equals(AnalysisText.RANKS)) {
            ranks(o, r, maxRows);
        } else if (name.equals(AnalysisText.STRAGGLERS)) {
            rows(o, r.stragglers(), maxRows, (x, n) -> {
                n.put("pid", x.pid());
                n.put("matched", x.matched());
                n.put("last", x.last());
                n.put("late_total_ns", x.lateTotalNs());
                n.put("late_max_ns", x.lateMaxNs());
            });
        } else {
            table(o, r.summaries(), AnalysisText.table(name), maxRows);
        }
        return o;
    }

    /**
     * A section's table: the first {@code maxRows} of {@code all} in the array "rows", each written by
     * {@code row}, then {@code rows_total} and {@code cut}, which say whether the table was cut.
     */
    private static <T> void rows(ObjectNode o, List<T> all, int maxRows, BiConsumer<T, ObjectNode> row) {
        ArrayNode rows = o.putArray("rows");
        for (T x : all) {
            if (rows.size() == maxRows) {
                break;
            }
            row.accept(x, rows.addObject());
        }
        o.put("rows_total", all.size());
        o.put("cut", all.size() > rows.size());
    }

    private static void breakdown(ObjectNode o, Analyses.Result r, int maxRows) {
        Steps steps = r.steps();
        rows(o, r.breakdown(), maxRows, (row, x) -> {
            x.put("pid", row.pid());
            Integer rank = r.ranks().get(row.pid());
            if (rank != null) {
                x.put("rank", rank);
            }
            x.put("device", row.device());
            if (row.step() == TemporalBreakdown.WHOLE) {
                x.putNull("step");
            } else {
                x.put("step", steps.name(row.step()));
            }
            x.put("span_ns", row.spanNs());
            times(x, row);
            x.put("approximate", row.approximate());
        });
    }

    private static void phases(ObjectNode o, Analyses.Result r, int maxRows) {
        o.put("slow_percent", PhaseBreakdown.SLOW_PERCENT);
        rows(o, r.phases(), maxRows, (p, x) -> {
            TemporalBreakdown.Row row = p.figures();
            x.put("phase", p.phase());
            x.put("requests", p.requests());
            x.put("pid", row.pid());
            x.put("device", row.device());
            x.put("length_ns", row.spanNs());
            times(x, row);
        });
    }

    /** A breakdown row's times by what the GPU did, as the breakdown and the phases give them. */
    private static void times(ObjectNode x, TemporalBreakdown.Row row) {
        x.put("idle_ns", row.idleNs());
        x.put("compute_ns", row.computeNs());
        x.put("communication_ns", row.communicationNs());
        x.put("memory_ns", row.memoryNs());
        x.put("overlap_ns", row.overlapNs());
    }

    private static void ranks(ObjectNode o, Analyses.Result r, int maxRows) {
        rows(o, RankImbalance.of(r), maxRows, (x, n) -> {
            n.put("step", x.step());
            n.put("ranks", x.ranks());
            n.put("slowest_pid", x.slowestPid());
            n.put("fastest_pid", x.fastestPid());
            n.put("slowest_span_ns", x.slowestSpanNs());
            n.put("fastest_span_ns", x.fastestSpanNs());
            n.put("spread_ns", x.spreadNs());
            n.put("compute_delta_ns", x.computeDeltaNs());
            n.put("communication_delta_ns", x.communicationDeltaNs());
            n.put("idle_delta_ns", x.idleDeltaNs());
        });
    }

    private static void launchQueue(ObjectNode o, Analyses.Result r, int maxRows) {
        rows(o, r.launches().rows(), maxRows, (row, x) -> {
            SummaryStats d = row.delays();
            x.put("pid", row.pid());
            x.put("device", row.device());
            x.put("stream", row.stream());
            x.put("kernels", d.count());
            x.put("mean_ns", d.mean());
            x.put("median_ns", d.median());
            x.put("median_exact", d.exact());
            x.put("min_ns", d.min());
            x.put("max_ns", d.max());
        });
        o.put("unjoined_kernels", r.launches().unjoined());
    }

    private static void table(ObjectNode o, Summaries s, Summaries.Table t, int maxRows) {
        o.put("unit", t.bytes() ? "bytes" : "ns");
        rows(o, s.rows(t), maxRows, (row, n) -> {
            SummaryStats x = row.stats();
            n.put("name", row.name());
            n.put("count", x.count());
            n.put("total", x.total());
            n.put("mean", x.mean());
            n.put("median", x.median());
            n.put("median_exact", x.exact());
            n.put("min", x.min());
            n.put("max", x.max());
            n.put("stddev", x.stddev());
        });
        if (t == Summaries.Table.NVTX) {
            o.put("unpaired_ranges", s.unpairedRanges());
        }
    }
}
