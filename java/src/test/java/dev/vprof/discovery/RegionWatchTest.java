package dev.vprof.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The watch on the agent directory, on /dev/shm itself (tmpfs), where agents make their regions. */
class RegionWatchTest {
    private static final long NEVER = TimeUnit.HOURS.toNanos(1);

    private Path dir;

    @BeforeEach
    void makeDir() throws Exception {
        Path shm = Path.of("/dev/shm");
        dir = Files.createTempDirectory(Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")),
                "vprof-watch-test-");
    }

    @AfterEach
    void removeDir() throws Exception {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    private AgentDirectory agents() {
        return new AgentDirectory(dir, Path.of("/proc"));
    }

    /** Polls until {@code watch} reports something (or 10 s pass); what it reported. */
    private static List<Path> awaitAppearance(RegionWatch watch) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<Path> got = watch.appeared(false);
        while (got.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
            got = watch.appeared(false);
        }
        return got;
    }

    @Test
    void theFirstLookReportsEveryRegionAlreadyThere() throws Exception {
        Files.createFile(dir.resolve("vprof.4242"));
        Files.createFile(dir.resolve("not-a-region"));
        try (RegionWatch w = RegionWatch.open(agents(), true, NEVER)) {
            assertEquals(List.of(dir.resolve("vprof.4242")), w.appeared(false));
            assertEquals(List.of(), w.appeared(false), "reported once");
        }
    }

    @Test
    void inotifyReportsANewRegionWithoutAnyListing() throws Exception {
        try (RegionWatch w = RegionWatch.open(agents(), true, NEVER)) {
            assertTrue(w.watching(), "a WatchService on " + dir);
            assertEquals(List.of(), w.appeared(false));
            Files.createFile(dir.resolve("other-file"));
            Files.createFile(dir.resolve("vprof.4243"));
            assertEquals(List.of(dir.resolve("vprof.4243")), awaitAppearance(w), "only region files count");
        }
    }

    @Test
    void aRegionMadeAgainUnderTheSameNameIsNewAgain() throws Exception {
        try (RegionWatch w = RegionWatch.open(agents(), true, NEVER)) {
            w.appeared(false);
            Path p = dir.resolve("vprof.4244");
            Files.createFile(p);
            assertEquals(List.of(p), awaitAppearance(w));
            Files.delete(p);
            Files.createFile(p); // a stale region replaced by a new agent with the same pid
            assertEquals(List.of(p), awaitAppearance(w));
        }
    }

    @Test
    void withoutAWatchTheListingFindsNewRegions() throws Exception {
        try (RegionWatch w = RegionWatch.open(agents(), false, 0)) {
            assertFalse(w.watching());
            assertEquals(List.of(), w.appeared(false));
            Files.createFile(dir.resolve("vprof.4245"));
            assertEquals(List.of(dir.resolve("vprof.4245")), w.appeared(false));
        }
    }

    @Test
    void listingNowFindsARegionTheWatchHasNotReportedYet() throws Exception {
        try (RegionWatch w = RegionWatch.open(agents(), false, NEVER)) {
            w.appeared(false);
            Files.createFile(dir.resolve("vprof.4246"));
            assertEquals(List.of(), w.appeared(false), "no watch, no listing due");
            assertEquals(List.of(dir.resolve("vprof.4246")), w.appeared(true));
        }
    }
}
