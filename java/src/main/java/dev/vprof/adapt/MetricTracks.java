package dev.vprof.adapt;

import dev.vprof.metrics.HistogramDelta;
import dev.vprof.metrics.MetricFamily;
import dev.vprof.metrics.MetricMath;
import dev.vprof.metrics.MetricType;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.Quantile;
import dev.vprof.metrics.Sample;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.VllmMetrics;
import dev.vprof.timeline.CounterKind;
import dev.vprof.timeline.ServiceSpan;
import dev.vprof.timeline.Timeline;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns scrapes, in time order, into counter tracks, one per metric summed over its series (as
 * {@link MetricMath} reads them for the report): a gauge as scraped ({@code NAME}); a counter as its
 * increase per second over each scrape interval ({@code NAME rate}); a histogram as the upper bound
 * of the bucket that holds the p50 and the p99 of the observations made in each interval
 * ({@code NAME p50 <=}, {@code NAME p99 <=}), from the bucket deltas: a histogram places a quantile
 * in a bucket, and a line through interpolated points would claim more than that (nothing is drawn
 * for an interval whose quantile lies in the +Inf bucket). Each sample is stamped with its scrape's
 * epoch time, the end of its interval. A failed scrape (server down) opens a gap that the next good
 * scrape closes; each gap is drawn as a slice named for its error on a "vprof metrics" lane, and the
 * first rate after it covers the whole gap (the average over it, as PromQL's increase would give).
 */
final class MetricTracks implements Consumer<ScrapeResult> {
    static final String GAP_SERVICE = "vprof metrics";

    private final Timeline timeline;
    private final Map<String, VllmMetrics.Metric> histograms = new HashMap<>();
    private MetricsSnapshot previous;
    private long gapStartNs = -1;
    private String gapError;
    private int gaps;
    long scrapes;

    MetricTracks(Timeline timeline) {
        this.timeline = timeline;
    }

    @Override
    public void accept(ScrapeResult r) {
        switch (r) {
            case ScrapeResult.Gap g -> {
                if (gapStartNs < 0) {
                    gapStartNs = g.epochNs();
                    gapError = g.error();
                }
            }
            case ScrapeResult.Scrape s -> {
                closeGap(s.epochNs());
                scrape(s.snapshot());
                scrapes++;
            }
        }
    }

    /** Closes a gap still open at the end of the capture at {@code endNs} (or where it began). */
    void finish(long endNs) {
        if (gapStartNs >= 0) {
            closeGap(Math.max(gapStartNs, endNs));
        }
    }

    int gaps() {
        return gaps;
    }

    private void closeGap(long endNs) {
        if (gapStartNs < 0) {
            return;
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("error", gapError == null ? "" : gapError);
        gaps++;
        timeline.addSpan(new ServiceSpan("", "gap-" + gaps, "", GAP_SERVICE, "metrics gap: scrape failed",
                gapStartNs, endNs, attrs));
        gapStartNs = -1;
        gapError = null;
    }

    private void scrape(MetricsSnapshot now) {
        long t = now.epochNs();
        double seconds = previous == null ? 0 : (t - previous.epochNs()) / 1e9;
        for (MetricFamily f : now.families()) {
            switch (f.type()) {
                case GAUGE -> {
                    double v = sum(f, f.name());
                    if (!Double.isNaN(v)) {
                        timeline.counter(f.name(), CounterKind.GAUGE, unit(f.name())).add(t, v);
                    }
                }
                case COUNTER -> {
                    if (previous == null || seconds <= 0) {
                        continue;
                    }
                    // Prometheus text names the family x_total, OpenMetrics x: name the track x either way.
                    String base = f.name().endsWith("_total") ? f.name().substring(0, f.name().length() - 6) : f.name();
                    String sampleName = now.has(base + "_total") ? base + "_total" : base;
                    double inc = MetricMath.counterIncrease(previous, now, sampleName, base + "_created",
                            MetricMath.ALL_SERIES);
                    if (!Double.isNaN(inc)) {
                        timeline.counter(base + " rate", CounterKind.RATE, "1/s").add(t, inc / seconds);
                    }
                }
                case HISTOGRAM -> {
                    if (previous == null) {
                        continue;
                    }
                    VllmMetrics.Metric m = histograms.computeIfAbsent(f.name(),
                            n -> new VllmMetrics.Metric(MetricType.HISTOGRAM, n));
                    HistogramDelta d = MetricMath.histogramIncrease(previous, now, m, MetricMath.ALL_SERIES);
                    if (d != null) {
                        // NaN when nothing was observed in the interval: the writers leave it out.
                        timeline.counter(f.name() + " p50 <=", CounterKind.QUANTILE, unit(f.name()))
                                .add(t, upperBound(d.quantile(0.5)));
                        timeline.counter(f.name() + " p99 <=", CounterKind.QUANTILE, unit(f.name()))
                                .add(t, upperBound(d.quantile(0.99)));
                    }
                }
                default -> {
                    // Summaries, info and state sets have no single line to draw.
                }
            }
        }
        previous = now;
    }

    /** The bucket's upper bound; NaN (left out by the writers) when none was observed or it is +Inf. */
    private static double upperBound(Quantile q) {
        return q.known() && Double.isFinite(q.high()) ? q.high() : Double.NaN;
    }

    private static double sum(MetricFamily f, String sampleName) {
        double total = 0;
        boolean any = false;
        for (Sample s : f.samples()) {
            if (s.name().equals(sampleName) && !Double.isNaN(s.value())) {
                total += s.value();
                any = true;
            }
        }
        return any ? total : Double.NaN;
    }

    private static String unit(String name) {
        if (name.endsWith("_seconds")) {
            return "s";
        }
        if (name.endsWith("_bytes")) {
            return "bytes";
        }
        return "";
    }
}
