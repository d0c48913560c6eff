package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.merge.NodeFiles;
import dev.vprof.output.Leftovers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof merge} is for the captures of one run: what it refuses, in one sentence with exit
 * code CANNOT and nothing written, and what it says when forced; the note and the file names of
 * captures it merges. The captures are built by {@link NodeFiles} with every fact known.
 */
class MergeOneRunCommandTest {
    @TempDir
    Path dir;

    private static List<String> lines(String s) {
        return s.lines().filter(l -> !l.isBlank()).toList();
    }

    private void nothingWritten(Path out) throws IOException {
        assertFalse(Files.exists(out), out + " was written");
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(Leftovers::isTemporary), "a leftover folder");
        }
    }

    @Test
    void twoCapturesOfOneHost90SecondsApartAreRefusedAndForcedOnesGetTheNtpBound() throws IOException {
        // the same host twice (one boot), 90 s apart, each with 2,336 all-reduces of its own
        Path a = NodeFiles.at(dir.resolve("first.vprof")).host("vm-2", "boot-1", 16_000).process(101, 0, 2)
                .window(0, 10).allReduces(2336, 1, 1L).write();
        Path b = NodeFiles.at(dir.resolve("second.vprof")).host("vm-2", "boot-1", 16_000).process(202, 1, 2)
                .window(100, 110).allReduces(2336, 101, 2L).write();
        Path out = dir.resolve("run.tar");
        Cli.Result r = Cli.run("merge", a.toString(), b.toString(), "-o", out.toString());
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.out() + r.err());
        List<String> said = lines(r.err());
        assertEquals(1, said.size(), "one sentence: " + r.err());
        assertTrue(said.getFirst().contains("first.vprof (2025-10-09 08:53:20.000 to 08:53:30.000 UTC) and second.vprof "
                + "(2025-10-09 08:55:00.000 to 08:55:10.000) do not overlap: second.vprof began 90.000 s after "
                + "first.vprof ended") && said.getFirst().contains("--force"), said.getFirst());
        assertFalse(said.getFirst().contains("Exception") || said.getFirst().contains("\tat "), said.getFirst());
        nothingWritten(out);

        Cli.Result forced = Cli.run("merge", a.toString(), b.toString(), "-o", out.toString(), "--force");
        assertEquals(ExitCode.OK.code(), forced.code(), forced.out() + forced.err());
        assertTrue(forced.err().contains("vprof: warning: merged with --force although first.vprof"), forced.err());
        // their collectives fit each other only by chance: that offset is not used, the NTP bound is
        assertTrue(forced.out().contains("+0 ns (wall clocks taken as they are, NTP bound ±32.000 ms)"), forced.out());
        assertTrue(forced.out().contains("is above the 100.0 µs rms bound on the residual and is not used"), forced.out());
        assertFalse(forced.out().contains("from 2336 collective ends (residual"), forced.out());
    }

    @Test
    void unrelatedRunsSeventeenMinutesApartAreRefused() throws IOException {
        // strictly periodic all-reduces fit each other to the nanosecond at any distance
        Path a = NodeFiles.at(dir.resolve("monday.vprof")).host("gpu-0", "boot-a", 100).process(11, 0, 2)
                .window(0, 30).allReduces(5000, 1, null).write();
        Path b = NodeFiles.at(dir.resolve("later.vprof")).host("gpu-1", "boot-b", 100).process(12, 1, 2)
                .window(1048, 1078).allReduces(5000, 1049, null).write();
        Path out = dir.resolve("run.tar");
        Cli.Result r = Cli.run("merge", a.toString(), b.toString(), "-o", out.toString());
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.out() + r.err());
        assertTrue(r.err().contains("do not overlap: later.vprof began 1018.000 s after monday.vprof ended"), r.err());
        assertFalse(r.out().contains("-1018"), r.out());
        nothingWritten(out);
    }

    @Test
    void capturesOfAnotherRunOrTheSameNodeTwiceAreRefused() throws IOException {
        Path a = NodeFiles.at(dir.resolve("a.vprof")).host("gpu-0", "boot-a", 100).env("TORCHELASTIC_RUN_ID", "job-7")
                .process(11, 0, 2).window(0, 30).allReduces(100, 1, null).write();
        Path b = NodeFiles.at(dir.resolve("b.vprof")).host("gpu-1", "boot-b", 100).env("TORCHELASTIC_RUN_ID", "job-8")
                .process(12, 1, 2).window(0, 30).allReduces(100, 1, null).write();
        Path out = dir.resolve("run.tar");
        Cli.Result r = Cli.run("merge", a.toString(), b.toString(), "-o", out.toString());
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.out() + r.err());
        assertTrue(r.err().contains("a.vprof and b.vprof come from different runs (TORCHELASTIC_RUN_ID is job-7 in one "
                + "and job-8 in the other)"), r.err());
        Cli.Result twice = Cli.run("merge", a.toString(), a.toString(), "-o", out.toString());
        assertEquals(ExitCode.CANNOT.code(), twice.code(), twice.out() + twice.err());
        assertTrue(twice.err().contains("a.vprof and a.vprof are the same file"), twice.err());
        nothingWritten(out);
    }

    @Test
    void tracesWithoutNodeEvidenceAreNamedInTheNoteAndFilesSayTheirRanks() throws IOException, InterruptedException {
        // no hostname, no adjtimex, no window: the kernels' own times say they ran together
        Path a = NodeFiles.at(dir.resolve("worker0.vprof")).process(11, 0, 4).process(12, 1, 4).gemms(1, 5).write();
        Path b = NodeFiles.at(dir.resolve("worker1.vprof")).process(21, 2, 4).process(22, 3, 4).gemms(2, 6).write();
        Path out = dir.resolve("run.tar");
        Cli.Result r = Cli.run("merge", a.toString(), b.toString(), "-o", out.toString());
        assertEquals(ExitCode.OK.code(), r.code(), r.out() + r.err());
        assertFalse(r.out().contains("; :") || r.out().contains(", :"), r.out());
        assertTrue(r.out().contains("worker0.vprof: time sync unknown (a capture without node evidence), worker1.vprof: "
                + "time sync unknown"), r.out());
        Process tar = new ProcessBuilder("tar", "-tf", out.toString()).redirectErrorStream(true).start();
        List<String> members = new ArrayList<>(lines(new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8)));
        assertEquals(0, tar.waitFor());
        assertEquals(List.of("perfetto_manifest.json", "worker0_ranks0-1.pftrace", "worker1_ranks2-3.pftrace"), members);
    }
}
