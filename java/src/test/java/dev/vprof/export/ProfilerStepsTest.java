package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineVisitor;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfilerStepsTest {
    private static final ProfilerSteps.Spec STEP = ProfilerSteps.Spec.parse("nvtx:step");

    /** The steps of {@code p} as an export finds them: the ranges a walk hands out, into a collector. */
    private static List<ProfilerSteps.Step> steps(ListTimeline t, TimelineProcess p) throws IOException {
        ProfilerSteps.Collector steps = new ProfilerSteps.Collector(t.layout(), STEP);
        t.walk(new TimelineVisitor() {
            @Override
            public void gpuOp(GpuStream stream, GpuOp op) {}

            @Override
            public void apiCall(CpuThread thread, ApiCall call) {}

            @Override
            public void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) {
                steps.range(thread, nameId, startNs, endNs, domainId);
            }
        });
        return steps.of(p);
    }

    @Test
    void stepsAreTheNamedRangesNumberedFromZeroInOrderOfStart() throws IOException {
        ListTimeline t = new ListTimeline();
        TimelineProcess p = t.process(1);
        CpuThread main = p.thread(1);
        t.range(main, t.intern("step"), 300, 400, 0);
        t.range(main, t.intern("step"), 100, 200, 0);
        t.range(main, t.intern("forward"), 110, 190, 0);
        assertEquals(List.of(new ProfilerSteps.Step(0, 1, 100, 200), new ProfilerSteps.Step(1, 1, 300, 400)),
                steps(t, p));
        assertEquals("ProfilerStep#1", steps(t, p).get(1).name());
    }

    @Test
    void onlyStepsWhollyInsideACaptureRangeCount() throws IOException {
        ListTimeline t = new ListTimeline();
        TimelineProcess p = t.process(1);
        CpuThread main = p.thread(1);
        for (int i = 0; i < 10; i++) {
            t.range(main, t.intern("step"), i * 100L, i * 100L + 50, 0);
        }
        p.addCaptureRange(new CaptureRange(1, 90, 620, "cudaProfilerApi")); // steps 1..5; step 6 (600..650) is cut
        List<ProfilerSteps.Step> steps = steps(t, p);
        assertEquals(5, steps.size());
        assertEquals(100, steps.getFirst().startNs());
        assertEquals(0, steps.getFirst().number());
        assertEquals(500, steps.getLast().startNs());
    }

    @Test
    void nestedOrOtherThreadsRangesAndInstantMarksAreNotNewSteps() throws IOException {
        ListTimeline t = new ListTimeline();
        TimelineProcess p = t.process(1);
        t.range(p.thread(1), t.intern("step"), 100, 200, 0);
        t.range(p.thread(1), t.intern("step"), 120, 150, 0); // nested
        t.range(p.thread(2), t.intern("step"), 180, 260, 0); // another thread, overlapping
        t.range(p.thread(2), t.intern("step"), 300, 300, 0); // an instant mark
        t.range(p.thread(2), t.intern("step"), 400, 500, 0);
        List<ProfilerSteps.Step> steps = steps(t, p);
        assertEquals(List.of(new ProfilerSteps.Step(0, 1, 100, 200), new ProfilerSteps.Step(1, 2, 400, 500)), steps);
    }

    @Test
    void aProcessWithoutTheRangeHasNoSteps() throws IOException {
        ListTimeline t = new ListTimeline();
        TimelineProcess p = t.process(1);
        t.range(p.thread(1), t.intern("decode"), 1, 2, 0);
        assertTrue(steps(t, p).isEmpty());
    }

    @Test
    void theSpecIsNvtxColonNameAndAnythingElseSaysWhatToWrite() {
        assertEquals("decode step", ProfilerSteps.Spec.parse(" nvtx:decode step ").rangeName());
        for (String bad : List.of("step", "nvtx:", "cuda:step", "")) {
            var e = assertThrows(IllegalArgumentException.class, () -> ProfilerSteps.Spec.parse(bad));
            assertTrue(e.getMessage().contains("--steps nvtx:step"), e.getMessage());
        }
    }
}
