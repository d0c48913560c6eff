package dev.vprof.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.nativelib.Posix;
import dev.vprof.testing.FakeAgent;
import dev.vprof.testing.TestRegions;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegionTest {
    @TempDir
    Path dir;

    private final int pid = (int) ProcessHandle.current().pid();
    private final int uid = Posix.getuid();

    private RegionException openFails(Path p) {
        return assertThrows(RegionException.class, () -> Region.open(p, uid, true));
    }

    @Test
    void aValidRegionOpensAndShowsItsFields() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> { });
        try (Region r = Region.open(p, uid, true)) {
            assertEquals(pid, r.pid());
            assertEquals(65536, r.capacity());
            assertEquals(AgentState.DORMANT, r.state());
            assertEquals(130001, r.cuptiVersion());
            assertEquals("fake-target --steps 10", r.cmdline());
        }
    }

    @Test
    void aBadMagicIsNotAVprofRegion() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> c.set(ValueLayout.JAVA_LONG, Control.MAGIC, 0x1234L));
        assertTrue(openFails(p).getMessage().contains("is not a vprof region"));
    }

    @Test
    void aZeroMagicMeansTheAgentIsStillStarting() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> c.set(ValueLayout.JAVA_LONG, Control.MAGIC, 0L));
        assertInstanceOf(RegionNotReadyException.class, openFails(p));
    }

    @Test
    void anotherFormatVersionIsRefusedNamingBothVersions() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> c.set(ValueLayout.JAVA_INT, Control.FORMAT_VERSION, 7));
        String m = openFails(p).getMessage();
        assertTrue(m.contains("version 7") && m.contains("version " + VprofRing.FORMAT_VERSION), m);
    }

    @Test
    void aRingCapacityThatIsNotAPowerOfTwoIsRefused() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> c.set(ValueLayout.JAVA_LONG, Control.RING_CAPACITY, 65536 + 8));
        assertTrue(openFails(p).getMessage().contains("not a power of two"));
    }

    @Test
    void aFileSizeThatDisagreesWithTheCapacityIsRefused() throws Exception {
        Path p = TestRegions.create(dir, pid, 131072, c -> c.set(ValueLayout.JAVA_LONG, Control.RING_CAPACITY, 65536));
        assertTrue(openFails(p).getMessage().contains("the region is corrupt"));
    }

    @Test
    void aRegionOfAnotherUserIsRefused() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> { });
        RegionException e = assertThrows(RegionException.class, () -> Region.open(p, uid + 1, true));
        assertTrue(e.getMessage().contains("not to you"), e.getMessage());
    }

    @Test
    void aRegionOthersCanOpenIsRefused() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> { });
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(openFails(p).getMessage().contains("rw-r--r--"));
    }

    @Test
    void aFileThatClaimsAnotherPidIsRefused() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> c.set(ValueLayout.JAVA_INT, Control.PID, pid + 1));
        assertTrue(openFails(p).getMessage().contains("says it belongs to pid"));
    }

    @Test
    void armFillsTheArgumentsAndReturnsTheAgentsAnswer() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> { });
        try (Region r = Region.open(p, uid, true); FakeAgent agent = new FakeAgent(p, 0)) {
            ArmSpec spec = new ArmSpec(VprofRing.RANGE_NVTX, 3, 9, 0, 42, "step", "vllm");
            assertEquals(VprofRing.RESULT_OK, r.arm(spec, 4711, TimeUnit.SECONDS.toNanos(10)));
            assertEquals(1, agent.armsSeen);
            assertEquals(9, agent.lastArmKinds);
            assertEquals(4711, r.frontendPid());
            assertEquals(42, r.captureId());
            assertEquals(VprofRing.RANGE_NVTX, r.control().get(ValueLayout.JAVA_INT, Control.CMD_RANGE_MODE));
        }
    }

    @Test
    void anAgentThatDoesNotAnswerGivesAClearError() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> { });
        try (Region r = Region.open(p, uid, true)) {
            RegionException e = assertThrows(RegionException.class, () -> r.disarm(TimeUnit.MILLISECONDS.toNanos(20)));
            assertTrue(e.getMessage().contains("agent in pid " + pid + " did not answer"), e.getMessage());
        }
    }

    @Test
    void theArmEnvironmentCarriesEveryArgument() {
        ArmSpec s = new ArmSpec(VprofRing.RANGE_NVTX, 0, 15, 1 << 20, 9, "step", "vllm");
        assertEquals("mode=nvtx,repeat=0,kinds=15,buffer=1048576,frontend=77,capture=9,name=step,domain=vllm", s.toEnv(77));
    }

    @Test
    void aSymbolicLinkNamedLikeARegionIsRefusedEvenWhenItPointsAtAGoodOne() throws Exception {
        Path good = TestRegions.create(Files.createDirectory(dir.resolve("elsewhere")), pid, 65536, c -> { });
        Path link = Files.createSymbolicLink(dir.resolve("vprof." + pid), good);
        String m = openFails(link).getMessage();
        assertTrue(m.contains("a symbolic link") && m.contains("refused"), m);
    }

    @Test
    void aFifoNamedLikeARegionIsRefusedWithoutOpeningIt() throws Exception {
        Path fifo = dir.resolve("vprof." + pid);
        Process mk = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor());
        // Opening a FIFO for reading blocks until a writer comes: the refusal must come first.
        String m = assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> openFails(fifo)).getMessage();
        assertTrue(m.contains("not a regular file"), m);
    }

    @Test
    void aRegionWhoseControlBlockIsCutShortIsRefusedWithItsSize() throws Exception {
        Path p = TestRegions.create(dir, pid, 65536, c -> { });
        try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(100);
        }
        String m = openFails(p).getMessage();
        assertTrue(m.contains("is 100 bytes, too small"), m);
    }
}
