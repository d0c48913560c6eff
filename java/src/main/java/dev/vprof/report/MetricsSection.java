package dev.vprof.report;

import dev.vprof.capture.CaptureReader;
import dev.vprof.metrics.MetricFamily;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.VllmMetrics;
import dev.vprof.metrics.WindowStats;
import dev.vprof.time.CaptureWindow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The report's metrics section: {@link WindowStats} over the capture window, read chunk by chunk.
 * Counters and histograms need only the first and the last scrape; gauges need every scrape but
 * only a few families, so the scrapes in between are cut down to those before they are kept.
 */
final class MetricsSection {
    private MetricsSection() {}

    /** Families kept from the scrapes between the first and the last: the gauges WindowStats reads. */
    private static final Set<String> GAUGES = new HashSet<>();

    static {
        for (VllmMetrics.Metric m : List.of(VllmMetrics.NUM_REQUESTS_RUNNING, VllmMetrics.NUM_REQUESTS_WAITING,
                VllmMetrics.KV_CACHE_USAGE, VllmMetrics.LEGACY_PREFIX_CACHE_HIT_RATE)) {
            GAUGES.addAll(m.names());
        }
    }

    /**
     * The section, and the window's stats for the verdict and the latencies (null when fewer than
     * two scrapes cover the window); vllm says whether the last scrape had vLLM's metrics.
     */
    record Result(Report.MetricsSummary summary, WindowStats stats, boolean vllm) {}

    /** Null when the capture holds no METRICS chunk. */
    static Result build(CaptureReader reader, CaptureWindow window, List<String> notes) {
        if (!reader.hasMetrics()) {
            return null;
        }
        long from = window.startNs();
        long to = window.endNs();
        List<Report.MetricGap> gaps = new ArrayList<>();
        List<MetricsSnapshot> in = new ArrayList<>();
        MetricsSnapshot[] before = new MetricsSnapshot[1];
        MetricsSnapshot[] lastFull = new MetricsSnapshot[1];
        long[] scrapes = new long[1];
        long[] gapStart = {-1};
        String[] gapError = new String[1];
        notes.addAll(reader.scrapes(r -> {
            if (r instanceof ScrapeResult.Gap g) {
                if (gapStart[0] < 0) {
                    gapStart[0] = g.epochNs();
                    gapError[0] = g.error();
                }
                return;
            }
            MetricsSnapshot s = ((ScrapeResult.Scrape) r).snapshot();
            scrapes[0]++;
            if (gapStart[0] >= 0) {
                gaps.add(new Report.MetricGap(gapStart[0], s.epochNs(), gapError[0]));
                gapStart[0] = -1;
            }
            long t = s.epochNs();
            if (t <= from) {
                before[0] = s;
            } else if (t <= to) {
                in.add(in.isEmpty() && before[0] == null ? s : gaugesOnly(s));
                lastFull[0] = s;
            }
        }));
        if (gapStart[0] >= 0) {
            gaps.add(new Report.MetricGap(gapStart[0], Math.max(gapStart[0], to), gapError[0]));
        }
        if (before[0] != null) {
            in.addFirst(before[0]);
        }
        if (in.size() < 2) {
            notes.add("fewer than two metric scrapes cover the capture window: no metrics over it");
            return new Result(new Report.MetricsSummary(scrapes[0], null, null, null, null, null, null, null, null,
                    null, null, null, List.of(), List.of(), gaps, null), null, false);
        }
        in.set(in.size() - 1, lastFull[0]);
        WindowStats w = WindowStats.over(in);
        return new Result(new Report.MetricsSummary(scrapes[0], v(w.seconds()), v(w.requests()),
                v(w.waiting().mean()), v(w.waiting().max()), v(w.running().mean()), v(w.kvCacheUsage().max()),
                v(w.aborts()), v(w.preemptions()), v(w.prefixCacheHitRate()),
                v(w.promptTokensPerSecond()), v(w.generationTokensPerSecond()), w.missing(), w.invalid(), gaps,
                v(w.seconds() / (in.size() - 1))), w,
                VllmMetrics.isVllm(lastFull[0]));
    }

    private static MetricsSnapshot gaugesOnly(MetricsSnapshot s) {
        List<MetricFamily> kept = new ArrayList<>();
        for (MetricFamily f : s.families()) {
            if (GAUGES.contains(f.name())) {
                kept.add(f);
            }
        }
        return new MetricsSnapshot(s.epochNs(), kept);
    }

    /** NaN and infinities as null, so the JSON holds no non-numbers. */
    private static Double v(double d) {
        return Double.isFinite(d) ? d : null;
    }
}
