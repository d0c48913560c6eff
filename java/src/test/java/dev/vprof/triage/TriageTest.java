package dev.vprof.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.metrics.ExpositionFormat;
import dev.vprof.metrics.ExpositionParser;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.VllmFixture;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /** {@link #server()} with {@code waiting} requests in its queue. */
    private static VllmFixture server(int waiting) {
        VllmFixture f = server();
        f.waiting = waiting;
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

    /** The queue-bound window of the test below, assessed as a capture holding spans and kernels would be. */
    private static Assessment queueBoundHolding(Triage.Held held) {
        VllmFixture f = server(2);
        MetricsSnapshot first = f.snapshot(1_736_322_000);
        f.finish(100, "stop", 3.0, 0.1, 2.0, 500, 100);
        f.waiting = 40;
        MetricsSnapshot second = f.snapshot(1_736_322_030);
        return Triage.assess(dev.vprof.metrics.WindowStats.compute(List.of(first, second), 30, l -> true), true,
                Triage.Thresholds.DEFAULT, URL, held);
    }

    @Test
    void aQueueWhileTheGpuIsMostlyIdlePointsAtTheSchedulersLimitsWithTheSpansRunningMax() {
        Assessment a = queueBoundHolding(new Triage.Held(true, true, true, 1.0,
                new Triage.Queue(12.0, 0.08, 54, 16)));
        assertEquals(Verdict.QUEUE_BOUND, a.verdict());
        String text = all(a.primary());
        assertTrue(a.primary().summary().contains("GPU is mostly idle (busy 8%"), text);
        assertTrue(text.contains("--max-num-seqs; at most 16 requests were in prefill or decode at once in the spans"),
                text);
        assertTrue(text.contains("--max-num-batched-tokens"), text);
        assertFalse(text.contains("a profile will not fix a queue"), text);
        assertTrue(text.contains("GPU busy while requests queued = 8% of 12 s"), text);
        // The gauge is sampled; the spans' count is exact and shown beside it.
        assertTrue(text.contains("max 40, sampled every 1 s from /metrics); 54 waiting at once in the spans"), text);
    }

    @Test
    void aQueueWithTheGpuBusyStillSaysAProfileWillNotFixIt() {
        String text = all(queueBoundHolding(new Triage.Held(true, true, true, 1.0,
                new Triage.Queue(12.0, 0.9, 54, 16))).primary());
        assertTrue(text.contains("a profile will not fix a queue"), text);
        assertFalse(text.contains("--max-num-seqs"), text);
    }

    @Test
    void nextStepsNeverAskForSpansTheDataHoldsNorNameAUrlThatIsGone() {
        Assessment held = queueBoundHolding(new Triage.Held(true, true, false, 1.0, new Triage.Queue(12.0, 0.9, 5, 4)));
        for (Finding f : held.findings()) {
            for (String n : f.nextSteps()) {
                assertFalse(n.contains("record their spans") || n.contains("--otlp"), "asks for spans it holds: " + n);
                assertFalse(n.contains(URL.getHost()), "names a URL that is gone: " + n);
            }
        }
        // Without spans it asks for them, and with the server gone the command names a placeholder.
        Assessment noSpans = queueBoundHolding(new Triage.Held(false, false, false, Double.NaN, null));
        String text = all(noSpans.primary());
        assertTrue(text.contains("record their spans") && text.contains("--metrics http://VLLM_HOST:8000/metrics"), text);
        assertFalse(text.contains(URL.getHost()), text);
        assertTrue(text.contains("sampled from /metrics"), text);
    }

    @Test
    void aGrowingQueueThatDominatesTtftIsQueueBound() {
        VllmFixture f = server(2);
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
        VllmFixture f = server(1);
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

    @ParameterizedTest
    @ValueSource(strings = {"prefill", "decode"})
    void aSlowPhasesKernelsAreShownFromTheCaptureOrByTheProfileCommand(String phase) {
        Triage.Commands cmd = new Triage.Commands(URL);
        assertEquals("the " + phase + " kernels are in this capture: the top kernels in the slowest requests' " + phase
                        + " below (vprof report --json: .slow_phase_kernels." + phase + ")",
                Triage.phaseKernels(phase, new Triage.Held(true, true, false, 1.0, null), cmd));
        String live = Triage.phaseKernels(phase, Triage.Held.LIVE, cmd);
        assertEquals("to see the " + phase + " kernels, profile a few seconds (vLLM started with --profiler-config "
                + "'{\"profiler\":\"cuda\"}'): vprof attach --pid <vllm-pid> --capture-range=cudaProfilerApi "
                + "--trigger http://10.0.0.7:8000 --metrics " + URL + " --otlp --duration 10s", live);
    }
}
