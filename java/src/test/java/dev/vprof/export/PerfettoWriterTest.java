package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.export.PerfettoTraceReader.Slice;
import dev.vprof.export.PerfettoTraceReader.Track;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.Timeline;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PerfettoWriterTest {

    static PerfettoTraceReader roundTrip(ListTimeline t, PerfettoWriter.Options options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoWriter.Stats stats = new PerfettoWriter(options).write(t, out);
        assertEquals(out.size(), stats.bytes(), "stats report the bytes written");
        PerfettoTraceReader r = PerfettoTraceReader.read(out.toByteArray());
        assertEquals(stats.packets(), r.packets);
        return r;
    }

    @Test
    void gpuStreamTracksHangUnderTheirDeviceUnderTheirProcess() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        Track process = r.tracks.values().stream().filter(t -> t.pid() != null && t.tid() == null).findFirst().orElseThrow();
        assertEquals(4242, process.pid());
        assertEquals("vllm-worker", process.processName());
        assertEquals(List.of("python", "-m", "vllm.entrypoints.openai.api_server"), process.cmdline());
        Track gpu = r.trackNamed("GPU 0 (NVIDIA H100 80GB HBM3)");
        assertEquals(process.uuid(), gpu.parent());
        assertEquals(List.of("Stream 7", "Stream 13"), r.children(gpu.uuid()).stream().map(Track::name).toList());
    }

    /** The agent reports every GPU it sees; one this process ran nothing on gets no empty track. */
    @Test
    void aGpuWithoutWorkInAProcessGetsNoTrack() throws IOException {
        ListTimeline t = new ListTimeline();
        var process = t.process(1, "worker", List.of("worker"));
        process.device(0).properties("NVIDIA H100 80GB HBM3", 80L << 30, 9, 0, 132);
        t.kernel(process.device(0).stream(7), t.intern("gemm"), 1_000, 2_000, 1, 1, 1, 1, 1, 1, 1, 0, 0);
        process.device(1).properties("NVIDIA H100 80GB HBM3", 80L << 30, 9, 0, 132);
        PerfettoTraceReader r = roundTrip(t, PerfettoWriter.Options.defaults());
        assertEquals(List.of("GPU 0 (NVIDIA H100 80GB HBM3)"),
                r.tracks.values().stream().map(Track::name).filter(n -> n != null && n.startsWith("GPU ")).toList());
    }

    @Test
    void gpuSlicesRoundTripWithExactNanosecondTimestampsAndNames() throws IOException {
        ListTimeline t = SampleTimelines.everything();
        PerfettoTraceReader r = roundTrip(t, PerfettoWriter.Options.defaults());
        for (GpuStream s : t.processes().getFirst().devices().getFirst().streams()) {
            List<Slice> slices = r.slices(r.trackNamed("Stream " + s.streamId()).uuid());
            List<GpuOp> ops = t.ops(s);
            assertEquals(s.size(), slices.size());
            assertEquals(ops.size(), slices.size());
            for (int i = 0; i < ops.size(); i++) {
                GpuOp op = ops.get(i);
                assertEquals(op.start(), slices.get(i).start(), "start of op " + i + " on stream " + s.streamId());
                assertEquals(op.end(), slices.get(i).end(), "end of op " + i + " on stream " + s.streamId());
                String expected = op.nameId() != 0 ? t.strings().get(op.nameId())
                        : op.kind() == GpuOpKind.MEMCPY ? "Memcpy HtoD (Pinned -> Device)" : "Memset (Device)";
                assertEquals(expected, slices.get(i).name());
            }
        }
        Slice gemm = r.slices(r.trackNamed("Stream 7").uuid()).getFirst();
        assertEquals("sm90_xmma_gemm_bf16 \"quoted\"\\path", gemm.name());
    }

    @Test
    void gpuSlicesCarryGridBlockBytesAndCorrelation() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        Slice gemm = r.slices(r.trackNamed("Stream 7").uuid()).getFirst();
        assertEquals("(132, 1, 1)", gemm.args().get("grid"));
        assertEquals("(256, 1, 1)", gemm.args().get("block"));
        assertEquals(101L, gemm.args().get("correlation"));
        Slice copy = r.slices(r.trackNamed("Stream 13").uuid()).getFirst();
        assertEquals((long) (1 << 20), copy.args().get("bytes"));
        assertEquals("HtoD", copy.args().get("kind"));
    }

    @Test
    void leanOptionKeepsNamesAndTimesButDropsArguments() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.lean());
        Slice gemm = r.slices(r.trackNamed("Stream 7").uuid()).getFirst();
        assertTrue(gemm.args().isEmpty(), "no args in lean mode: " + gemm.args());
        assertEquals(SampleTimelines.T0 + 1_000, gemm.start());
    }

    @Test
    void flowsLinkEachLaunchCallToTheGpuOpItLaunched() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        List<Slice> api = r.slices(r.trackNamed("CUDA API (4242)").uuid());
        List<Slice> stream7 = r.slices(r.trackNamed("Stream 7").uuid());
        List<Slice> stream13 = r.slices(r.trackNamed("Stream 13").uuid());
        assertEquals(1, api.get(0).flows().size());
        assertEquals(api.get(0).flows(), stream7.get(0).flows(), "cudaLaunchKernel 101 -> gemm");
        assertEquals(api.get(1).flows(), stream7.get(1).flows(), "cudaLaunchKernel 102 -> attention");
        assertEquals(api.get(2).flows(), stream13.get(0).flows(), "cuMemcpyHtoDAsync 103 -> copy");
        assertTrue(api.get(4).flows().isEmpty(), "cudaStreamSynchronize launched nothing: no dangling flow");
        assertTrue(stream13.get(2).flows().isEmpty(), "a kernel without correlation id has no flow");
        Set<Long> ids = new HashSet<>();
        api.forEach(s -> ids.addAll(s.flows()));
        assertEquals(4, ids.size(), "flow ids are distinct per launch");
    }

    @Test
    void noFlowsAreWrittenWhenNoApiCallsWereCaptured() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.kernels(1000, 4), PerfettoWriter.Options.lean());
        assertTrue(r.events.stream().allMatch(e -> e.flows().isEmpty()));
    }

    @Test
    void threadTrackHoldsNestedNvtxRangesAndApiCallsSitOnAChildTrack() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        Track thread = r.tracks.values().stream().filter(t -> t.tid() != null).findFirst().orElseThrow();
        assertEquals(4242L, thread.tid());
        assertEquals("MainThread", thread.processName());
        List<Slice> ranges = r.slices(thread.uuid());
        assertEquals(List.of("forward", "attention"), ranges.stream().map(Slice::name).toList());
        assertEquals(1, ranges.get(1).depth(), "attention nests inside forward");
        assertEquals("vllm", ranges.get(1).args().get("domain"));
        Track api = r.trackNamed("CUDA API (4242)");
        assertEquals(thread.uuid(), api.parent());
        assertEquals(5, r.slices(api.uuid()).size());
    }

    @Test
    void overlappingRequestsGoOnSeparateLanesWithTheirPhasesAsChildren() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        Track group = r.trackNamed("Requests");
        List<Track> lanes = r.children(group.uuid());
        assertEquals(2, lanes.size(), "a and b overlap; c reuses a's lane");
        List<Slice> lane1 = r.slices(lanes.get(0).uuid());
        List<String> names = lane1.stream().map(s -> s.depth() + ":" + s.name()).toList();
        assertEquals(List.of("0:llm_request", "1:queue", "1:prefill", "1:decode",
                "0:llm_request", "1:queue", "1:prefill", "1:decode"), names);
        assertEquals("trace-a", lane1.get(0).args().get("trace_id"));
        assertEquals("req-a", lane1.get(0).args().get("gen_ai.request.id"));
        assertEquals("trace-c", lane1.get(4).args().get("trace_id"));
        assertEquals("trace-b", r.slices(lanes.get(1).uuid()).get(0).args().get("trace_id"));
    }

    @Test
    void spansThatOverlapWithoutNestingGetAnotherLane() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        List<Track> lanes = r.children(r.trackNamed("Spans: router").uuid());
        assertEquals(2, lanes.size());
        List<Slice> first = r.slices(lanes.get(0).uuid());
        assertEquals(List.of("0:route", "1:pick_backend"), first.stream().map(s -> s.depth() + ":" + s.name()).toList());
        assertEquals("s1", first.get(1).args().get("parent_span_id"));
        assertEquals("t2", r.slices(lanes.get(1).uuid()).get(0).args().get("trace_id"));
    }

    @Test
    void countersBecomeCounterTracksUnderMetricsWithFiniteValuesOnly() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        Track metrics = r.trackNamed("Metrics");
        List<Track> counters = r.children(metrics.uuid());
        assertEquals(3, counters.size());
        assertTrue(counters.stream().allMatch(Track::counter));
        Track p99 = r.trackNamed("vllm:time_to_first_token_seconds p99 (s)");
        var values = r.events.stream().filter(e -> e.track() == p99.uuid()).toList();
        assertEquals(1, values.size(), "the NaN sample is skipped");
        assertEquals(0.25, values.getFirst().counterValue());
        assertEquals(SampleTimelines.T0 + 5_000, values.getFirst().ts());
        Track running = r.trackNamed("vllm:num_requests_running (requests)");
        assertEquals(List.of(1.0, 2.0), r.events.stream().filter(e -> e.track() == running.uuid()).map(e -> e.counterValue()).toList());
    }

    @Test
    void eachCaptureRangeIsASliceOnTheProcessCaptureTrack() throws IOException {
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        Track ranges = r.trackNamed("Capture ranges");
        Track process = r.tracks.get(ranges.parent());
        assertNotNull(process.pid());
        List<Slice> slices = r.slices(ranges.uuid());
        assertEquals(1, slices.size());
        assertEquals("capture 1 (cudaProfilerApi)", slices.getFirst().name());
        assertEquals(SampleTimelines.T0 + 10_000, slices.getFirst().end());
    }

    /** Two kernels "k" on stream 1 of device 0 of process 1, from {@code start1} to {@code end1}, then the other. */
    private static ListTimeline twoKernels(long start1, long end1, long start2, long end2) {
        ListTimeline t = new ListTimeline();
        GpuStream s = t.process(1).device(0).stream(1);
        int k = t.intern("k");
        t.kernel(s, k, start1, end1, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        t.kernel(s, k, start2, end2, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        return t;
    }

    @Test
    void aSlicePartlyOverlappingItsPredecessorOnOneStreamIsClampedSoSlicesStillNest() throws IOException {
        ListTimeline t = twoKernels(100, 200, 150, 260);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoWriter.Stats stats = new PerfettoWriter().write(t, out);
        assertEquals(1, stats.clampedSlices());
        PerfettoTraceReader r = PerfettoTraceReader.read(out.toByteArray());
        List<Slice> slices = r.slices(r.trackNamed("Stream 1").uuid());
        assertEquals(200, slices.get(1).end());
    }

    @Test
    void unsortedStreamsAreWrittenInTimeOrder() throws IOException {
        ListTimeline t = twoKernels(500, 600, 100, 200);
        PerfettoTraceReader r = roundTrip(t, PerfettoWriter.Options.lean());
        assertEquals(List.of(100L, 500L), r.slices(r.trackNamed("Stream 1").uuid()).stream().map(Slice::start).toList());
    }

    @Test
    void everyEventSequenceClearsIncrementalStateInItsFirstPacket() throws IOException {
        // The reader rejects a packet that needs incremental state on a sequence not yet cleared.
        PerfettoTraceReader r = roundTrip(SampleTimelines.everything(), PerfettoWriter.Options.defaults());
        assertFalse(r.events.isEmpty());
        assertTrue(r.events.stream().allMatch(e -> e.sequence() > 1), "events never share the descriptor sequence");
    }

    @Test
    void aLeanUncompressedKernelSliceCostsUnderThirtyBytesThatIsUnderFifteenPerTrackEvent() throws IOException {
        // The encoding is deterministic, so this guards the size against regressions exactly.
        ListTimeline t = SampleTimelines.kernels(100_000, 4);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoWriter.Stats stats = new PerfettoWriter(PerfettoWriter.Options.lean().uncompressed()).write(t, out);
        double perSlice = (double) stats.bytes() / stats.gpuSlices();
        assertTrue(perSlice < 30.0, "bytes per kernel slice (begin + end packets): " + perSlice);
        assertTrue(perSlice / 2 < 15.0, "bytes per track event: " + perSlice / 2);
    }

    @Test
    void compressedOutputIsAtMostSixteenBytesPerKernelAndDecodesToTheSameEvents() throws IOException {
        ListTimeline t = SampleTimelines.kernels(100_000, 4);
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        PerfettoWriter.Stats stats = new PerfettoWriter(PerfettoWriter.Options.defaults()).write(t, zipped);
        double perKernel = (double) stats.bytes() / stats.gpuSlices();
        assertTrue(perKernel <= 16.0, "bytes per kernel slice, compressed, with grid/block args: " + perKernel);
        assertEquals(zipped.size(), stats.bytes());
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        new PerfettoWriter(PerfettoWriter.Options.defaults().uncompressed()).write(t, plain);
        PerfettoTraceReader a = PerfettoTraceReader.read(zipped.toByteArray());
        PerfettoTraceReader b = PerfettoTraceReader.read(plain.toByteArray());
        assertTrue(a.compressedPackets > 0, "the output used compressed_packets");
        assertEquals(0, b.compressedPackets);
        assertEquals(b.packets, a.packets);
        assertEquals(b.events, a.events);
    }

    @Test
    void anEmptyTimelineIsStillAValidTrace() throws IOException {
        PerfettoTraceReader r = roundTrip(new ListTimeline(), PerfettoWriter.Options.defaults());
        assertEquals(1, r.packets);
        assertTrue(r.tracks.isEmpty());
    }
}
