package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfilerStepsTest {
    private static final ProfilerSteps.Spec STEP = ProfilerSteps.Spec.parse("nvtx:step");

    @Test
    void stepsAreTheNamedRangesNumberedFromZeroInOrderOfStart() {
        Timeline t = new Timeline();
        TimelineProcess p = t.process(1);
        CpuThread main = p.thread(1);
        main.addRange(t.intern("step"), 300, 400, 0);
        main.addRange(t.intern("step"), 100, 200, 0);
        main.addRange(t.intern("forward"), 110, 190, 0);
        assertEquals(List.of(new ProfilerSteps.Step(0, 1, 100, 200), new ProfilerSteps.Step(1, 1, 300, 400)),
                ProfilerSteps.of(t, p, STEP));
        assertEquals("ProfilerStep#1", ProfilerSteps.of(t, p, STEP).get(1).name());
    }

    @Test
    void onlyStepsWhollyInsideACaptureRangeCount() {
        Timeline t = new Timeline();
        TimelineProcess p = t.process(1);
        CpuThread main = p.thread(1);
        for (int i = 0; i < 10; i++) {
            main.addRange(t.intern("step"), i * 100L, i * 100L + 50, 0);
        }
        p.addCaptureRange(new CaptureRange(1, 90, 620, "cudaProfilerApi")); // steps 1..5; step 6 (600..650) is cut
        List<ProfilerSteps.Step> steps = ProfilerSteps.of(t, p, STEP);
        assertEquals(5, steps.size());
        assertEquals(100, steps.getFirst().startNs());
        assertEquals(0, steps.getFirst().number());
        assertEquals(500, steps.getLast().startNs());
    }

    @Test
    void nestedOrOtherThreadsRangesAndInstantMarksAreNotNewSteps() {
        Timeline t = new Timeline();
        TimelineProcess p = t.process(1);
        p.thread(1).addRange(t.intern("step"), 100, 200, 0);
        p.thread(1).addRange(t.intern("step"), 120, 150, 0); // nested
        p.thread(2).addRange(t.intern("step"), 180, 260, 0); // another thread, overlapping
        p.thread(2).addRange(t.intern("step"), 300, 300, 0); // an instant mark
        p.thread(2).addRange(t.intern("step"), 400, 500, 0);
        List<ProfilerSteps.Step> steps = ProfilerSteps.of(t, p, STEP);
        assertEquals(List.of(new ProfilerSteps.Step(0, 1, 100, 200), new ProfilerSteps.Step(1, 2, 400, 500)), steps);
    }

    @Test
    void aProcessWithoutTheRangeHasNoSteps() {
        Timeline t = new Timeline();
        TimelineProcess p = t.process(1);
        p.thread(1).addRange(t.intern("decode"), 1, 2, 0);
        assertTrue(ProfilerSteps.of(t, p, STEP).isEmpty());
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
