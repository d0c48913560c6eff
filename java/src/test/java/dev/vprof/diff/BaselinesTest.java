package dev.vprof.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Named baselines: where they live, saved (a file and a folder), listed, resolved, replaced and removed. */
class BaselinesTest {
    @TempDir
    Path dir;

    @Test
    void theFolderFollowsXdgDataHomeElseTheHome() {
        assertEquals(Path.of("/x/data/vprof/baselines"), Baselines.folder(Map.of("XDG_DATA_HOME", "/x/data", "HOME", "/h")));
        assertEquals(Path.of("/h/.local/share/vprof/baselines"), Baselines.folder(Map.of("XDG_DATA_HOME", "", "HOME", "/h")));
        assertEquals(Path.of("/h/.local/share/vprof/baselines"),
                Baselines.folder(Map.of("XDG_DATA_HOME", "relative", "HOME", "/h")), "a relative XDG path is ignored");
    }

    @Test
    void saveListResolveReplaceAndRemove() throws IOException {
        Path folder = dir.resolve("baselines");
        Path trace = dir.resolve("a.json");
        new SyntheticTrace(1, 3, 0.1, 1).write(trace);
        Baselines.Entry e = Baselines.save(folder, "main-h100", trace, false);
        assertEquals(Files.size(trace), e.bytes());
        assertEquals(Files.readString(trace), Files.readString(Baselines.resolve(folder, "main-h100")));
        DiffException again = assertThrows(DiffException.class, () -> Baselines.save(folder, "main-h100", trace, false));
        assertTrue(again.getMessage().contains("already exists") && again.getMessage().contains("--force"), again.getMessage());

        Path ranks = dir.resolve("ranks");
        Files.createDirectories(ranks.resolve("sub"));
        Files.writeString(ranks.resolve("r0.json"), "{}");
        Files.writeString(ranks.resolve("sub/r1.json"), "{ }");
        Baselines.save(folder, "main-h100", ranks, true);
        Path stored = Baselines.resolve(folder, "main-h100");
        assertTrue(Files.isDirectory(stored));
        assertEquals("{ }", Files.readString(stored.resolve("sub/r1.json")));
        Baselines.save(folder, "other", trace, false);

        List<Baselines.Entry> all = Baselines.list(folder);
        assertEquals(List.of("main-h100", "other"), all.stream().map(Baselines.Entry::name).toList());
        assertEquals(5, all.getFirst().bytes());
        assertTrue(all.get(1).source().startsWith(trace.toAbsolutePath().normalize().toString()), all.get(1).source());
        try (var s = Files.list(folder)) {
            assertEquals(2, s.count(), "no temporary folder left behind");
        }

        Baselines.remove(folder, "other");
        assertFalse(Files.exists(folder.resolve("other")));
        DiffException gone = assertThrows(DiffException.class, () -> Baselines.resolve(folder, "other"));
        assertTrue(gone.getMessage().contains("vprof baseline list"), gone.getMessage());
    }

    @Test
    void namesThatCouldEscapeTheFolderAreRefused() {
        for (String bad : List.of("../x", "a/b", ".hidden", "", "x".repeat(65))) {
            DiffException e = assertThrows(DiffException.class, () -> Baselines.save(dir, bad, dir, false), bad);
            assertTrue(e.getMessage().startsWith("a baseline name is"), e.getMessage());
        }
    }
}
