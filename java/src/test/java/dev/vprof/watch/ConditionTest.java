package dev.vprof.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.metrics.ExpositionFormat;
import dev.vprof.metrics.ExpositionParser;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.VllmMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The --when grammar and its evaluation over scrapes written as a vLLM server writes them. */
class ConditionTest {
    private static final long S = 1_000_000_000L;

    @Test
    void theDocumentedExamplesParseIntoTheirMetricStatisticAndUnit() {
        Condition c = Condition.parse("ttft_p99 > 500ms for 30s");
        assertSame(VllmMetrics.TIME_TO_FIRST_TOKEN, c.metric());
        assertEquals(Condition.Statistic.QUANTILE, c.statistic());
        assertEquals(0.99, c.quantile(), 1e-12);
        assertEquals(0.5, c.threshold(), 1e-12);
        assertEquals(Duration.ofSeconds(30), c.holdFor());
        assertEquals(Condition.DEFAULT_WINDOW, c.window());

        Condition w = Condition.parse("num_requests_waiting > 20");
        assertSame(VllmMetrics.NUM_REQUESTS_WAITING, w.metric());
        assertEquals(Condition.Statistic.GAUGE, w.statistic());
        assertEquals(Duration.ZERO, w.holdFor());

        assertEquals(0.95, Condition.parse("kv_cache_usage >= 95%").threshold(), 1e-12);
        assertEquals(0.999, Condition.parse("e2e_p999[1m] > 2s").quantile(), 1e-12);
        assertEquals(Duration.ofMinutes(1), Condition.parse("e2e_p999[1m] > 2s").window());
        assertEquals(Condition.Statistic.RATE, Condition.parse("preemptions_rate > 1").statistic());
        assertEquals(Condition.Statistic.MEAN, Condition.parse("itl_mean > 80ms").statistic());
    }

    @Test
    void vllmsOwnNamesTheirOlderNamesAndRayServesPrefixNameTheSameMetric() {
        assertSame(VllmMetrics.NUM_REQUESTS_WAITING, Condition.parse("vllm:num_requests_waiting > 20").metric());
        assertSame(VllmMetrics.NUM_REQUESTS_WAITING, Condition.parse("ray_vllm:num_requests_waiting > 20").metric());
        assertSame(VllmMetrics.KV_CACHE_USAGE, Condition.parse("vllm:gpu_cache_usage_perc > 0.9").metric());
        assertSame(VllmMetrics.INTER_TOKEN_LATENCY, Condition.parse("vllm:time_per_output_token_seconds_p90 > 50ms").metric());
        assertSame(VllmMetrics.TIME_TO_FIRST_TOKEN, Condition.parse("ray_vllm:time_to_first_token_seconds_p99 > 1s").metric());
        assertSame(VllmMetrics.NUM_PREEMPTIONS, Condition.parse("vllm:num_preemptions_total_rate > 0").metric());
    }

    @Test
    void whatDoesNotParseOrNamesNoMetricIsOneSentenceNamingTheRemedy() {
        String bad = assertThrows(Condition.BadCondition.class, () -> Condition.parse("ttft is high")).getMessage();
        assertTrue(bad.contains("does not parse") && bad.contains("ttft_p99 > 500ms for 30s"), bad);
        String unknown = assertThrows(Condition.BadCondition.class, () -> Condition.parse("gpu_temp > 80")).getMessage();
        assertTrue(unknown.contains("unknown metric 'gpu_temp'") && unknown.contains("num_requests_waiting"), unknown);
        String histogram = assertThrows(Condition.BadCondition.class, () -> Condition.parse("ttft > 1s")).getMessage();
        assertTrue(histogram.contains("ttft_p99"), histogram);
        String unit = assertThrows(Condition.BadCondition.class, () -> Condition.parse("ttft_p99 > 500")).getMessage();
        assertTrue(unit.contains("500ms or 0.5s"), unit);
        String count = assertThrows(Condition.BadCondition.class, () -> Condition.parse("num_requests_waiting > 20ms"))
                .getMessage();
        assertTrue(count.contains("without a unit"), count);
        String window = assertThrows(Condition.BadCondition.class, () -> Condition.parse("num_requests_waiting[5s] > 2"))
                .getMessage();
        assertTrue(window.contains("gauge"), window);
        for (String m : List.of(bad, unknown, histogram, unit, count, window)) {
            assertEquals(1, m.lines().count(), "one sentence: " + m);
        }
    }

