package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.ArmSpec;
import dev.vprof.region.Region;
import dev.vprof.testing.FakeAgent;
import dev.vprof.testing.TestRegions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capture loop against a Java stand-in for the agent (the real agent runs in EndToEndTest). */
class CaptureSessionTest {
    @TempDir
    Path dir;

    private Process target;
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void startTarget() throws Exception {
        target = new ProcessBuilder("sleep", "60").start();
    }

    @AfterEach
    void stopTarget() {
        target.destroyForcibly();
    }

    /**
     * An ATTACH session on the target's tree writing to {@code out}, made as Capture makes it: the
     * agents of {@code regions} armed first, then the session with its output.
     */
    private CaptureSession session(RecordingOutput out, Region... regions) {
        ArmSpec spec = new ArmSpec(VprofRing.RANGE_PROFILER, 1, VprofRing.KINDS_DEFAULT, 0, 5, "", "");
        CapturePlan plan = CapturePlan.builder(CapturePlan.Mode.ATTACH)
                .rootPid((int) target.pid()).arm(spec).output(dir.resolve("unused.vprof"))
                .build();
        CaptureEnvironment env = new CaptureEnvironment(new AgentDirectory(dir, Path.of("/proc")),
                new PrintWriter(err, true), false);
        Arming arming = new Arming(plan, Started.nothing(), env);
        List<Attached> armed = arming.armAll(List.of(regions), 0);
        return new CaptureSession(plan, Started.nothing(), env, out, arming, armed);
    }

    /** What Capture does once the session is made: begin, the loop to its end. */
    private CaptureSummary run(CaptureSession s) throws Exception {
        s.begin();
        return s.run();
    }

    private Region open(Path p) throws Exception {
        return Region.open(p, Posix.getuid(), true);
    }

    /** A 64 KiB region of the target, as its agent would make it. */
    private Path targetRegion() throws Exception {
        return TestRegions.create(dir, (int) target.pid(), 65536, c -> { });
    }

    /** {@link #session(RecordingOutput, Region...)} on the one region at {@code p}. */
    private CaptureSession session(RecordingOutput out, Path p) throws Exception {
        return session(out, open(p));
    }

    /** A session on the region at {@code p} asked to stop (as on a signal) before it begins, run to its end. */
    private CaptureSummary runStoppedBySignal(RecordingOutput out, Path p) throws Exception {
        CaptureSession s = session(out, p);
        s.requestStop("signal");
        return run(s);
    }

    @Test
    void attachReadsEveryRecordOfARangeAndEndsWhenTheAgentGoesDormantByItself() throws Exception {
        int pid = (int) target.pid();
        Path p = targetRegion();
        try (FakeAgent _ = new FakeAgent(p, 20_000)) { // 20k x 32 bytes: the ring wraps ten times
            RecordingOutput out = new RecordingOutput();
            CaptureSession s = session(out, p);
            CaptureSummary sum = run(s);
            assertEquals(20_000, sum.kernels());
            assertEquals(1, sum.ranges());
            assertEquals(20_000L, out.kernels.get(pid));
            assertEquals(20_002, out.ends.get(pid).records(), "the counters' delta covers this capture");
            assertTrue(out.closed);
            assertTrue(Files.exists(p), "a live target keeps its region");
            try (Region r = open(p)) {
                assertEquals(0, r.frontendPid(), "released for the next front end");
                assertEquals(AgentState.DORMANT, r.state());
            }
        }
    }

    /** A region of the target whose agent started at {@code startEpochNs} and serves {@code frontendPid}. */
    private Region regionServing(int frontendPid, long startEpochNs) throws Exception {
        Path p = TestRegions.create(dir, (int) target.pid(), 65536, c -> {
            c.set(java.lang.foreign.ValueLayout.JAVA_LONG, VprofRing.Control.START_REALTIME_NS, startEpochNs);
            c.set(java.lang.foreign.ValueLayout.JAVA_INT, VprofRing.Control.FRONTEND_PID, frontendPid);
        });
        return open(p);
    }

