package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A capture file, through the adapter and the Perfetto writer, read back with protobuf's own decoder. */
class CaptureExportTest {
    @TempDir
    Path dir;

    private PerfettoTraceReader trace() throws IOException {
        Path file = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CaptureReader reader = CaptureReader.open(file)) {
            new PerfettoWriter().write(CaptureTimeline.stream(reader, KernelNames.demangled(), null).source(), out);
        }
        return PerfettoTraceReader.read(out.toByteArray());
    }

    @Test
    void gpuStreamsSitUnderTheirDeviceUnderTheirProcess() throws IOException {
        PerfettoTraceReader r = trace();
        PerfettoTraceReader.Track process = r.tracks.values().stream()
                .filter(t -> t.pid() != null && t.pid() == 100 && t.tid() == null).findFirst().orElseThrow();
        assertEquals("python3", process.processName());
        PerfettoTraceReader.Track gpu0 = r.trackNamed("GPU 0");
        PerfettoTraceReader.Track gpu1 = r.trackNamed("GPU 1");
        assertEquals(process.uuid(), gpu0.parent());
        assertEquals(process.uuid(), gpu1.parent());
        PerfettoTraceReader.Track s7 = r.trackNamed("Stream 7");
        assertEquals(gpu0.uuid(), s7.parent());
        assertEquals(gpu1.uuid(), r.trackNamed("Stream 13").parent());
        List<PerfettoTraceReader.Slice> kernels = r.slices(s7.uuid());
        assertEquals(4, kernels.size());
        assertEquals("gemm", kernels.get(1).name());
        assertTrue(Math.abs(kernels.get(1).start() - SyntheticCapture.at(1600)) < SyntheticCapture.MS,
                "epoch time in the trace, skew removed");
        // The launch and its kernel are joined by a flow.
        assertEquals(1, kernels.get(1).flows().size());
        assertEquals(process.uuid(), r.trackNamed("Capture ranges").parent());
        assertEquals(1, r.slices(r.trackNamed("Capture ranges").uuid()).size());
    }

    @Test
    void requestsHaveTheirPhasesAsChildrenOnLanes() throws IOException {
        PerfettoTraceReader r = trace();
        PerfettoTraceReader.Track group = r.trackNamed("Requests");
        List<PerfettoTraceReader.Track> lanes = r.children(group.uuid());
        assertEquals(1, lanes.size(), "A and B do not overlap: one lane");
        List<PerfettoTraceReader.Slice> slices = r.slices(lanes.getFirst().uuid());
        assertEquals(List.of("llm_request", "queue", "prefill", "decode", "llm_request", "queue", "prefill", "decode"),
                slices.stream().map(PerfettoTraceReader.Slice::name).toList());
        assertEquals(List.of(0, 1, 1, 1, 0, 1, 1, 1), slices.stream().map(PerfettoTraceReader.Slice::depth).toList());
    }

    @Test
    void gaugeRateAndP99AreCounterTracksUnderMetrics() throws IOException {
        PerfettoTraceReader r = trace();
        PerfettoTraceReader.Track metrics = r.trackNamed("Metrics");
        for (String name : List.of("vllm:num_requests_waiting", "vllm:generation_tokens rate (1/s)",
                "vllm:time_to_first_token_seconds p99 <= (s)")) {
            PerfettoTraceReader.Track t = r.trackNamed(name);
            assertEquals(metrics.uuid(), t.parent(), name);
            assertTrue(t.counter(), name + " is a counter track");
        }
        long p99 = r.trackNamed("vllm:time_to_first_token_seconds p99 <= (s)").uuid();
        List<Double> values = r.events.stream().filter(e -> e.track() == p99).map(e -> e.counterValue()).toList();
        assertEquals(0.1, values.getFirst(), 1e-12); // the bucket le=0.1 holds the only observation
    }
}
