package dev.vprof.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.metrics.ExpositionFormat;
import dev.vprof.metrics.ExpositionParser;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.VllmFixture;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One exposition pair built for each verdict, on top of a server with a healthy history. */
class TriageTest {
    private static final URI URL = URI.create("http://10.0.0.7:8000/metrics");

    /** A server that has served 1000 healthy requests before the window opens. */
    private static VllmFixture server() {
        VllmFixture f = new VllmFixture();
        f.finish(1000, "stop", 0.01, 0.05, 2.0, 500, 100);
        f.kvCacheUsage = 0.4;
        f.running = 16;
        f.prefixQueries = 500_000;
        f.prefixHits = 150_000;
        return f;
    }

    private static Assessment assess(VllmFixture f, Runnable window) {
        MetricsSnapshot first = f.snapshot(1_736_322_000);
        window.run();
        MetricsSnapshot second = f.snapshot(1_736_322_030);
        return Triage.assess(List.of(first, second), 30, Triage.Thresholds.DEFAULT, URL);
    }

    private static String all(Finding f) {
        return f.summary() + "\n" + String.join("\n", f.evidence()) + "\n" + String.join("\n", f.nextSteps());
    }

    @Test
    void kvCacheNearFullWithPreemptionsIsKvCachePressure() {
        VllmFixture f = server();
        Assessment a = assess(f, () -> {
            f.finish(100, "stop", 0.01, 0.05, 2.0, 500, 100);
            f.kvCacheUsage = 0.99;
            f.preemptions += 12;
        });
        assertEquals(Verdict.KV_CACHE_PRESSURE, a.verdict(), all(a.primary()));
        String text = all(a.primary());
        assertTrue(text.contains("usage max = 99%") && text.contains("preemptions = 12"), text);
        assertTrue(text.contains("--gpu-memory-utilization"), text);
    }

    @Test
    void aGrowingQueueThatDominatesTtftIsQueueBound() {
        VllmFixture f = server();
        f.waiting = 2;
        Assessment a = assess(f, () -> {
            f.finish(100, "stop", 3.0, 0.1, 2.0, 500, 100);
            f.waiting = 40;
        });
        assertEquals(Verdict.QUEUE_BOUND, a.verdict(), all(a.primary()));
        String text = all(a.primary());
        assertTrue(text.contains("requests waiting: 2 -> 40"), text);
        assertTrue(text.contains("a profile will not fix a queue"), text);
        assertTrue(text.contains("vprof attach --pid <vllm-pid> --otlp --metrics " + URL), text);
        assertEquals(1, a.findings().size(), "queueing alone, no other finding");
    }

    @Test
    void manyAbortedRequestsAreClientsTimingOut() {
        VllmFixture f = server();
        Assessment a = assess(f, () -> {
            f.finish(90, "stop", 0.01, 0.05, 2.0, 500, 100);
            f.finish(10, "abort", 0.01, 0.05, 0.5, 500, 20);
        });
        assertEquals(Verdict.CLIENTS_TIMING_OUT, a.verdict(), all(a.primary()));
        assertTrue(all(a.primary()).contains("aborted = 10 of 100"), all(a.primary()));
        assertEquals(10.0, a.stats().aborts());
    }

    @Test
    void slowTtftMadeOfPrefillIsPrefillBound() {
        VllmFixture f = server();
        Assessment a = assess(f, () -> f.finish(100, "stop", 0.05, 2.0, 2.0, 8000, 100));
        assertEquals(Verdict.PREFILL_BOUND, a.verdict(), all(a.primary()));
        String text = all(a.primary());
        assertTrue(text.contains("--capture-range=cudaProfilerApi --trigger http://10.0.0.7:8000 --metrics " + URL),
                text);
        assertTrue(text.contains("\"profiler\":\"cuda\""), text);
    }

    @Test
    void slowTokensAreDecodeBound() {
        VllmFixture f = server();
        Assessment a = assess(f, () -> f.finish(100, "stop", 0.01, 0.05, 30.0, 500, 101));
        assertEquals(Verdict.DECODE_BOUND, a.verdict(), all(a.primary()));
        // 30 s over 100 gaps: 0.3 s each, in the (0.2, 0.3] bucket; the sum (30 s) leaves no room
        // below its top, so the bounds close on 0.3 without ever claiming more than the bucket.
        assertTrue(a.stats().interToken().p99().atLeast(0.2) && a.stats().interToken().p99().atMost(0.3),
                a.stats().interToken().p99().toString());
        assertTrue(all(a.primary()).contains("(metrics histogram buckets)"), all(a.primary()));
        assertTrue(all(a.primary()).contains("--capture-range=cudaProfilerApi"));
    }

    @Test
    void aServerWithinEveryTargetIsHealthy() {
        VllmFixture f = server();
        Assessment a = assess(f, () -> f.finish(100, "stop", 0.01, 0.05, 2.0, 500, 100));
        assertEquals(Verdict.HEALTHY, a.verdict(), all(a.primary()));
        assertTrue(a.primary().summary().startsWith("Healthy"));
    }

    @Test
    void aServerWithNoTrafficIsHealthyButSaysItIsIdle() {
        VllmFixture f = server();
        f.running = 0;
        Assessment a = assess(f, () -> { });
        assertEquals(Verdict.HEALTHY, a.verdict());
        assertTrue(a.primary().summary().startsWith("Idle"), a.primary().summary());
    }

    @Test
    void anEndpointWithoutVllmMetricsSaysSo() {
        MetricsSnapshot other = new MetricsSnapshot(0, new ExpositionParser()
                .parse("# TYPE go_goroutines gauge\ngo_goroutines 187\n", ExpositionFormat.PROMETHEUS_TEXT).families());
        Assessment a = Triage.assess(other, other, 30);
        assertEquals(Verdict.NOT_VLLM, a.verdict());
    }

    @Test
    void everyFindingThatHoldsIsListedWithTheLeadingOneFirst() {
        VllmFixture f = server();
        f.waiting = 1;
        Assessment a = assess(f, () -> {
            f.finish(80, "stop", 4.0, 0.1, 2.0, 500, 100);
            f.finish(20, "abort", 4.0, 0.1, 0.2, 500, 5);
            f.waiting = 30;
        });
        assertEquals(List.of(Verdict.QUEUE_BOUND, Verdict.CLIENTS_TIMING_OUT),
                a.findings().stream().map(Finding::verdict).toList());
    }

    @Test
    void theReportShowsTheVerdictAndJsonCarriesTheNumbers() {
        VllmFixture f = server();
        Assessment a = assess(f, () -> f.finish(100, "stop", 0.05, 2.0, 2.0, 8000, 100));
        String text = TriageReport.text(a, URL.toString());
        assertTrue(text.contains("Verdict: PREFILL-BOUND"), text);
        String json = TriageReport.json(a, URL.toString());
        assertTrue(json.contains("\"verdict\" : \"prefill_bound\""), json);
        assertTrue(json.contains("\"requests\" : 100,"), json); // a count, as a JSON integer
    }
}
