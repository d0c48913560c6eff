package dev.vprof.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rank imbalance per step, from the temporal breakdown's per-step rows: steps are matched across
 * processes by their name as the source gives it ({@code ProfilerStep#552} on every rank), and for
 * each the slowest rank (the longest GPU span in the step), the spread (longest minus shortest) and
 * how the slowest differs from the fastest in compute, communication and idle time (where the
 * difference is). Steps that only one process has are left out.
 */
public final class RankImbalance {
    private RankImbalance() {}

    /**
     * One step across ranks.
     *
     * @param slowestPid the process with the longest span; fastestPid the shortest
     * @param computeDeltaNs, communicationDeltaNs, idleDeltaNs slowest minus fastest
     */
    public record Row(String step, int ranks, int slowestPid, int fastestPid, long slowestSpanNs, long fastestSpanNs,
                      long spreadNs, long computeDeltaNs, long communicationDeltaNs, long idleDeltaNs) {}

    public static List<Row> of(Analyses.Result r) {
        Map<String, List<TemporalBreakdown.Row>> byStep = new LinkedHashMap<>();
        for (TemporalBreakdown.Row row : r.breakdown()) {
            if (row.step() != TemporalBreakdown.WHOLE) {
                byStep.computeIfAbsent(r.steps().name(row.step()), s -> new ArrayList<>()).add(row);
            }
        }
        List<Row> out = new ArrayList<>();
        for (Map.Entry<String, List<TemporalBreakdown.Row>> e : byStep.entrySet()) {
            List<TemporalBreakdown.Row> rows = e.getValue();
            if (rows.stream().map(TemporalBreakdown.Row::pid).distinct().count() < 2) {
                continue;
            }
            TemporalBreakdown.Row slow = rows.getFirst();
            TemporalBreakdown.Row fast = rows.getFirst();
            for (TemporalBreakdown.Row x : rows) {
                if (x.spanNs() > slow.spanNs()) {
                    slow = x;
                }
                if (x.spanNs() < fast.spanNs()) {
                    fast = x;
                }
            }
            out.add(new Row(e.getKey(), rows.size(), slow.pid(), fast.pid(), slow.spanNs(), fast.spanNs(),
                    slow.spanNs() - fast.spanNs(), slow.computeNs() - fast.computeNs(),
                    slow.communicationNs() - fast.communicationNs(), slow.idleNs() - fast.idleNs()));
        }
        return out;
    }
}
