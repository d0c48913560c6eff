package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.nativelib.Posix;
import dev.vprof.testing.TestRegions;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `vprof list` says how to remove stale regions, and `--clean` removes only the user's own. */
class ListStaleTest {
    /** A pid above the kernel's pid_max: never a process. */
    private static final int GONE = 4_000_000;

    @TempDir
    Path dir;

    private SleepingTarget target;

    @BeforeEach
    void setUp() throws Exception {
        target = new SleepingTarget(dir);
    }

    @AfterEach
    void tearDown() throws Exception {
        target.stop();
    }

    private int live() {
        return target.pid();
    }

    @Test
    void aStaleRegionIsListedWithHowToRemoveIt() throws Exception {
        TestRegions.create(dir, GONE, 65536, c -> { });
        Cli.Result r = Cli.run("list");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("STALE") && r.out().contains("process " + GONE + " is gone"), r.out());
        assertTrue(r.out().contains("1 stale region") && r.out().contains("remove it with `vprof list --clean`"), r.out());
        assertTrue(Files.exists(dir.resolve("vprof." + GONE)), "listing removes nothing");
    }

    @Test
    void cleanRemovesTheUsersStaleRegionsAndKeepsLiveOnes() throws Exception {
        TestRegions.create(dir, GONE, 65536, c -> { });
        TestRegions.create(dir, live(), 65536, c -> { });
        Cli.Result r = Cli.run("list", "--clean");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("removed " + dir.resolve("vprof." + GONE)), r.err());
        assertFalse(Files.exists(dir.resolve("vprof." + GONE)));
        assertTrue(Files.exists(dir.resolve("vprof." + live())), "a live agent's region stays");
        assertTrue(r.out().contains("DORMANT") && !r.out().contains("STALE"), r.out());
    }

    @Test
    void aRegionWhosePidWasReusedIsStale() throws Exception {
        // The agent that made it started an hour before the process that has its pid now.
        long anHourAgo = Posix.realtimeNanos() - 3_600_000_000_000L;
        TestRegions.create(dir, live(), 65536, c -> c.set(ValueLayout.JAVA_LONG, Control.START_REALTIME_NS, anHourAgo));
        Cli.Result r = Cli.run("list");
        assertTrue(r.out().contains("STALE") && r.out().contains("now belongs to another process"), r.out());
        Cli.Result c = Cli.run("list", "--clean");
        assertEquals(0, c.code(), c.err());
        assertFalse(Files.exists(dir.resolve("vprof." + live())), c.err());
        assertTrue(target.isAlive(), "the process that has the pid now is not touched");
    }

    @Test
    void anAgentStartedAfterItsProcessIsNotStale() throws Exception {
        TestRegions.create(dir, live(), 65536,
                c -> c.set(ValueLayout.JAVA_LONG, Control.START_REALTIME_NS, Posix.realtimeNanos()));
        Cli.Result r = Cli.run("list", "--clean");
        assertTrue(r.out().contains("DORMANT"), r.out());
        assertTrue(Files.exists(dir.resolve("vprof." + live())));
    }

    @Test
    void cleanLeavesLinksAndOtherUsersFilesAndSaysWhy() throws Exception {
        Path elsewhere = Files.writeString(dir.resolve("not-a-region"), "keep me");
        Files.createSymbolicLink(dir.resolve("vprof." + GONE), elsewhere);
        int otherPid = GONE + 1;
        boolean root = Posix.getuid() == 0;
        if (root) {
            Path theirs = TestRegions.create(dir, otherPid, 65536, c -> { });
            Files.setAttribute(theirs, "unix:uid", 65534);
        }
        Cli.Result r = Cli.run("list", "--clean");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("left " + dir.resolve("vprof." + GONE) + ": it is not a regular file"), r.err());
        assertEquals("keep me", Files.readString(elsewhere), "a link is never followed");
        assertTrue(Files.isSymbolicLink(dir.resolve("vprof." + GONE)));
        if (root) {
            assertTrue(r.err().contains("it belongs to user id 65534"), r.err());
            assertTrue(Files.exists(dir.resolve("vprof." + otherPid)));
        }
    }
}
