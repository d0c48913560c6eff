package dev.vprof.cli;

import static dev.vprof.cli.PrometheusWatchTest.await;
import static dev.vprof.cli.PrometheusWatchTest.awaitDormant;
import static dev.vprof.cli.PrometheusWatchTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --armed 20%} over a target launching at a steady pace: the window holds kernels only in
 * the armed fifth of each 2 s cycle (the kernels' own timestamps, against the steady launch rate
 * the target reports), and a dump asked meanwhile is recorded whole through its {@code --after}.
 */
class WatchDutyCycleTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theAgentsRecordTheArmedShareOfEachCycleAndAPendingDumpKeepsThemArmed(@TempDir Path dir) throws Exception {
        E2e e2e = E2e.nativeParts();
        Path log = dir.resolve("sim.log");
        Process sim = e2e.startTarget(log, "--duration", "40s", "--step-us", "1000");
        try {
            awaitDormant(sim.pid());
            Path err = dir.resolve("watch.err");
            Path w = dir.resolve("w");
            Process watch = new ProcessBuilder(e2e.vprofCommand("watch", "--pid", Long.toString(sim.pid()), "--dir",
                    w.toString(), "--keep", "60s", "--segment", "2s", "--armed", "20%", "--armed-cycle", "2s",
                    "--before", "1s", "--after", "3s", "--duration", "16s"))
                    .redirectErrorStream(true).redirectOutput(err.toFile()).start();
            await(() -> read(err).contains("recording the last"), 60, "the watch's start: " + read(err));
            Thread.sleep(8000);
            new ProcessBuilder("kill", "-USR1", Long.toString(watch.pid())).start().waitFor();
            assertTrue(watch.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, watch.exitValue(), read(err));

            // Every kernel the window holds, by its start (epoch ns).
            List<Long> starts = Collections.synchronizedList(new ArrayList<>());
            List<Path> segments;
            try (Stream<Path> s = Files.list(w.resolve("segments"))) {
                segments = s.filter(p -> p.toString().endsWith(".vprof")).sorted().toList();
            }
            for (Path seg : segments) {
                try (CaptureReader r = CaptureReader.open(seg)) {
                    r.forEachRecord(new RecordVisitor() {
                        @Override
                        public void kernel(int pid, long start, long end, int corr, KernelDesc d, String name) {
                            starts.add(r.clock(pid).toEpochNs(start));
                        }
                    });
                }
            }
            Path dump;
            try (Stream<Path> s = Files.list(w)) {
                dump = s.filter(p -> p.getFileName().toString().matches("dump-1-.*\\.vprof")).findFirst().orElseThrow();
            }
            long trigger;
            try (CaptureReader r = CaptureReader.open(dump)) {
                trigger = Long.parseLong(r.metadata().orElseThrow().options().get("watch-trigger-epoch-ns"));
            }
            // The target's own launch rate, from its summary line once it stops.
            E2e.stopTree(sim.pid());
            long launched = E2e.simCount(log, "kernels");
            double perSecond = launched / (E2e.simCount(log, "loop_ns") / 1e9);
            List<Long> sorted = new ArrayList<>(starts);
            Collections.sort(sorted);
            long first = sorted.getFirst();
            long last = sorted.getLast();
            double spanS = (last - first) / 1e9;
            long held = sorted.stream().filter(t -> t >= trigger && t < trigger + 3_000_000_000L).count();
            long outsideHold = sorted.size() - sorted.stream().filter(t -> t >= trigger && t < trigger + 3_200_000_000L).count();
            double armedShare = outsideHold / (perSecond * (spanS - 3));
            System.out.printf("DUTY: %d kernels over %.1f s; outside the hold %.2f of the launches (armed 20%%); "
                    + "%d in the 3 s after the trigger (%.2f of them)%n", sorted.size(), spanS, armedShare, held,
                    held / (3 * perSecond));
            assertTrue(armedShare > 0.10 && armedShare < 0.35, "the armed share outside the hold: " + armedShare);
            assertTrue(held >= 0.8 * 3 * perSecond, "recorded through the --after window: " + held);
        } finally {
            if (sim.isAlive()) {
                E2e.stopTree(sim.pid());
            }
        }
    }
}
