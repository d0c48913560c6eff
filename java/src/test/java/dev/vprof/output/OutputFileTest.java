package dev.vprof.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputFileTest {
    @TempDir
    Path dir;

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void nothingIsUnderTheFinalNameUntilTheCommitAndOnlyTheFinalNameAfterIt() throws IOException {
        Path out = dir.resolve("t.json");
        try (OutputFile f = OutputFile.create(out, false)) {
            f.stream().write("{}".getBytes(StandardCharsets.UTF_8));
            assertFalse(Files.exists(out));
            assertTrue(Leftovers.isTemporary(f.temp()), f.temp().toString());
            assertEquals(dir, f.temp().getParent());
            f.commit();
        }
        assertEquals(List.of("t.json"), names());
        assertEquals("{}", Files.readString(out));
    }

    @Test
    void aDeviceAFifoOrAFolderIsNeverReplacedEvenWithReplace() throws Exception {
        Path fifo = dir.resolve("pipe.json");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Path folder = Files.createDirectory(dir.resolve("folder.json"));
        for (Path target : List.of(fifo, folder, Path.of("/dev/null"))) {
            FileSystemException e = assertThrows(FileSystemException.class, () -> OutputFile.create(target, true));
            assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
        }
        assertFalse(Files.isRegularFile(fifo), "the FIFO is still a FIFO");
        assertTrue(Files.isDirectory(folder));
        assertFalse(Files.isRegularFile(Path.of("/dev/null")), "/dev/null is still a device");
        assertEquals(List.of("folder.json", "pipe.json"), names(), "no temporary file left");
    }

    @Test
    void closedWithoutACommitLeavesNothing() throws IOException {
        Path out = dir.resolve("t.json");
        try (OutputFile f = OutputFile.create(out, false)) {
            f.stream().write(new byte[1000]);
        }
        assertEquals(List.of(), names());
    }

    @Test
    void aTargetThatAppearedMeanwhileIsLeftWholeWithoutReplaceAndReplacedWithIt() throws IOException {
        Path out = dir.resolve("t.json");
        try (OutputFile f = OutputFile.create(out, false)) {
            f.stream().write("mine".getBytes(StandardCharsets.UTF_8));
            Files.writeString(out, "theirs");
            assertThrows(OutputTakenException.class, f::commit);
        }
        assertEquals("theirs", Files.readString(out));
        assertEquals(List.of("t.json"), names(), "the temporary file is removed");
        try (OutputFile f = OutputFile.create(out, true)) {
            f.stream().write("mine".getBytes(StandardCharsets.UTF_8));
            f.commit();
        }
        assertEquals("mine", Files.readString(out));
    }

    @Test
    void anUnrelatedFileWithAnOldTemporaryNameIsNeverTouched() throws IOException {
        Path out = dir.resolve("t.json");
        Path part = dir.resolve("t.json.part");
        Files.writeString(part, "someone's");
        try (OutputFile f = OutputFile.create(out, false)) {
            f.stream().write("x".getBytes(StandardCharsets.UTF_8));
            f.commit();
        }
        assertEquals("someone's", Files.readString(part));
    }

    @Test
    void twentyWritersRacingForOneNameLeaveOneWholeFileAndNineteenRefusals() throws Exception {
        Path out = dir.resolve("race.bin");
        int writers = 20;
        CyclicBarrier start = new CyclicBarrier(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<Boolean>> won = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                byte[] body = new byte[256 * 1024];
                Arrays.fill(body, (byte) w);
                won.add(pool.submit(() -> {
                    try (OutputFile f = OutputFile.create(out, false)) {
                        f.stream().write(body);
                        start.await();
                        f.commit();
                        return true;
                    } catch (OutputTakenException e) {
                        return false;
                    }
                }));
            }
            int winners = 0;
            for (Future<Boolean> f : won) {
                winners += f.get() ? 1 : 0;
            }
            assertEquals(1, winners);
        } finally {
            pool.shutdownNow();
        }
        byte[] got = Files.readAllBytes(out);
        byte[] whole = new byte[256 * 1024];
        Arrays.fill(whole, got[0]);
        assertArrayEquals(whole, got, "one writer's bytes, whole");
        assertEquals(List.of("race.bin"), names());
    }

    @Test
    void leftoversOfADeadPidAreRemovedByTheNextWriterAndALiveOnesAreKept() throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Path stale = dir.resolve(".a.json" + Leftovers.MARK + dead.pid() + "-3");
        Files.writeString(stale, "half");
        Path staleFolder = Files.createDirectory(dir.resolve(".m.tar" + Leftovers.MARK + dead.pid() + "-4"));
        Files.writeString(staleFolder.resolve("node0.pftrace"), "x");
        Path live = dir.resolve(".b.json" + Leftovers.MARK + ProcessHandle.current().pid() + "-999999");
        Files.writeString(live, "being written");
        Path unrelated = dir.resolve(".c.json.vprof-tmp-notapid-1");
        Files.writeString(unrelated, "not ours");
        List<String> said = new ArrayList<>();
        List<Path> removed = Leftovers.clean(dir, said::add);
        assertEquals(2, removed.size(), removed.toString());
        assertFalse(Files.exists(stale));
        assertFalse(Files.exists(staleFolder));
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(unrelated));
        assertEquals(1, said.size());
        assertTrue(said.getFirst().startsWith("removed 2 temporary files in " + dir), said.getFirst());
    }

    @Test
    void aTempFolderGoesWithWhatIsInIt() throws IOException {
        Path work;
        try (TempFolder t = TempFolder.beside(dir.resolve("m.tar"))) {
            work = t.path();
            Files.writeString(work.resolve("node0.pftrace"), "x");
            assertTrue(Leftovers.isTemporary(work));
        }
        assertFalse(Files.exists(work));
        assertEquals(List.of(), names());
    }
}
