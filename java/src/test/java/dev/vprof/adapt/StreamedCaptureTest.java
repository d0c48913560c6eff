package dev.vprof.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineVisitor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamedCaptureTest {
    @TempDir
    Path dir;

    /** Walks a streamed capture, checking each track's order; returns the most events held at once. */
    private long walk(Path capture) throws IOException {
        try (CaptureReader reader = CaptureReader.open(capture)) {
            CaptureTimeline.Result r = CaptureTimeline.stream(reader, KernelNames.demangled(), null);
            StreamedCapture source = (StreamedCapture) r.source();
            Map<Object, Long> last = new HashMap<>();
            long[] ops = {0};
            source.walk(new TimelineVisitor() {
                @Override
                public void gpuOp(GpuStream stream, GpuOp op) {
                    long prev = last.getOrDefault(stream, Long.MIN_VALUE);
                    assertTrue(op.start() >= prev, "stream " + stream.streamId() + " in time order");
                    last.put(stream, op.start());
                    ops[0]++;
                }

                @Override
                public void apiCall(CpuThread thread, ApiCall call) {
                    long prev = last.getOrDefault(thread, Long.MIN_VALUE);
                    assertTrue(call.start() >= prev, "API calls of thread " + thread.tid() + " in time order");
                    last.put(thread, call.start());
                }
            });
            assertEquals(r.gpuOps(), ops[0], "every GPU op handed out once");
            return source.heldPeak();
        }
    }

    @Test
    void eventsHeldStayBoundedByTheFilesDisorderNotByTheCapturesLength() throws IOException {
        long small = walk(DisorderlyCapture.write(dir.resolve("small.vprof"), 1, 200, 40));
        long large = walk(DisorderlyCapture.write(dir.resolve("large.vprof"), 1, 2000, 40));
        // 2000 steps are about 44,000 events; stream 13 lags 7 steps (about 100 events), chunks are
        // up to 80 records: what is held depends on those, not on the length.
        assertTrue(large < 2_000, "held at most " + large + " events of a 2000-step capture");
        assertTrue(large <= small * 3 / 2 + 50, "10x the capture, held " + small + " -> " + large);
    }

    @Test
    void theLayoutOfAStreamedCaptureCountsWhatTheWholeTimelineHolds() throws IOException {
        Path capture = DisorderlyCapture.write(dir.resolve("c.vprof"), 2, 60, 30);
        Timeline whole;
        Timeline layout;
        try (CaptureReader reader = CaptureReader.open(capture)) {
            whole = CaptureTimeline.read(reader, KernelNames.demangled(), null).timeline();
        }
        try (CaptureReader reader = CaptureReader.open(capture)) {
            layout = CaptureTimeline.stream(reader, KernelNames.demangled(), null).timeline();
        }
        assertEquals(whole.earliestNs(), layout.earliestNs());
        assertEquals(whole.processes().size(), layout.processes().size());
        for (int p = 0; p < whole.processes().size(); p++) {
            var a = whole.processes().get(p);
            var b = layout.processes().get(p);
            assertEquals(a.pid(), b.pid());
            assertEquals(a.gpuOps(), b.gpuOps());
            assertEquals(a.captureRanges(), b.captureRanges());
            assertEquals(a.threads().stream().map(t -> t.tid() + ":" + t.ranges().size() + ":" + t.apiCalls().size()).toList(),
                    b.threads().stream().map(t -> t.tid() + ":" + t.ranges().size() + ":" + t.apiCalls().size()).toList());
        }
    }
}
