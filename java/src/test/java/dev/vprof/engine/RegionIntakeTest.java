package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.region.ArmSpec;
import dev.vprof.testing.FakeAgent;
import dev.vprof.testing.TestRegions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The discovery stage alone: which region files join the capture, which wait, which are only reported. */
class RegionIntakeTest {
    @TempDir Path dir;
    private Process target;
    private Process stranger; // not in the target's tree
    private final StringWriter err = new StringWriter();
    private final List<Attached> joined = new ArrayList<>();

    @BeforeEach
    void startProcesses() throws Exception {
        target = new ProcessBuilder("sleep", "60").start();
        stranger = new ProcessBuilder("sleep", "60").start();
    }

    @AfterEach
    void stopProcesses() {
        for (Attached a : joined) {
            a.region.setFrontendPid(0);
            a.region.close();
            a.liveness.close();
        }
        target.destroyForcibly();
        stranger.destroyForcibly();
    }

    private RegionIntake intake(CapturePlan.Mode mode) {
        ArmSpec spec = new ArmSpec(VprofRing.RANGE_PROFILER, 1, VprofRing.KINDS_DEFAULT, 0, 5, "", "");
        CapturePlan plan = CapturePlan.builder(mode)
                .rootPid((int) target.pid()).arm(spec).output(dir.resolve("unused.vprof"))
                .build();
        CaptureEnvironment env = new CaptureEnvironment(new AgentDirectory(dir, Path.of("/proc")),
                new PrintWriter(err, true), false);
        Arming arming = new Arming(plan, Started.nothing(), env);
        return new RegionIntake(mode, (int) target.pid(), env.agents().proc(), new PrintWriter(err, true), arming,
                joined::add, 50_000_000L);
    }

    @Test
    void aRegionOutsideTheTargetsTreeIsNotTakenInAttach() throws Exception {
        RegionIntake intake = intake(CapturePlan.Mode.ATTACH);
        Path p = TestRegions.create(dir, (int) stranger.pid(), 65536, c -> { });
        intake.look(List.of(p));
        assertEquals(List.of(), joined);
        assertEquals(0, intake.pendingCount());
        assertEquals("", err.toString(), "a stranger's region is none of this capture's business");
    }

    @Test
    void aStartingAgentWaitsAndIsTakenOnceReady() throws Exception {
        RegionIntake intake = intake(CapturePlan.Mode.ATTACH);
        int pid = (int) target.pid();
        Path p = TestRegions.create(dir, pid, 65536,
                c -> c.set(ValueLayout.JAVA_INT, Control.STATE, VprofRing.STATE_STARTING));
        intake.look(List.of(p));
        assertEquals(List.of(), joined);
        assertEquals(1, intake.pendingCount(), "kept for a later look");

        TestRegions.create(dir, pid, 65536, c -> { }); // the agent is ready: DORMANT
        try (FakeAgent _ = new FakeAgent(p, 0)) {
            intake.look(List.of()); // nothing new appeared: the waiting one is looked at again
            assertEquals(1, joined.size(), err.toString());
            assertEquals(pid, joined.get(0).pid());
            assertEquals(0, intake.pendingCount());
            assertEquals(Set.of(pid), intake.seenPids());
        }
    }

    @Test
    void aFailedAgentIsCountedAndItsReasonPrintedOnce() throws Exception {
        RegionIntake intake = intake(CapturePlan.Mode.ATTACH);
        int pid = (int) target.pid();
        Path p = TestRegions.create(dir, pid, 65536, c -> {
            c.set(ValueLayout.JAVA_INT, Control.STATE, VprofRing.STATE_FAILED);
            TestRegions.putString(c, Control.REASON, "cuptiSubscribe returned 39");
        });
        intake.look(List.of(p));
        intake.look(List.of(p)); // the same file reported again: its pid was seen
        assertEquals(List.of(), joined);
        assertEquals(1, intake.failedAgents());
        String log = err.toString();
        assertTrue(log.contains("the agent in pid " + pid + " is FAILED: cuptiSubscribe returned 39"
                + "; that process runs on without capture"), log);
        assertEquals(log.indexOf("FAILED"), log.lastIndexOf("FAILED"), "said once");
    }

    @Test
    void inRunAnAgentThatDidNotArmItselfIsTakenWithAWarning() throws Exception {
        RegionIntake intake = intake(CapturePlan.Mode.RUN);
        int pid = (int) target.pid();
        Path p = TestRegions.create(dir, pid, 65536, c -> { }); // DORMANT, no records, serves no front end
        intake.look(List.of(p));
        assertEquals(1, joined.size());
        assertTrue(err.toString().contains("the agent in pid " + pid + " did not arm itself from VPROF_ARM"),
                err.toString());
    }
}
