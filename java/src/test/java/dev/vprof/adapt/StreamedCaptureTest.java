package dev.vprof.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.Recorded;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
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
    void theLayoutOfAStreamedCaptureCountsWhatAWalkHandsOut() throws IOException {
        Path capture = DisorderlyCapture.write(dir.resolve("c.vprof"), 2, 60, 30);
        try (CaptureReader reader = CaptureReader.open(capture)) {
            CaptureTimeline.Result streamed = CaptureTimeline.stream(reader, KernelNames.demangled(), null);
            Timeline layout = streamed.timeline();
            Recorded walked = Recorded.walk(streamed.source());
            long earliest = Long.MAX_VALUE;
            assertEquals(2, layout.processes().size());
            for (TimelineProcess p : layout.processes()) {
                long ops = 0;
                for (GpuDevice d : p.devices()) {
                    for (GpuStream s : d.streams()) {
                        assertEquals(s.size(), walked.ops(s).size(), "ops of stream " + s.streamId());
                        ops += s.size();
                        for (GpuOp op : walked.ops(s)) {
                            earliest = Math.min(earliest, op.start());
                        }
                    }
                }
                assertEquals(p.gpuOps(), ops);
                assertTrue(ops > 0);
                for (CpuThread t : p.threads()) {
                    assertEquals(t.ranges().size(), walked.ranges(t).size(), "ranges of thread " + t.tid());
                    assertEquals(t.apiCalls().size(), walked.apiCalls(t).size(), "API calls of thread " + t.tid());
                    for (Recorded.Range r : walked.ranges(t)) {
                        earliest = Math.min(earliest, r.start());
                    }
                    for (ApiCall c : walked.apiCalls(t)) {
                        earliest = Math.min(earliest, c.start());
                    }
                }
                for (var r : p.captureRanges()) {
                    earliest = Math.min(earliest, r.startNs());
                }
            }
            assertEquals(earliest, layout.earliestNs());
        }
    }
}
