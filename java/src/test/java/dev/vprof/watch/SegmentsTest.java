package dev.vprof.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordDecoder;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.capture.RingRecords;
import dev.vprof.engine.CaptureOutput;
import dev.vprof.nativelib.Posix;
import dev.vprof.output.Leftovers;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rolling window through its {@link CaptureOutput} face, as the drain thread drives it, with
 * records made by hand: the oracle is the tally of what was fed (kernels per segment, their names).
 */
class SegmentsTest {
    private static final int PID = 4242;
    private static final String GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64";
    private static final String NORM = "_ZN4vllm15rms_norm_kernelIN3c108BFloat16EEEvPT_PKS3_S6_fii";

    private final StringWriter logText = new StringWriter();
    private final PrintWriter log = new PrintWriter(logText, true);

    private Segments open(Path dir, Duration keep, long maxDisk, List<Segment> closedSeen) throws IOException {
        Segments[] made = new Segments[1];
        CaptureOutput.Factory f = Segments.in(dir, new Segments.Limits(Duration.ofHours(1), keep, maxDisk), log,
                new Segments.Listener() {
                    @Override
                    public void closed(Segment s) {
                        closedSeen.add(s);
                    }
                }, s -> made[0] = s);
        long start = Posix.realtimeNanos();
        f.open(new CaptureMetadata("host", start, "test", List.of("watch"), Map.of()), start);
        Segments s = made[0];
        s.process(new ProcessInfo(PID, 1, "server", 130001, 0, 1 << 20, start));
        return s;
    }

    /** Names, shapes, a device and a clock pair: what the agent sends once per arming. */
    private static RingRecords once() {
        long now = Posix.realtimeNanos();
        return new RingRecords().string(1, GEMM).string(2, NORM).kernelDesc(10, 1, 0, 7).kernelDesc(11, 2, 0, 7)
                .clockSync(now, now, Posix.monotonicNanos());
    }

    private static void kernels(Segments s, int n, long t0) throws IOException {
        RingRecords r = new RingRecords();
        for (int i = 0; i < n; i++) {
            r.kernel(t0 + i * 1000L, t0 + i * 1000L + 500, i + 1, i % 3 == 0 ? 11 : 10);
        }
        s.records(PID, r.segment(), 0, r.size());
    }

