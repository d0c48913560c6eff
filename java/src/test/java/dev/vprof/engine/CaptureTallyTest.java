package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.region.ArmSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The closing stage's rules on their own: the no-range hint and why a capture ended. */
class CaptureTallyTest {
    private static ArmSpec spec(long rangeMode, String name, String domain) {
        return new ArmSpec((int) rangeMode, 1, VprofRing.KINDS_DEFAULT, 0, 5, name, domain);
    }

    @Test
    void noHintWhenARangeOpenedOrNothingWasAttachedOrNoRangeWasAskedFor() {
        ArmSpec profiler = spec(VprofRing.RANGE_PROFILER, "", "");
        assertEquals(List.of(), CaptureTally.rangeHints(1, 2, profiler, false));
        assertEquals(List.of(), CaptureTally.rangeHints(0, 0, profiler, false));
        assertEquals(List.of(), CaptureTally.rangeHints(0, 2, spec(VprofRing.RANGE_NONE, "", ""), false));
    }

    @Test
    void theProfilerHintAsksForTheTriggerOrForVllmsProfilerConfig() {
        ArmSpec profiler = spec(VprofRing.RANGE_PROFILER, "", "");
        String untriggered = CaptureTally.rangeHints(0, 1, profiler, false).get(0);
        assertTrue(untriggered.contains("cudaProfilerStart in its process"), untriggered);
        assertTrue(untriggered.contains("did you pass --trigger"), untriggered);
        String triggered = CaptureTally.rangeHints(0, 3, profiler, true).get(0);
        assertTrue(triggered.contains("in any of its 3 processes"), triggered);
        assertTrue(triggered.contains("--trigger POSTed /start_profile"), triggered);
    }

    @Test
    void theNvtxHintNamesTheRangeWithItsDomain() {
        String h = CaptureTally.rangeHints(0, 1, spec(VprofRing.RANGE_NVTX, "decode", "vllm"), false).get(0);
        assertTrue(h.contains("no NVTX range 'decode@vllm' was pushed in its process"), h);
        String bare = CaptureTally.rangeHints(0, 1, spec(VprofRing.RANGE_NVTX, "decode", ""), false).get(0);
        assertTrue(bare.contains("'decode' was pushed"), bare);
    }

    @Test
    void theCauseFollowsHowEachTargetEnded() {
        assertEquals(CaptureEnd.Cause.COMMAND_EXITED, CaptureTally.cause(CapturePlan.Mode.RUN, List.of(true)));
        assertEquals(CaptureEnd.Cause.RANGES_DONE, CaptureTally.cause(CapturePlan.Mode.ATTACH, List.of(true, true)));
        assertEquals(CaptureEnd.Cause.TARGETS_EXITED, CaptureTally.cause(CapturePlan.Mode.ATTACH, List.of(false)));
        assertEquals(CaptureEnd.Cause.TARGETS_EXITED, CaptureTally.cause(CapturePlan.Mode.ATTACH, List.of()));
        assertEquals(CaptureEnd.Cause.RANGES_DONE_OR_EXITED,
                CaptureTally.cause(CapturePlan.Mode.ATTACH, List.of(false, true)));
    }
}
