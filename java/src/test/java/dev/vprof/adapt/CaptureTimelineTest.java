package dev.vprof.adapt;

import static dev.vprof.adapt.SyntheticCapture.MS;
import static dev.vprof.adapt.SyntheticCapture.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CounterKind;
import dev.vprof.timeline.CounterTrack;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Recorded;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureTimelineTest {
    @TempDir
    Path dir;

    /** What one walk over the last capture read handed out. */
    private Recorded events;

    private CaptureTimeline.Result read(boolean withMetricsAndSpans) throws IOException {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), withMetricsAndSpans);
        try (CaptureReader reader = CaptureReader.open(file)) {
            CaptureTimeline.Result r = CaptureTimeline.stream(reader, KernelNames.demangled(), null);
            events = Recorded.walk(r.source());
            return r;
        }
    }

    private static Request request(Timeline t, String id) {
        return t.requests().stream().filter(r -> id.equals(r.attributes().get("request_id"))).findFirst().orElseThrow();
    }

    private static Phase phase(Request r, String name) {
        return r.phases().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void kernelsOnASkewedGpuClockLineUpWithTheSpansTheyServe() throws IOException {
        Timeline t = read(true).timeline();
        List<GpuOp> s7 = events.ops(t.processes().getFirst().device(0).stream(7));
        // The prefill gemm (correlation 5) ran at 1.6 .. 1.8 s realtime; CUPTI said 3.7 s later.
        GpuOp k = s7.stream().filter(op -> op.correlationId() == 5).findFirst().orElseThrow();
        assertTrue(Math.abs(k.start() - at(1600)) < MS, "kernel start off by " + (k.start() - at(1600)) + " ns");
        assertTrue(Math.abs(k.end() - at(1800)) < MS, "kernel end off by " + (k.end() - at(1800)) + " ns");
        Phase prefill = phase(request(t, "req-A"), "prefill");
        assertTrue(prefill.startNs() <= k.start() && k.end() <= prefill.endNs(),
                "the prefill kernel lies inside request A's prefill phase");
        // The last kernel, 7.5 s after the first pair, where the 20 ppm drift has added 150 us.
        GpuOp last = s7.getLast();
        assertTrue(Math.abs(last.end() - at(7500)) < MS);
        assertTrue(phase(request(t, "req-B"), "decode").endNs() >= last.end());
    }

    @Test
    void streamsMarkersApiCallsAndRangesLandOnTheirTracks() throws IOException {
        CaptureTimeline.Result r = read(true);
        Timeline t = r.timeline();
        TimelineProcess p = t.processes().getFirst();
        assertEquals(100, p.pid());
        assertEquals("python3", p.name());
        assertEquals(List.of(0, 1), p.devices().stream().map(d -> d.deviceId()).toList());
        assertEquals(4, p.device(0).stream(7).size());
        assertEquals(2, p.device(1).stream(13).size());
        assertEquals(6, r.gpuOps());
        assertEquals("gemm", t.strings().get(events.ops(p.device(0).stream(7)).getFirst().nameId()));

        CpuThread thread = p.thread(100);
        List<Recorded.Range> ranges = events.ranges(thread);
        assertEquals(2, thread.ranges().size()); // "step" and the instant "mark"
        assertEquals(2, ranges.size());
        assertEquals("step", t.strings().get(ranges.get(0).nameId()));
        assertEquals("vllm", t.strings().get(ranges.get(0).domainId()));
        assertTrue(Math.abs(ranges.get(0).start() - at(1550)) < MS);
        assertTrue(Math.abs(ranges.get(0).end() - at(1950)) < MS);
        assertEquals(ranges.get(1).start(), ranges.get(1).end(), "an instant mark has no length");
        assertEquals(1, thread.apiCalls().size());
        assertEquals(1, events.apiCalls(thread).size());
        assertEquals("cudaLaunchKernel", t.strings().get(events.apiCalls(thread).getFirst().nameId()));
        assertEquals(5, events.apiCalls(thread).getFirst().correlationId());

        List<CaptureRange> captureRanges = p.captureRanges();
        assertEquals(1, captureRanges.size());
        assertEquals("profiler", captureRanges.getFirst().source());
        assertTrue(Math.abs(captureRanges.getFirst().startNs() - at(500)) < MS);
        assertTrue(Math.abs(captureRanges.getFirst().endNs() - at(9500)) < MS);
        assertEquals("ranges", r.window().source());
    }

    @Test
    void requestsGetQueuePrefillAndDecodeAndOtherSpansKeepTheirNames() throws IOException {
        CaptureTimeline.Result r = read(true);
        Timeline t = r.timeline();
        assertEquals(2, r.requests(), "A and B; C lies after the window");
        Request a = request(t, "req-A");
        assertEquals(at(1000), phase(a, "queue").startNs());
        assertEquals(at(1500), phase(a, "prefill").startNs());
        assertEquals(at(2000), phase(a, "decode").startNs());
        assertEquals(at(3000), phase(a, "decode").endNs());
        assertEquals(SyntheticCapture.traceHex(1), a.traceId());
        List<String> others = t.spans().stream().filter(s -> s.service().equals("api-server")).map(s -> s.name()).toList();
        assertEquals(List.of("POST /v1/completions"), others);
        assertEquals(2, r.spans().outside().size(), "request C and span 'late' are reported, not drawn");
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("2 span(s) outside the capture window")), r.notes().toString());
    }

    @Test
    void metricsBecomeGaugeRateAndQuantileTracksAndTheGapIsDrawn() throws IOException {
        CaptureTimeline.Result r = read(true);
        Timeline t = r.timeline();
        CounterTrack waiting = counter(t, "vllm:num_requests_waiting");
        assertEquals(CounterKind.GAUGE, waiting.kind());
        assertEquals(6, waiting.size());
        assertEquals(at(4000), waiting.time(2));
        assertEquals(3.0, waiting.value(2));
        CounterTrack rate = counter(t, "vllm:generation_tokens rate");
        assertEquals(CounterKind.RATE, rate.kind());
        assertEquals(5, rate.size(), "one rate per interval");
        assertEquals(25.0, rate.value(0), 1e-9); // 50 tokens in 2 s
        assertEquals(50.0, rate.value(2), 1e-9); // 150 -> 250 across the gap at 5 s, over 2 s
        CounterTrack p99 = counter(t, "vllm:time_to_first_token_seconds p99 <=");
        assertEquals(CounterKind.QUANTILE, p99.kind());
        assertEquals("s", p99.unit());
        // 2 -> 4 s: one observation in le=0.1: the bucket's upper bound, not a point inside it.
        assertEquals(at(4000), p99.time(1));
        assertEquals(0.1, p99.value(1), 1e-12);
        assertTrue(Double.isNaN(p99.value(0)), "no observation 0 -> 2 s: NaN, which the writers skip");
        assertEquals(1, r.metricGaps());
        var gap = t.spans().stream().filter(s -> s.service().equals("vprof metrics")).findFirst().orElseThrow();
        assertEquals(at(5000), gap.startNs());
        assertEquals(at(6000), gap.endNs());
        assertEquals("connection refused", gap.attributes().get("error"));
    }

    @Test
    void aCaptureWithoutMetricsOrSpansGivesOnlyTheGpuSide() throws IOException {
        CaptureTimeline.Result r = read(false);
        assertEquals(0, r.timeline().requests().size());
        assertEquals(0, r.timeline().counters().size());
        assertEquals(6, r.gpuOps());
    }

    private static CounterTrack counter(Timeline t, String name) {
        return t.counters().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no counter " + name + " in "
                        + t.counters().stream().map(CounterTrack::name).toList()));
    }
}