    /** Kernels by name in a file, decoded by the file's own reader. */
    private static Map<String, Long> kernelNames(Path file) throws IOException {
        Map<String, Long> names = new TreeMap<>();
        try (CaptureReader r = CaptureReader.open(file)) {
            assertEquals(0, r.damagedChunks(), file + " reads whole");
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int corr, KernelDesc d, String name) {
                    names.merge(name, 1L, Long::sum);
                }
            });
        }
        return names;
    }

    @Test
    void everySegmentReadsAloneWithItsKernelsNamedAndADumpOfTwoHoldsBothAndNothingTwice(@TempDir Path dir)
            throws IOException {
        List<Segment> closed = new ArrayList<>();
        Segments s = open(dir, Duration.ofHours(1), 1L << 30, closed);
        s.records(PID, once().segment(), 0, once().size());
        long t = Posix.realtimeNanos();
        kernels(s, 300, t);
        s.cut(Map.of(PID, new AgentCounters(310, 0, 2, 1, 0, 1)));
        kernels(s, 600, t + 1_000_000_000L);
        s.cut(Map.of(PID, new AgentCounters(915, 0, 5, 3, 0, 1)));
        kernels(s, 90, t + 2_000_000_000L);
        s.processEnd(PID, new AgentCounters(1010, 0, 5, 3, 0, 1));
        s.close();

        assertEquals(3, closed.size());
        // Hand tally: every third kernel (i % 3 == 0) is the norm.
        assertEquals(Map.of(GEMM, 200L, NORM, 100L), kernelNames(closed.get(0).path()));
        assertEquals(Map.of(GEMM, 400L, NORM, 200L), kernelNames(closed.get(1).path()));
        assertEquals(Map.of(GEMM, 60L, NORM, 30L), kernelNames(closed.get(2).path()));
        for (Segment seg : closed) {
            assertTrue(seg.bodyOffset() > 0 && seg.bodyOffset() <= seg.bytes(), "prelude within " + seg);
        }

        Path dump = dir.resolve("dump.vprof");
        DumpFile.Made m = DumpFile.write(closed.subList(1, 3), dump, List.of("watch"), Map.of("watch-trigger", "test"));
        assertEquals(Map.of(GEMM, 460L, NORM, 230L), kernelNames(dump), "the second and third segments, once each");
        assertEquals(690, m.kernels());
        assertEquals(closed.get(1).startEpochNs(), m.startEpochNs());
        assertEquals(closed.get(2).endEpochNs(), m.endEpochNs());
        try (CaptureReader r = CaptureReader.open(dump)) {
            // Each segment's share of the agent's counters, summed: 915-310 + 1010-915 records, 5-2 ring drops.
            AgentCounters c = r.counters().get(PID);
            assertEquals(700, c.records());
            assertEquals(3, c.ringDrops());
            assertEquals("test", r.metadata().orElseThrow().options().get("watch-trigger"));
            Report report = CaptureReport.build(r, 10);
            assertEquals(690, report.totals().kernels());
            assertTrue(report.warnings().stream().noneMatch(w -> w.contains("unknown kernel")), report.warnings().toString());
        }
        assertTrue(Files.size(m.page()) > 0 && Files.readString(m.text()).contains("690 kernels"),
                "the report beside the dump: " + Files.readString(m.text()));
        try (Stream<Path> beside = Files.list(dir)) {
            List<Path> temporary = beside.filter(p -> Leftovers.isTemporary(p) || p.toString().endsWith(".part")).toList();
            assertEquals(List.of(), temporary, "the dump, its page and its text are moved into place whole");
        }
    }

    @Test
    void aSegmentPastKeepIsDeletedOnlyOnceTheRestCoverKeepAndAPinnedOneStays(@TempDir Path dir) throws Exception {
        List<Segment> closed = new ArrayList<>();
        Segments s = open(dir, Duration.ofMillis(300), 1L << 30, closed);
        s.records(PID, once().segment(), 0, once().size());
        long pin = 0;
        for (int i = 0; i < 6; i++) {
            kernels(s, 50, Posix.realtimeNanos());
            TimeUnit.MILLISECONDS.sleep(120);
            if (i == 1) {
                pin = s.pin(closed.getFirst().endEpochNs() + 1);
            }
            s.cut(Map.of());
        }
        List<Segment> left = s.closedSegments();
        long now = Posix.realtimeNanos();
        // Pinned: the second segment and every later one stay.
        assertEquals(closed.get(1), left.getFirst(), "the pin kept " + closed.get(1) + "; left " + left);
        s.unpin(pin);
        s.cut(Map.of());
        left = s.closedSegments();
        Segment oldest = left.getFirst();
        long nextStart = left.size() > 1 ? left.get(1).startEpochNs() : now;
        assertTrue(Posix.realtimeNanos() - nextStart < Duration.ofMillis(300).toNanos() + 50_000_000L,
                "without the oldest the window would be shorter than --keep");
        assertFalse(Files.exists(closed.getFirst().path()), "the first segment was deleted");
        assertTrue(Files.exists(oldest.path()));
        assertEquals(left.size(), Files.list(dir).filter(p -> p.toString().endsWith(".vprof")).count() - 1,
                "the closed segments and the open one are all that is on disk");
        s.close();
    }

    @Test
    void pastMaxDiskTheOldestSegmentsGoAndItIsSaidOnce(@TempDir Path dir) throws IOException {
        List<Segment> closed = new ArrayList<>();
        Segments s = open(dir, Duration.ofHours(1), 200_000, closed);
        s.records(PID, once().segment(), 0, once().size());
        for (int i = 0; i < 8; i++) {
            kernels(s, 2000, Posix.realtimeNanos()); // 2000 x 32 bytes a segment
            s.cut(Map.of());
        }
        s.close();
        assertTrue(s.stats().droppedForDisk() > 0);
        assertTrue(s.bytesWritten() <= 200_000 + 70_000, "within --max-disk and one segment: " + s.bytesWritten());
        assertEquals(1, logText.toString().lines().filter(l -> l.contains("--max-disk")).count(), logText.toString());
        List<Segment> left = s.closedSegments();
        Segment newest = left.get(left.size() - 2); // the last one is the empty segment close() ended
        assertEquals(Map.of(GEMM, 1333L, NORM, 667L), kernelNames(newest.path()), "the newest still names its kernels");
    }

    @Test
    void aFullDiskDeletesTheOldestSegmentAndTheWindowGoesOn(@TempDir Path tmp) throws Exception {
        assumeTrue(Posix.getuid() == 0, "mounting a small tmpfs needs root");
        Path small = tmp.resolve("small");
        Files.createDirectories(small);
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", small.toString())
                .redirectErrorStream(true).start();
        assumeTrue(m.waitFor() == 0, "mount -t tmpfs failed: " + new String(m.getInputStream().readAllBytes()));
        try {
            List<Segment> closed = new ArrayList<>();
            Segments s = open(small, Duration.ofHours(1), 1L << 30, closed);
            s.records(PID, once().segment(), 0, once().size());
            for (int i = 0; i < 20; i++) {
                kernels(s, 20_000, Posix.realtimeNanos()); // 640 kB of records a segment
                s.cut(Map.of());
            }
            s.close();
            Segments.Stats st = s.stats();
            assertTrue(st.diskFullEvents() > 0, "the 3 MiB disk filled: " + st);
            assertTrue(st.droppedForDisk() > 0);
            assertTrue(logText.toString().contains("deleted the oldest segment"), logText.toString());
            List<Segment> left = s.closedSegments();
            // The newest that holds records (close() ended an empty one; a write that failed lost its records).
            Segment newest = left.reversed().stream().filter(x -> x.bytes() > 100_000).findFirst().orElseThrow();
            Map<String, Long> names = kernelNames(newest.path());
            assertFalse(names.containsKey(RecordDecoder.UNKNOWN_KERNEL), "the newest segment names its kernels: " + names);
            assertTrue(names.values().stream().mapToLong(Long::longValue).sum() > 0, left + "\n" + logText);
        } finally {
            new ProcessBuilder("umount", "-l", small.toString()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
