package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MetricMathTest {
    private static MetricsSnapshot snap(long epochSeconds, String text) {
        Exposition e = new ExpositionParser().parse(text, ExpositionFormat.PROMETHEUS_TEXT);
        assertEquals(List.of(), e.errors());
        return new MetricsSnapshot(epochSeconds * 1_000_000_000L, e.families());
    }

    @Test
    void aCounterThatWentDownWasResetAndCountsItsNewValue() {
        MetricsSnapshot a = snap(0, "vllm:num_preemptions_total{engine=\"0\"} 100\nvllm:num_preemptions_total{engine=\"1\"} 10\n");
        MetricsSnapshot b = snap(30, "vllm:num_preemptions_total{engine=\"0\"} 30\nvllm:num_preemptions_total{engine=\"1\"} 15\n");
        assertEquals(30 + 5, MetricMath.counterIncrease(a, b, VllmMetrics.NUM_PREEMPTIONS, MetricMath.ALL_SERIES));
    }

    @Test
    void aCounterWhoseCreatedTimeMovedWasResetEvenThoughItGrew() {
        MetricsSnapshot a = snap(0, "vllm:prompt_tokens_total 100\nvllm:prompt_tokens_created 1000\n");
        MetricsSnapshot b = snap(30, "vllm:prompt_tokens_total 150\nvllm:prompt_tokens_created 1020\n");
        assertEquals(150, MetricMath.counterIncrease(a, b, VllmMetrics.PROMPT_TOKENS, MetricMath.ALL_SERIES));
        MetricsSnapshot c = snap(30, "vllm:prompt_tokens_total 150\nvllm:prompt_tokens_created 1000\n");
        assertEquals(50, MetricMath.counterIncrease(a, c, VllmMetrics.PROMPT_TOKENS, MetricMath.ALL_SERIES));
    }

    @Test
    void aSeriesThatAppearsInTheWindowCountsFromZero() {
        MetricsSnapshot a = snap(0, "vllm:request_success_total{finished_reason=\"stop\"} 5\n");
        MetricsSnapshot b = snap(30, "vllm:request_success_total{finished_reason=\"stop\"} 9\n"
                + "vllm:request_success_total{finished_reason=\"abort\"} 3\n");
        assertEquals(7, MetricMath.counterIncrease(a, b, VllmMetrics.REQUEST_SUCCESS, MetricMath.ALL_SERIES));
        assertTrue(Double.isNaN(MetricMath.counterIncrease(a, b, VllmMetrics.NUM_PREEMPTIONS, MetricMath.ALL_SERIES)));
    }

    @Test
    void histogramQuantilesComeFromBucketDeltasNotTotals() {
        VllmFixture f = new VllmFixture();
        f.observe(VllmFixture.TTFT, 0.03, 1000); // history before the window: fast
        MetricsSnapshot a = f.snapshot(0);
        f.observe(VllmFixture.TTFT, 0.2, 50).observe(VllmFixture.TTFT, 3.0, 50); // the window: slow
        MetricsSnapshot b = f.snapshot(30);
        HistogramDelta d = MetricMath.histogramIncrease(a, b, VllmMetrics.TIME_TO_FIRST_TOKEN, MetricMath.ALL_SERIES);
        assertEquals(100, d.count());
        assertEquals((0.2 * 50 + 3.0 * 50) / 100, d.mean(), 1e-9);
        // rank 50 is the last of the 50 in (0.1, 0.25]; rank 99 lies in (2.5, 5.0]
        assertEquals(Quantile.between(0.5, 0.1, 0.25), d.quantile(0.5));
        assertEquals(Quantile.between(0.99, 2.5, 5.0), d.quantile(0.99));
    }

    @Test
    void aHistogramResetCountsItsNewBucketsWhole() {
        VllmFixture f = new VllmFixture();
        f.observe(VllmFixture.TTFT, 0.03, 1000);
        MetricsSnapshot a = f.snapshot(0);
        VllmFixture restarted = new VllmFixture();
        restarted.observe(VllmFixture.TTFT, 0.9, 10);
        HistogramDelta d = MetricMath.histogramIncrease(a, restarted.snapshot(30), VllmMetrics.TIME_TO_FIRST_TOKEN,
                MetricMath.ALL_SERIES);
        assertEquals(10, d.count());
        assertEquals(0.9, d.mean(), 1e-12);
    }

    @Test
    void aMissingHistogramIsNull() {
        assertNull(MetricMath.histogramIncrease(snap(0, "a 1\n"), snap(1, "a 2\n"),
                VllmMetrics.TIME_TO_FIRST_TOKEN, MetricMath.ALL_SERIES));
    }

    @Test
    void gaugeMeanAndMaxAreOverEveryScrape() {
        List<MetricsSnapshot> s = List.of(snap(0, "vllm:num_requests_waiting 2\n"), snap(1, "other 1\n"),
                snap(2, "vllm:num_requests_waiting 10\n"), snap(3, "vllm:num_requests_waiting 6\n"));
        MetricMath.GaugeStats g = MetricMath.gaugeStats(s, VllmMetrics.NUM_REQUESTS_WAITING, MetricMath.ALL_SERIES);
        assertEquals(6.0, g.mean());
        assertEquals(10.0, g.max());
        assertEquals(2.0, g.first());
        assertEquals(6.0, g.last());
        assertEquals(3, g.scrapes());
    }

    @Test
    void windowStatsReadsEveryNumberTheReportNeeds() {
        VllmFixture f = new VllmFixture();
        f.finish(100, "stop", 0.01, 0.05, 2.0, 500, 100);
        f.prefixQueries = 50_000;
        f.prefixHits = 10_000;
        f.kvCacheUsage = 0.3;
        MetricsSnapshot a = f.snapshot(1000);
        f.finish(40, "stop", 0.02, 0.08, 3.0, 1000, 200);
        f.finish(10, "length", 0.02, 0.08, 4.0, 1000, 256);
        f.finish(5, "abort", 0.02, 0.08, 1.0, 1000, 10);
        f.prefixQueries += 55_000;
        f.prefixHits += 22_000;
        f.preemptions = 3;
        f.kvCacheUsage = 0.7;
        f.waiting = 4;
        f.running = 20;
        MetricsSnapshot b = f.snapshot(1030);

        WindowStats w = WindowStats.between(a, b, 0);
        assertEquals(30.0, w.seconds(), 1e-9);
        assertEquals(55, w.requests());
        assertEquals(5, w.aborts());
        assertEquals(10.0, w.finishedByReason().get("length"));
        assertEquals(3, w.preemptions());
        assertEquals(0.4, w.prefixCacheHitRate(), 1e-12);
        assertEquals(55_000 / 30.0, w.promptTokensPerSecond(), 1e-9);
        assertEquals((40 * 200 + 10 * 256 + 5 * 10) / 30.0, w.generationTokensPerSecond(), 1e-9);
        assertEquals(55, w.ttft().count());
        assertEquals(0.1, w.ttft().mean(), 1e-9);
        assertEquals(0.7, w.kvCacheUsage().max());
        assertEquals(4.0, w.waiting().max());
        assertEquals(2.0, w.waiting().mean());
        assertEquals(List.of(), w.missing());
    }

    @Test
    void windowStatsReadsALegacyServerThroughTheOldNames() {
        VllmFixture f = new VllmFixture(true);
        f.kvCacheUsage = 0.5;
        f.prefixQueries = 100;
        MetricsSnapshot a = f.snapshot(0);
        f.finish(10, "stop", 0.01, 0.05, 1.0, 100, 21);
        f.kvCacheUsage = 0.9;
        f.prefixQueries = 200;
        f.prefixHits = 25;
        WindowStats w = WindowStats.between(a, f.snapshot(10), 0);
        assertEquals(0.9, w.kvCacheUsage().max());
        assertEquals(0.25, w.prefixCacheHitRate(), 1e-12);
        assertEquals(200, w.interToken().count());
        assertEquals(0.05, w.interToken().mean(), 1e-9);
    }
}
