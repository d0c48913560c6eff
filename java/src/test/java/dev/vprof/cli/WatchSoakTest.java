package dev.vprof.cli;

import static dev.vprof.cli.PrometheusWatchTest.await;
import static dev.vprof.cli.PrometheusWatchTest.awaitDormant;
import static dev.vprof.cli.PrometheusWatchTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.WindowChunk;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flight recorder over a long run on the CUPTI test double ({@code -Dvprof.soak.seconds},
 * default 120 for CI; {@code bench/scripts/watch-soak.sh} runs 1800): a {@code vprof-simgpu
 * --serve} target fed steps from this test, watched with a 20 s window of 5 s segments. Every
 * 5 s, from the files on disk (not the watch's own figures): the window (now minus the start its
 * oldest segment's metadata records) within --keep ± one segment, its bytes within --max-disk;
 * and the watch's live heap (after a GC), RSS and open files. At the end the target counts every
 * kernel it launched, and the watch's kernels plus the drops it counted must be exactly that.
 */
class WatchSoakTest {
    private static final long KEEP_S = 20;
    private static final long SEGMENT_S = 5;
    private static final long MAX_DISK = 256L << 20;
    private static final int KERNELS_PER_STEP = 40;

    private record Sample(double atS, int segments, double spanS, long bytes, long heapKiB, long rssKiB, long fds) {}

    @Test
    void theWindowDiskHeapRssAndOpenFilesStayFlatAndEveryKernelIsRecordedOrCounted(@TempDir Path dir) throws Exception {
        long seconds = Long.getLong("vprof.soak.seconds", 120);
        E2e e2e = E2e.nativeParts();
        ProcessBuilder pb = new ProcessBuilder(e2e.sim("--serve", "--bare"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(dir.resolve("sim.err").toFile());
        pb.environment().put("CUDA_INJECTION64_PATH", e2e.agent.toString());
        pb.environment().remove("VPROF_ARM");
        Process sim = pb.start();
        Process watch = null;
        try {
            awaitDormant(sim.pid());
            Path err = dir.resolve("watch.err");
            Path w = dir.resolve("w");
            watch = new ProcessBuilder(e2e.vprofCommand("watch", "--pid", Long.toString(sim.pid()), "--dir",
                    w.toString(), "--keep", KEEP_S + "s", "--segment", SEGMENT_S + "s", "--max-disk", (MAX_DISK >> 20) + "m"))
                    .redirectErrorStream(true).redirectOutput(err.toFile()).start();
            Process watching = watch;
            await(() -> read(err).contains("recording the last"), 60, "the watch's start: " + read(err));
            Thread.sleep(1000); // armed: everything from here on is recorded

            OutputStream in = sim.getOutputStream();
            byte[] block = "step 64 8\n".repeat(50).getBytes(StandardCharsets.US_ASCII);
            long steps = 0;
            List<Sample> samples = new ArrayList<>();
            long t0 = System.nanoTime();
            long nextSample = t0 + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(seconds)) {
                in.write(block);
                in.flush();
                steps += 50;
                Thread.sleep(40);
                if (System.nanoTime() >= nextSample) {
                    nextSample += TimeUnit.SECONDS.toNanos(5);
                    Sample s = sample((System.nanoTime() - t0) / 1e9, w.resolve("segments"), watching.pid());
                    samples.add(s);
                    System.out.printf(Locale.ROOT, "SOAK t=%.0fs segments=%d window=%.1fs bytes=%d heap=%dKiB rss=%dKiB fds=%d%n",
                            s.atS(), s.segments(), s.spanS(), s.bytes(), s.heapKiB(), s.rssKiB(), s.fds());
                    assertTrue(watching.isAlive(), read(err));
                }
            }
            in.write("exit\n".getBytes(StandardCharsets.US_ASCII));
            in.close();
            assertTrue(sim.waitFor(60, TimeUnit.SECONDS), "the target exits");
            assertTrue(watch.waitFor(60, TimeUnit.SECONDS), "the watch ends when its target exits");
            assertEquals(0, watch.exitValue(), read(err));

            // The window, from the files: once full, within --keep ± one segment, and within --max-disk.
            for (Sample s : samples) {
                if (s.atS() >= KEEP_S + 2 * SEGMENT_S) {
                    assertTrue(s.spanS() >= KEEP_S - SEGMENT_S && s.spanS() <= KEEP_S + SEGMENT_S + 1,
                            "window " + s.spanS() + " s at " + s.atS() + " s");
                }
                assertTrue(s.bytes() <= MAX_DISK, "window bytes " + s.bytes());
            }
            // Flat: the last third against the first full third, with room for GC noise.
            List<Sample> settled = samples.stream().filter(s -> s.atS() >= KEEP_S + 2 * SEGMENT_S).toList();
            assertTrue(settled.size() >= 3, "samples after the window filled: " + settled);
            Sample first = settled.getFirst();
            Sample last = settled.getLast();
            long maxHeap = settled.stream().mapToLong(Sample::heapKiB).max().orElseThrow();
            assertTrue(last.heapKiB() <= first.heapKiB() + 16 * 1024, "live heap " + first.heapKiB() + " KiB -> "
                    + last.heapKiB() + " KiB (max " + maxHeap + ")");
            assertTrue(last.rssKiB() <= first.rssKiB() + 96 * 1024, "RSS " + first.rssKiB() + " -> " + last.rssKiB());
            assertTrue(last.fds() <= first.fds() + 4, "open files " + first.fds() + " -> " + last.fds());

            // Every kernel the target launched while watched is in the recording or counted as dropped.
            long launched = E2e.simCount(dir.resolve("sim.err"), "kernels");
            assertEquals(steps * KERNELS_PER_STEP, launched, "the target's own count");
            Matcher m = Pattern.compile("vprof: wrote \\S+: \\d+ process(?:es)?, \\d+ ranges?, (\\d+) kernels, \\d+ records; "
                    + "(\\d+) ring drops, (\\d+) CUPTI drops").matcher(read(err));
            assertTrue(m.find(), read(err));
            long recorded = Long.parseLong(m.group(1));
            long dropped = Long.parseLong(m.group(2)) + Long.parseLong(m.group(3));
            Matcher k = Pattern.compile("\\((\\d+) kernels\\) were DROPPED").matcher(read(err));
            long droppedKernels = k.find() ? Long.parseLong(k.group(1)) : 0;
            System.out.printf(Locale.ROOT, "SOAK end: %d s, %d kernels launched, %d recorded, %d dropped and counted "
                    + "(%d records)%n", seconds, launched, recorded, droppedKernels, dropped);
            assertEquals(launched, recorded + droppedKernels, "launched = recorded + counted drops; " + read(err));
        } finally {
            if (watch != null && watch.isAlive()) {
                watch.destroyForcibly();
            }
            if (sim.isAlive()) {
                sim.destroyForcibly();
            }
        }
    }

    private static Sample sample(double at, Path segments, long pid) throws IOException, InterruptedException {
        List<Path> files;
        try (Stream<Path> s = Files.list(segments)) {
            files = s.filter(p -> p.getFileName().toString().matches("segment-\\d+\\.vprof")).sorted().toList();
        }
        long bytes = 0;
        for (Path f : files) {
            bytes += Files.size(f);
        }
        double span = 0;
        if (!files.isEmpty()) {
            try (CaptureReader r = CaptureReader.open(files.getFirst())) {
                long start = Long.parseLong(r.metadata().orElseThrow().options().get(WindowChunk.START_KEY));
                span = (Posix.realtimeNanos() - start) / 1e9;
            }
        }
        long fds;
        try (Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            fds = s.count();
        }
        long rss = 0;
        for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (l.startsWith("VmRSS:")) {
                rss = Long.parseLong(l.replaceAll("\\D", ""));
            }
        }
        return new Sample(at, files.size(), span, bytes, liveHeapKiB(pid), rss, fds);
    }

    /** The watch's heap after a full GC (jcmd GC.run, then GC.heap_info's first "used"). */
    private static long liveHeapKiB(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(30, TimeUnit.SECONDS);
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        Matcher m = Pattern.compile("used (\\d+)K").matcher(out);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