    /** A vLLM /metrics body: the TTFT histogram's cumulative buckets, and the waiting gauge. */
    private static MetricsSnapshot scrape(long epochNs, double[] ttftBuckets, double waiting) {
        double[] le = {0.1, 0.25, 0.5, 1.0, 2.5};
        StringBuilder b = new StringBuilder();
        b.append("# TYPE vllm:num_requests_waiting gauge\n");
        b.append("vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} ").append(waiting).append('\n');
        b.append("# TYPE vllm:time_to_first_token_seconds histogram\n");
        double count = ttftBuckets[4];
        for (int i = 0; i < le.length; i++) {
            b.append("vllm:time_to_first_token_seconds_bucket{engine=\"0\",model_name=\"m\",le=\"").append(le[i])
                    .append("\"} ").append(ttftBuckets[i]).append('\n');
        }
        b.append("vllm:time_to_first_token_seconds_bucket{engine=\"0\",model_name=\"m\",le=\"+Inf\"} ").append(count).append('\n');
        b.append("vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"m\"} ").append(count).append('\n');
        b.append("vllm:time_to_first_token_seconds_sum{engine=\"0\",model_name=\"m\"} ").append(ttftBuckets[5]).append('\n');
        return new MetricsSnapshot(epochNs, new ExpositionParser().parse(b.toString(), ExpositionFormat.PROMETHEUS_TEXT)
                .families());
    }

    private static List<ScrapeResult> one(MetricsSnapshot s) {
        return List.of(new ScrapeResult.Scrape(s, 1000, List.of()));
    }

    @Test
    void aQuantileFiresOnlyOnceItsBucketProvesItAboveTheThresholdForTheWholeFor() {
        List<String> fired = new ArrayList<>();
        ConditionWatch w = new ConditionWatch(List.of(Condition.parse("ttft_p99 > 500ms for 2s")), 60 * S,
                "http://x/metrics", (c, why) -> fired.add(why));
        // Cumulative buckets le=0.1,0.25,0.5,1,2.5 and, last, the sum. Scrapes a second apart.
        // t=0: 100 requests all under 100 ms. Then 100 more per second, all of them under 100 ms.
        w.scrapes(one(scrape(0, new double[] {100, 100, 100, 100, 100, 5}, 0)));
        w.scrapes(one(scrape(S, new double[] {200, 200, 200, 200, 200, 10}, 0)));
        assertTrue(fired.isEmpty());
        // From t=2 s: in each second 90 fast requests and 10 between 0.5 s and 1 s. The p99 of the last
        // 10 s (all scrapes since t=0) has rank ceil(0.99 * n) in the (0.5, 1] bucket once 10 % > 1 %.
        double[] last = {200, 200, 200, 200, 200, 10};
        for (int t = 2; t <= 5; t++) {
            last = new double[] {last[0] + 90, last[1] + 90, last[2] + 90, last[3] + 100, last[4] + 100, last[5] + 9.4};
            w.scrapes(one(scrape(t * S, last, 0)));
            if (t < 4) {
                assertTrue(fired.isEmpty(), "held for " + (t - 2) + " s only: " + fired);
            }
        }
        assertEquals(1, fired.size(), "held from t=2 s, fires at t=4 s, not again within the minimum interval: " + fired);
        assertTrue(fired.getFirst().contains("ttft_p99 in (500 ms, 1.00 s]") && fired.getFirst().contains("for 2.0 s"),
                fired.getFirst());
    }

    @Test
    void aGaugeFiresAtOnceAndAgainOnlyAfterTheMinimumInterval() {
        List<String> fired = new ArrayList<>();
        ConditionWatch w = new ConditionWatch(List.of(Condition.parse("num_requests_waiting > 20")), 10 * S,
                "http://x/metrics", (c, why) -> fired.add(why));
        double[] b = {1, 1, 1, 1, 1, 0.1};
        w.scrapes(one(scrape(0, b, 20)));
        assertTrue(fired.isEmpty(), "20 is not above 20");
        for (int t = 1; t <= 12; t++) {
            w.scrapes(one(scrape(t * S, b, 34)));
        }
        assertEquals(2, fired.size(), "at t=1 s and t=11 s: " + fired);
        assertTrue(fired.getFirst().contains("num_requests_waiting = 34"), fired.getFirst());
    }

    @Test
    void aMetricTheServerNeverHasIsFatalAfterFiveScrapesAndOneItLostLaterIsNot() {
        ConditionWatch never = new ConditionWatch(List.of(Condition.parse("itl_p99 > 50ms")), S, "http://x/metrics",
                (c, why) -> { });
        for (int t = 0; t < ConditionWatch.NEVER_AFTER - 1; t++) {
            never.scrapes(one(scrape(t * S, new double[] {1, 1, 1, 1, 1, 0.1}, 0)));
            assertNull(never.fatal());
        }
        never.scrapes(one(scrape(9 * S, new double[] {1, 1, 1, 1, 1, 0.1}, 0)));
        String why = never.fatal();
        assertTrue(why != null && why.contains("can never be computed") && why.contains("vllm:inter_token_latency_seconds")
                && why.contains("http://x/metrics"), why);

        ConditionWatch lost = new ConditionWatch(List.of(Condition.parse("ttft_p99 > 50ms")), S, "u", (c, w) -> { });
        lost.scrapes(one(scrape(0, new double[] {1, 1, 1, 1, 1, 0.1}, 0)));
        for (int t = 1; t < 10; t++) {
            lost.scrapes(one(new MetricsSnapshot(t * S, List.of())));
        }
        assertNull(lost.fatal(), "a metric seen once can come back (a restarting server)");
    }
}