    @Test
    void anAgentOfThisFrontEndBelongsToACaptureOnlyIfItStartedSinceThatCaptureBegan() throws Exception {
        int us = (int) ProcessHandle.current().pid();
        long beforeCapture = Arming.captureStart(null) - 1_000_000; // since this JVM started, before the capture
        CaptureSession s = session(new RecordingOutput());
        long since = Arming.captureStart(null);
        try (Region earlier = regionServing(us, beforeCapture)) {
            assertFalse(s.belongsToThisCapture(earlier),
                    "an agent with our pid from before this capture (an earlier capture in this JVM missed it) is not adopted");
        }
        try (Region later = regionServing(us, since)) {
            assertTrue(s.belongsToThisCapture(later), "one that started since the capture began is ours");
        }
        try (Region stranger = regionServing(us + 1, since)) {
            assertFalse(s.belongsToThisCapture(stranger), "another front end's agent is not");
        }
    }

    @Test
    void aRunCaptureBeginsWhenItsCommandStarted() throws Exception {
        long started = target.info().startInstant().map(i -> i.getEpochSecond() * 1_000_000_000L + i.getNano()).orElseThrow();
        assertEquals(started, Arming.captureStart(target),
                "agents in the command's tree start after the command: the command's start is the capture's");
    }

    @Test
    void aRunWhoseCommandHasAlreadyExitedBeginsNoLaterThanItsCommand() throws Exception {
        long before = Arming.captureStart(null);
        Process gone = new ProcessBuilder("true").start();
        assertEquals(0, gone.waitFor());
        assertTrue(gone.info().startInstant().isEmpty(), "an exited, reaped process has no start time to read");
        assertTrue(Arming.captureStart(gone) <= before,
                "the agent of a command that lived a millisecond still belongs to the capture");
    }

    @Test
    void aSecondAttachCapturesAgain() throws Exception {
        Path p = targetRegion();
        try (FakeAgent agent = new FakeAgent(p, 1000)) {
            for (int i = 0; i < 2; i++) {
                RecordingOutput out = new RecordingOutput();
                CaptureSession s = session(out, p);
                assertEquals(1000, run(s).kernels(), "attach " + (i + 1));
            }
            assertEquals(2, agent.armsSeen);
        }
    }

    @Test
    void aStopRequestDisarmsDrainsAndFinishes() throws Exception {
        int pid = (int) target.pid();
        Path p = targetRegion();
        try (FakeAgent _ = new FakeAgent(p, 3000, true)) {
            RecordingOutput out = new RecordingOutput();
            CaptureSummary sum = runStoppedBySignal(out, p);
            assertEquals("signal", sum.stopReason());
            assertEquals(3000, sum.kernels(), "everything published before DISARM's answer is read");
            assertTrue(out.ends.containsKey(pid));
            try (Region r = open(p)) {
                assertEquals(AgentState.DORMANT, r.state());
            }
        }
    }

    /** 3000 records of 32 bytes do not fit the 64 KiB ring: the stop must drain while DISARM is answered. */
    @Test
    void recordsFlushedByDisarmAreDrainedWhileTheFrontEndWaitsForItsAnswer() throws Exception {
        Path p = targetRegion();
        try (FakeAgent _ = FakeAgent.flushingOnDisarm(p, 3000)) {
            CaptureSummary sum = runStoppedBySignal(new RecordingOutput(), p);
            assertEquals(3000, sum.kernels(), err.toString());
            assertFalse(err.toString().contains("did not answer"), err.toString());
        }
    }

    @Test
    void aTargetThatExitsEndsTheCaptureAndItsRegionIsRemoved() throws Exception {
        int pid = (int) target.pid();
        Path p = targetRegion();
        try (FakeAgent agent = new FakeAgent(p, 500, true)) {
            RecordingOutput out = new RecordingOutput();
            CaptureSession s = session(out, p);
            agent.awaitRangesPublished(1, 10_000);
            target.destroyForcibly().waitFor();
            CaptureSummary sum = run(s);
            assertEquals(500, sum.kernels(), "what was committed before the target died is kept");
            assertTrue(out.ends.containsKey(pid));
            assertTrue(Files.notExists(p), "the front end removes the region it finished reading");
        }
    }
}
