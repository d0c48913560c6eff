package dev.vprof.diff;

import dev.vprof.time.Selection;
import dev.vprof.diff.DiffResult.Change;
import dev.vprof.diff.DiffResult.LatencyChange;
import dev.vprof.diff.DiffResult.MetricChange;
import dev.vprof.diff.DiffResult.PhaseChange;
import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.report.Report;
import dev.vprof.report.RequestFigures;
import dev.vprof.time.CaptureWindow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Requests and metrics on both sides: each request latency's quantiles (exact, from the spans,
 * nearest rank), the GPU busy time per request in each phase (the report's per-request figures),
 * with a bootstrap over requests, and the server's metrics over each side's interval.
 */
final class RequestCompare {
    private RequestCompare() {}

    static final List<String> LATENCIES = List.of("ttft", "queue", "prefill", "decode", "e2e");

    /**
     * Null unless both sides hold requests.
     *
     * @param gpu the kernels' time per unit: with requests as the basis, the GPU work a request
     *            costs (every kernel of the side over its requests), which says whether the kernels
     *            regressed; the per-phase figures are the GPU busy time while each request was in a
     *            phase, which grows with concurrency as well
     */
    static DiffResult.Requests compare(DiffOptions o, CaptureDiff.Input bi, SideAcc b, CaptureDiff.Input ni,
                                       SideAcc n, Change gpu) {
        if (b.requests == 0 || n.requests == 0) {
            return null;
        }
        double[][] bl = latencies(bi, b);
        double[][] nl = latencies(ni, n);
        List<LatencyChange> lat = new ArrayList<>();
        for (int c = 0; c < LATENCIES.size(); c++) {
            double[] x = bl[c].clone(), y = nl[c].clone();
            Arrays.sort(x);
            Arrays.sort(y);
            double bp50 = rank(x, 0.5), bp90 = rank(x, 0.9), bp99 = rank(x, 0.99);
            double np50 = rank(y, 0.5), np90 = rank(y, 0.9), np99 = rank(y, 0.99);
            lat.add(new LatencyChange(LATENCIES.get(c), x.length, y.length, bp50, bp90, bp99, np50, np90, np99,
                    rel(bp50, np50), rel(bp99, np99)));
        }
        long[][] bg = gpu(bi, b);
        long[][] ng = gpu(ni, n);
        List<PhaseChange> phases = new ArrayList<>();
        String[] names = {RequestPhases.QUEUE, RequestPhases.PREFILL, RequestPhases.DECODE, "total"};
        KeyStats.Rng rng = new KeyStats.Rng(3);
        for (int p = 0; p < names.length; p++) {
            phases.add(new PhaseChange(names[p], meanChange(bg[p], ng[p], o.noiseFloor(), rng)));
        }
        // Where the TTFT went: the phase (queue or prefill) whose mean grew most.
        String where = null;
        LatencyChange ttft = lat.getFirst();
        if (ttft.p99Change() != null && ttft.p99Change() > o.noiseFloor()) {
            double dq = mean(nl[1]) - mean(bl[1]);
            double dp = mean(nl[2]) - mean(bl[2]);
            where = dq >= dp ? RequestPhases.QUEUE : RequestPhases.PREFILL;
        }
        Change total = b.unit.equals("request") ? gpu : phases.getLast().change();
        boolean kernelRegression = total.relative() != null && total.relative() >= o.regressionThreshold()
                && total.significant();
        return new DiffResult.Requests(b.requests, n.requests, lat, phases, total, where, kernelRegression);
    }

    /** [latency][request] in seconds, of the side's requests. */
    private static double[][] latencies(CaptureDiff.Input in, SideAcc s) {
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < in.slices.size(); i++) {
            if (!s.requestPicked[i]) {
                continue;
            }
            RequestSlice r = in.slices.get(i);
            rows.add(new double[] {RequestFigures.ttftSeconds(r), r.phase(RequestPhases.QUEUE).durationNs() / 1e9,
                    r.phase(RequestPhases.PREFILL).durationNs() / 1e9, r.phase(RequestPhases.DECODE).durationNs() / 1e9,
                    (r.endEpochNs() - r.startEpochNs()) / 1e9});
        }
        double[][] out = new double[LATENCIES.size()][rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            for (int c = 0; c < LATENCIES.size(); c++) {
                out[c][i] = rows.get(i)[c];
            }
        }
        return out;
    }

    /** [phase: queue, prefill, decode, total][request] GPU busy ns, of the side's requests. */
    private static long[][] gpu(CaptureDiff.Input in, SideAcc s) {
        List<Report.RequestSummary> all = in.requestSummaries;
        int m = 0;
        for (int i = 0; i < all.size(); i++) {
            if (s.requestPicked[i]) m++;
        }
        long[][] out = new long[4][m];
        int k = 0;
        for (int i = 0; i < all.size(); i++) {
            if (!s.requestPicked[i]) continue;
            Report.RequestSummary r = all.get(i);
            out[0][k] = r.gpuNsInQueue();
            out[1][k] = r.gpuNsInPrefill();
            out[2][k] = r.gpuNsInDecode();
            out[3][k] = r.gpuNsInQueue() + r.gpuNsInPrefill() + r.gpuNsInDecode();
            k++;
        }
        return out;
    }

    private static Change meanChange(long[] b, long[] n, double noiseFloor, KeyStats.Rng rng) {
        double[] bd = new double[Comparison.DRAWS], nd = new double[Comparison.DRAWS];
        for (int d = 0; d < Comparison.DRAWS; d++) {
            bd[d] = resampledMean(b, rng);
            nd[d] = resampledMean(n, rng);
        }
        return Comparison.change(mean(b), mean(n), bd, nd, noiseFloor);
    }

    private static double resampledMean(long[] v, KeyStats.Rng rng) {
        if (v.length == 0) return 0;
        double s = 0;
        for (int i = 0; i < v.length; i++) {
            s += v[(int) rng.below(v.length)];
        }
        return s / v.length;
    }

    private static double mean(long[] v) {
        double s = 0;
        for (long x : v) s += x;
        return v.length == 0 ? 0 : s / v.length;
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) s += x;
        return v.length == 0 ? 0 : s / v.length;
    }

    /** Nearest rank, as the report's latencies are; 0 when empty. */
    static double rank(double[] sorted, double q) {
        if (sorted.length == 0) return 0;
        int r = (int) Math.max(1, Math.ceil(q * sorted.length - 1e-9));
        return sorted[r - 1];
    }

    static Double rel(double base, double next) {
        return base == 0 ? null : (next - base) / base;
    }

    /** The server's metrics over each side's interval; empty unless both sides hold scrapes (and are windows of time). */
    static List<MetricChange> metrics(CaptureDiff.Input bi, SideAcc b, CaptureDiff.Input ni, SideAcc n) {
        if (b.selection.byRequests() || n.selection.byRequests()) {
            return List.of(); // a set of requests has no interval of its own
        }
        CaptureWindow bw = CaptureDiff.sideWindow(b);
        CaptureWindow nw = CaptureDiff.sideWindow(n);
        Report.MetricsSummary bm = bw.present() ? RequestFigures.metrics(bi.reader, bw) : null;
        Report.MetricsSummary nm = nw.present() ? RequestFigures.metrics(ni.reader, nw) : null;
        if (bm == null || nm == null) {
            return List.of();
        }
        List<MetricChange> out = new ArrayList<>();
        add(out, "generation_tokens_per_s", bm.generationTokensPerS(), nm.generationTokensPerS());
        add(out, "prompt_tokens_per_s", bm.promptTokensPerS(), nm.promptTokensPerS());
        add(out, "queue_depth_mean", bm.queueDepthMean(), nm.queueDepthMean());
        add(out, "queue_depth_max", bm.queueDepthMax(), nm.queueDepthMax());
        add(out, "running_mean", bm.runningMean(), nm.runningMean());
        add(out, "kv_cache_usage_max", bm.kvCacheUsageMax(), nm.kvCacheUsageMax());
        add(out, "preemptions", bm.preemptions(), nm.preemptions());
        add(out, "prefix_cache_hit_rate", bm.prefixCacheHitRate(), nm.prefixCacheHitRate());
        return out;
    }

    private static void add(List<MetricChange> out, String name, Double b, Double n) {
        if (b == null && n == null) return;
        out.add(new MetricChange(name, b, n, b == null || n == null || b == 0 ? null : (n - b) / b));
    }

    /** Mean prompt tokens of a side's requests (the request mix), or NaN when the spans do not say. */
    static double meanPromptTokens(CaptureDiff.Input in, SideAcc s) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < in.slices.size(); i++) {
            if (!s.requestPicked[i]) continue;
            AnyValue v = in.slices.get(i).span().attribute(RequestPhases.ATTR_PROMPT_TOKENS);
            if (v != null && Double.isFinite(v.asDouble())) {
                sum += v.asDouble();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    static boolean isWindowOrAll(Selection s) {
        return !s.byRequests();
    }
}
