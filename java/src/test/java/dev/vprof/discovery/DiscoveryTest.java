package dev.vprof.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.region.AgentState;
import dev.vprof.testing.TestRegions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiscoveryTest {
    @TempDir
    Path dir;

    @Test
    void theParentIsReadAfterACommandNameWithSpacesAndParentheses() {
        assertEquals(17, ProcessTree.parsePpid("4242 (my (odd) name) S 17 4242 4242 0 -1 4194560"));
        assertEquals(0, ProcessTree.parsePpid("1 (init) S 0 1 1 0"));
        assertEquals(-1, ProcessTree.parsePpid("garbage"));
    }

    @Test
    void grandchildrenAreFoundAsDescendants() throws Exception {
        Process sh = new ProcessBuilder("sh", "-c", "sleep 30 & echo $!; wait").start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(sh.getInputStream(), StandardCharsets.UTF_8))) {
            int grandchild = Integer.parseInt(r.readLine().trim());
            int me = (int) ProcessHandle.current().pid();
            var tree = ProcessTree.read().descendantsOf(me);
            assertTrue(tree.contains((int) sh.pid()), "child");
            assertTrue(tree.contains(grandchild), "grandchild");
            assertEquals((int) sh.pid(), ProcessTree.read().parent(grandchild));
            assertFalse(ProcessTree.read().descendantsOf((int) sh.pid()).contains(me));
        } finally {
            sh.descendants().forEach(ProcessHandle::destroyForcibly);
            sh.destroyForcibly();
        }
    }

    @Test
    void regionFilesAreMatchedByPidAndStaleOnesMarked() throws Exception {
        int me = (int) ProcessHandle.current().pid();
        Files.createFile(dir.resolve("vprof." + me));
        Files.createFile(dir.resolve("vprof.4000000")); // above any pid_max: its process cannot exist
        Files.createFile(dir.resolve("vprof.notapid"));
        Files.createFile(dir.resolve("other." + me));
        AgentDirectory ad = new AgentDirectory(dir, Path.of("/proc"));
        List<RegionFile> all = ad.all();
        assertEquals(2, all.size());
        assertEquals(me, all.get(0).pid());
        assertTrue(all.get(0).alive());
        assertEquals(4000000, all.get(1).pid());
        assertFalse(all.get(1).alive(), "a file whose process is gone is stale");
        assertEquals(1, ad.within(java.util.Set.of(me, 4000000)).size(), "stale files are never attached");
    }

    @Test
    void statesAreReadFromValidRegionsOfLiveProcessesOnly() throws Exception {
        int me = (int) ProcessHandle.current().pid();
        TestRegions.create(dir, me, 65536, c -> { });
        Files.createFile(dir.resolve("vprof.4000000")); // stale, and not a region
        AgentDirectory ad = new AgentDirectory(dir, Path.of("/proc"));
        assertEquals(Map.of(me, AgentState.DORMANT), ad.states(Set.of(me, 4000000)));
        assertEquals(Map.of(), ad.states(Set.of(4000000)), "a pid outside the set or gone is left out");
        Files.write(dir.resolve("vprof." + me), new byte[16]);
        assertEquals(Map.of(), ad.states(Set.of(me)), "a region not valid (yet) is left out");
    }

    @Test
    void aZombieOrMissingProcessIsNotAlive() {
        assertTrue(ProcessTree.isAlive((int) ProcessHandle.current().pid()));
        assertFalse(ProcessTree.isAlive(4000000));
    }
}
