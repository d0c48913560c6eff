package dev.vprof.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.aggregate.Steps;
import java.util.List;

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
            ArrayNode rows = o.putArray("rows");
            for (Stragglers.Row x : r.stragglers()) {
                if (rows.size() == maxRows) {
                    break;
                }
                ObjectNode n = rows.addObject();
                n.put("pid", x.pid());
                n.put("matched", x.matched());
                n.put("last", x.last());
                n.put("late_total_ns", x.lateTotalNs());
                n.put("late_max_ns", x.lateMaxNs());
            }
            o.put("rows_total", r.stragglers().size());
            o.put("cut", r.stragglers().size() > rows.size());
        } else {
            table(o, r.summaries(), AnalysisText.table(name), maxRows);
        }
        return o;
    }

    private static void breakdown(ObjectNode o, Analyses.Result r, int maxRows) {
        ArrayNode rows = o.putArray("rows");
        Steps steps = r.steps();
        for (TemporalBreakdown.Row row : r.breakdown()) {
            if (rows.size() == maxRows) {
                break;
            }
            ObjectNode x = rows.addObject();
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
            x.put("idle_ns", row.idleNs());
            x.put("compute_ns", row.computeNs());
            x.put("communication_ns", row.communicationNs());
            x.put("memory_ns", row.memoryNs());
            x.put("overlap_ns", row.overlapNs());
            x.put("approximate", row.approximate());
        }
        o.put("rows_total", r.breakdown().size());
        o.put("cut", r.breakdown().size() > rows.size());
    }

    private static void phases(ObjectNode o, Analyses.Result r, int maxRows) {
        o.put("slow_percent", PhaseBreakdown.SLOW_PERCENT);
        ArrayNode rows = o.putArray("rows");
        for (PhaseBreakdown.Row p : r.phases()) {
            if (rows.size() == maxRows) {
                break;
            }
            TemporalBreakdown.Row row = p.figures();
            ObjectNode x = rows.addObject();
            x.put("phase", p.phase());
            x.put("requests", p.requests());
            x.put("pid", row.pid());
            x.put("device", row.device());
            x.put("length_ns", row.spanNs());
            x.put("idle_ns", row.idleNs());
            x.put("compute_ns", row.computeNs());
            x.put("communication_ns", row.communicationNs());
            x.put("memory_ns", row.memoryNs());
            x.put("overlap_ns", row.overlapNs());
        }
        o.put("rows_total", r.phases().size());
        o.put("cut", r.phases().size() > rows.size());
    }

    private static void ranks(ObjectNode o, Analyses.Result r, int maxRows) {
        List<RankImbalance.Row> all = RankImbalance.of(r);
        ArrayNode rows = o.putArray("rows");
        for (RankImbalance.Row x : all) {
            if (rows.size() == maxRows) {
                break;
            }
            ObjectNode n = rows.addObject();
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
        }
        o.put("rows_total", all.size());
        o.put("cut", all.size() > rows.size());
    }

    private static void launchQueue(ObjectNode o, Analyses.Result r, int maxRows) {
        List<LaunchQueue.Row> all = r.launches().rows();
        ArrayNode rows = o.putArray("rows");
        for (LaunchQueue.Row row : all) {
            if (rows.size() == maxRows) {
                break;
            }
            SummaryStats d = row.delays();
            ObjectNode x = rows.addObject();
            x.put("pid", row.pid());
            x.put("device", row.device());
            x.put("stream", row.stream());
            x.put("kernels", d.count());
            x.put("mean_ns", d.mean());
            x.put("median_ns", d.median());
            x.put("median_exact", d.exact());
            x.put("min_ns", d.min());
            x.put("max_ns", d.max());
        }
        o.put("rows_total", all.size());
        o.put("cut", all.size() > rows.size());
        o.put("unjoined_kernels", r.launches().unjoined());
    }

    private static void table(ObjectNode o, Summaries s, Summaries.Table t, int maxRows) {
        o.put("unit", t.bytes() ? "bytes" : "ns");
        ArrayNode rows = o.putArray("rows");
        List<Summaries.Row> all = s.rows(t);
        for (Summaries.Row row : all) {
            if (rows.size() == maxRows) {
                break;
            }
            SummaryStats x = row.stats();
            ObjectNode n = rows.addObject();
            n.put("name", row.name());
            n.put("count", x.count());
            n.put("total", x.total());
            n.put("mean", x.mean());
            n.put("median", x.median());
            n.put("median_exact", x.exact());
            n.put("min", x.min());
            n.put("max", x.max());
            n.put("stddev", x.stddev());
        }
        o.put("rows_total", all.size());
        o.put("cut", all.size() > rows.size());
        if (t == Summaries.Table.NVTX) {
            o.put("unpaired_ranges", s.unpairedRanges());
        }
    }
}
