package dev.vprof.diff;

import dev.vprof.diff.DiffResult.Change;
import dev.vprof.diff.DiffResult.LatencyChange;
import dev.vprof.diff.DiffResult.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The verdict and the sentences that explain it. Two measures can decide: the GPU time per unit
 * (all kernels), and, where both sides hold requests, their latency (TTFT and end to end). A
 * measure has regressed when its change is at least the regression threshold and its interval
 * excludes 0 (for a latency: p50 and p99 both past the threshold, exact from the spans); either
 * regressing makes {@code REGRESSED}; otherwise either improving makes {@code IMPROVED}; else
 * {@code NO CHANGE}. A blocking comparability gate makes {@code NOT COMPARABLE} unless forced.
 */
final class Verdicts {
    private Verdicts() {}

    static DiffResult decide(DiffOptions o, DiffResult.Side base, DiffResult.Side next, DiffResult.Basis basis,
                             DiffResult.Settings settings, Change gpu, Change stepTime, List<Row> kernels,
                             List<Row> bases, List<Row> cats, List<Row> shapes, List<Row> cpuOps,
                             List<DiffResult.LevelMatch> matching,
                             Double explained, DiffResult.Comparability gate, DiffResult.Requests requests,
                             List<DiffResult.MetricChange> metrics, List<String> warnings) {
        double t = o.regressionThreshold();
        int kernelDir = direction(gpu, t);
        LatencyChange latency = null;
        int latencyDir = 0;
        if (requests != null) {
            for (LatencyChange l : requests.latencies()) {
                if (!l.name().equals("ttft") && !l.name().equals("e2e")) continue;
                int d = latencyDirection(l, t);
                if (d > 0 && latencyDir <= 0 || d < 0 && latencyDir == 0) {
                    latencyDir = d;
                    latency = l;
                }
            }
        }
        String unit = basis.unit();
        List<String> story = new ArrayList<>();
        String verdict;
        String headline;
        if (!gate.comparable()) {
            verdict = DiffResult.NOT_COMPARABLE;
            List<String> what = new ArrayList<>();
            for (DiffResult.Mismatch m : gate.mismatches()) {
                what.add(m.what().equals("common_kernels") ? "common kernels: " + m.base() + " (" + m.next() + ")"
                        : m.what().replace('_', ' ') + " " + m.base() + " vs " + m.next());
            }
            headline = "the sides differ: " + String.join("; ", what) + " (--force compares them anyway)";
        } else {
            if (kernelDir > 0 || latencyDir > 0) {
                verdict = DiffResult.REGRESSED;
            } else if (kernelDir < 0 || latencyDir < 0) {
                verdict = DiffResult.IMPROVED;
            } else {
                verdict = DiffResult.NO_CHANGE;
            }
            String gpuText = "GPU time per " + unit + " " + pct(gpu.relative()) + ci(gpu);
            if (latencyDir != 0 && latency != null) {
                headline = latencyText(latency) + "; " + gpuText;
            } else {
                headline = gpuText + (kernelDir == 0 ? ", within the " + pct0(t) + " threshold" : "");
            }
        }
        // Where the kernel time went.
        if (gpu.significant() && !kernels.isEmpty()) {
            Row top = kernels.getFirst();
            Row cat = cats.isEmpty() ? null : cats.getFirst();
            StringBuilder s = new StringBuilder();
            s.append(String.format(Locale.ROOT, "largest change: %s %s per %s (%s of the GPU-time change)",
                    DiffText.escape(DiffText.shorten(top.name(), 80)), DiffText.signedDuration(top.time().delta()),
                    unit, top.shareOfChange() == null ? "n/a" : pct0(top.shareOfChange())));
            if (cat != null) {
                s.append(String.format(Locale.ROOT, "; by category %s %s (%s)", DiffText.escape(cat.name()),
                        DiffText.signedDuration(cat.time().delta()),
                        cat.shareOfChange() == null ? "n/a" : pct0(cat.shareOfChange())));
            }
            if (explained != null) {
                s.append(String.format(Locale.ROOT, "; the top %d rows explain %s of the change",
                        Math.min(o.top(), kernels.size()), pct0(explained)));
            }
            story.add(s.toString());
        }
        if (requests != null) {
            story.addAll(requestStory(requests, t));
        }
        if (stepTime != null) {
            story.add("step time " + pct(stepTime.relative()) + ci(stepTime) + String.format(Locale.ROOT,
                    " (%s and %s per step)", DiffText.duration(stepTime.base()), DiffText.duration(stepTime.next())));
        }
        return new DiffResult(verdict, headline, story, base, next, basis, settings, gpu, stepTime, kernels, bases,
                cats, shapes, cpuOps, matching, explained, gate, requests, metrics, warnings);
    }

