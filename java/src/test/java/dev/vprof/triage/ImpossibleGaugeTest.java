package dev.vprof.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.VllmFixture;
import java.net.URI;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A gauge value vLLM's gauges cannot have (NaN, an infinity, a usage above 1, a negative count) is
 * warned by its series and kept out of the verdict: each row puts one such value into an
 * otherwise healthy window, whose verdict must stay HEALTHY with the impossible value shown nowhere
 * as a figure. The oracle is the window without the bad scrape, judged by hand: 100 quick requests,
 * 16 running, no queue, the cache 40% full.
 */
class ImpossibleGaugeTest {
    private static final URI URL = URI.create("http://10.0.0.7:8000/metrics");
    private static final String SERIES = "{engine=\"0\",model_name=\"Qwen/Qwen2.5-7B-Instruct\"}";

    static Stream<Arguments> rows() {
        BiConsumer<VllmFixture, Double> kv = (f, v) -> f.kvCacheUsage = v;
        BiConsumer<VllmFixture, Double> waiting = (f, v) -> f.waiting = v;
        BiConsumer<VllmFixture, Double> running = (f, v) -> f.running = v;
        return Stream.of(
                Arguments.of("vllm:kv_cache_usage_perc", kv, Double.POSITIVE_INFINITY, "a value of +Inf"),
                Arguments.of("vllm:kv_cache_usage_perc", kv, Double.NaN, "a value of NaN"),
                Arguments.of("vllm:kv_cache_usage_perc", kv, 7.5, "a value of 7.5 (a fraction from 0 to 1"),
                Arguments.of("vllm:kv_cache_usage_perc", kv, -0.2, "a value of -0.2 (a fraction from 0 to 1"),
                Arguments.of("vllm:num_requests_waiting", waiting, -5.0, "a value of -5 (a number of requests is never"),
                Arguments.of("vllm:num_requests_waiting", waiting, Double.POSITIVE_INFINITY, "a value of +Inf"),
                Arguments.of("vllm:num_requests_waiting", waiting, Double.NaN, "a value of NaN"),
                Arguments.of("vllm:num_requests_running", running, Double.NEGATIVE_INFINITY, "a value of -Inf"),
                Arguments.of("vllm:num_requests_running", running, -1.0, "a value of -1"));
    }

    @ParameterizedTest(name = "{0} = {2}")
    @MethodSource("rows")
    void anImpossibleGaugeValueIsWarnedByItsSeriesAndKeptOutOfTheVerdict(String name, BiConsumer<VllmFixture, Double> set,
                                                                         double value, String why) {
        VllmFixture f = new VllmFixture();
        f.finish(1000, "stop", 0.01, 0.05, 2.0, 500, 100);
        f.kvCacheUsage = 0.4;
        f.running = 16;
        MetricsSnapshot first = f.snapshot(1_736_322_000);
        f.finish(100, "stop", 0.01, 0.05, 2.0, 500, 100);
        MetricsSnapshot middle = f.snapshot(1_736_322_015);
        set.accept(f, value);
        MetricsSnapshot bad = f.snapshot(1_736_322_030);
        Assessment a = Triage.assess(List.of(first, middle, bad), 30, Triage.Thresholds.DEFAULT, URL);

        assertEquals(Verdict.HEALTHY, a.verdict(), String.join("\n", a.primary().evidence()));
        assertEquals(1, a.findings().size(), "no other finding: " + a.findings());
        List<String> invalid = a.stats().invalid();
        assertEquals(1, invalid.size(), "one warning: " + invalid);
        String warning = invalid.getFirst();
        assertTrue(warning.startsWith(name + SERIES + ": "), "naming the series: " + warning);
        assertTrue(warning.contains(why) && warning.endsWith("left out of 1 of 3 scrapes"), warning);

        String text = TriageReport.text(a, "x");
        assertTrue(text.contains("Left out (values no such metric can have): " + warning), text);
        String evidence = String.join("\n", a.primary().evidence());
        assertTrue(evidence.contains("requests waiting max = 0") && evidence.contains("KV-cache usage max = 40%"),
                "the figures are the two good scrapes': " + evidence);
        for (String impossible : List.of("750%", "-5", "-4", "Infinity", "n/a", "-20%")) {
            assertFalse(evidence.contains(impossible), "no figure from the bad value: " + evidence);
        }
    }
}