    private static List<String> requestStory(DiffResult.Requests r, double t) {
        List<String> out = new ArrayList<>();
        LatencyChange ttft = r.latencies().getFirst();
        Change g = r.gpuCost();
        StringBuilder s = new StringBuilder(latencyText(ttft));
        if (r.where() != null) {
            LatencyChange q = r.latencies().get(1), p = r.latencies().get(2);
            s.append(String.format(Locale.ROOT, ", of which queue p50 %s -> %s and prefill p50 %s -> %s",
                    DiffText.seconds(q.baseP50()), DiffText.seconds(q.newP50()), DiffText.seconds(p.baseP50()),
                    DiffText.seconds(p.newP50())));
            s.append(r.where().equals("queue") ? ": the time went to the queue" : ": the time went to prefill");
        }
        s.append("; GPU time per request ").append(pct(g.relative())).append(ci(g));
        DiffResult.PhaseChange queue = r.gpuPerRequest().getFirst();
        if (queue.change().delta() > 0 && r.where() != null && r.where().equals("queue")) {
            s.append(String.format(Locale.ROOT, "; the GPU was busy %s per request while requests queued (%s before)",
                    DiffText.duration(queue.change().next()), DiffText.duration(queue.change().base())));
        }
        boolean ttftUp = ttft.p99Change() != null && ttft.p99Change() >= t;
        if (ttftUp && !r.kernelRegression()) {
            s.append(g.relative() != null && Math.abs(g.relative()) < t ? " (unchanged)" : " (not up)");
            s.append(": not a kernel regression");
        } else if (r.kernelRegression()) {
            s.append(": the kernels take longer per request");
        }
        out.add(s.toString());
        return out;
    }

    private static String latencyText(LatencyChange l) {
        String name = l.name().equals("ttft") ? "TTFT" : l.name().equals("e2e") ? "end-to-end latency" : l.name();
        return String.format(Locale.ROOT, "p99 %s %s (%s -> %s), p50 %s", name, pct(l.p99Change()),
                DiffText.seconds(l.baseP99()), DiffText.seconds(l.newP99()), pct(l.p50Change()));
    }

    private static int direction(Change c, double threshold) {
        if (c.relative() == null || c.ciLow() == null) {
            return 0;
        }
        if (c.relative() >= threshold && c.ciLow() > 0) return 1;
        if (c.relative() <= -threshold && c.ciHigh() < 0) return -1;
        return 0;
    }

    private static int latencyDirection(LatencyChange l, double threshold) {
        if (l.p50Change() == null || l.p99Change() == null || l.baseCount() < 2 || l.newCount() < 2) {
            return 0;
        }
        if (l.p50Change() >= threshold && l.p99Change() >= threshold) return 1;
        if (l.p50Change() <= -threshold && l.p99Change() <= -threshold) return -1;
        return 0;
    }

    static String pct(Double f) {
        if (f == null) return "(base 0)";
        return String.format(Locale.ROOT, "%+.1f %%", 100 * f);
    }

    static String pct0(double f) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * f);
    }

    private static String ci(Change c) {
        if (c.ciLow() == null || c.base() == 0) return "";
        return String.format(Locale.ROOT, " (95 %% CI %+.1f .. %+.1f %%)", 100 * c.ciLow() / c.base(),
                100 * c.ciHigh() / c.base());
    }
}
