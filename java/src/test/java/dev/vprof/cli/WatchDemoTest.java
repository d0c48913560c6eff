package dev.vprof.cli;

import static dev.vprof.cli.PrometheusWatchTest.await;
import static dev.vprof.cli.PrometheusWatchTest.freePort;
import static dev.vprof.cli.PrometheusWatchTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.loadgen.BenchResult;
import dev.vprof.loadgen.LoadGenerator;
import dev.vprof.nativelib.Posix;
import dev.vprof.otlp.Span;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flight recorder's acceptance against {@code vprof demo --serve} under its own steady load,
 * each in a JVM of its own: a burst makes {@code ttft_p99 > 500ms} fire; the dump holds every
 * request of the burst (the load generator's trace ids, the oracle) and kernels recorded in the
 * {@code --before} window (by their timestamps, before the trigger); its verdict is queue-bound;
 * a SIGUSR1 within {@code --min-interval} is refused, and a second burst after it makes exactly
 * one more dump.
 */
class WatchDemoTest {
    private static final Pattern URL = Pattern.compile("\\(([^)]+)\\) at (http://127\\.0\\.0\\.1:\\d+)");
    private static final Pattern SERVER = Pattern.compile("server pid: (\\d+)");
    private static final Pattern MADE = Pattern.compile("vprof watch: dump (\\d+) \\(condition: [^\\n]*\\): (\\S+\\.vprof), ");
    private static final long BEFORE_NS = 10_000_000_000L;
    private static final int MIN_INTERVAL_S = 30;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aBurstFiresTheTtftConditionAndTheDumpHoldsItsRequestsTheKernelsBeforeAndAQueueBoundVerdict(@TempDir Path dir)
            throws Exception {
        E2e e2e = E2e.nativeParts();
        int otlpPort = freePort();
        Process serve = new ProcessBuilder(e2e.vprofCommand("demo", "--serve", "--port", "0", "--load", "4",
                "--otlp", "127.0.0.1:" + otlpPort, "--dir", dir.resolve("logs").toString()))
                .redirectError(dir.resolve("serve.err").toFile()).start();
        Process watch = null;
        Path err = dir.resolve("watch.err");
        try {
            LinkedBlockingQueue<String> lines = E2e.stdoutLines(serve);
            String base = null;
            String model = null;
            int server = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((base == null || server == 0) && System.nanoTime() < deadline) {
                String l = lines.poll(1, TimeUnit.SECONDS);
                if (l == null) {
                    assertTrue(serve.isAlive(), "demo --serve exited: " + read(dir.resolve("serve.err")));
                    continue;
                }
                Matcher u = URL.matcher(l);
                if (u.find()) {
                    model = u.group(1);
                    base = u.group(2);
                }
                Matcher s = SERVER.matcher(l);
                if (s.find()) {
                    server = Integer.parseInt(s.group(1));
                }
            }
            assertNotNull(base, "the demo's URL");
            watch = new ProcessBuilder(e2e.vprofCommand("watch", "--pid", Integer.toString(server),
                    "--dir", dir.resolve("w").toString(), "--metrics", base + "/metrics", "--metrics-interval", "500ms",
                    "--otlp-http", Integer.toString(otlpPort), "--otlp-grpc", "off",
                    "--when", "ttft_p99[5s] > 500ms for 1s", "--keep", "40s", "--segment", "2s", "--before", "10s",
                    "--after", "8s", "--min-interval", MIN_INTERVAL_S + "s"))
                    .redirectErrorStream(true).redirectOutput(err.toFile()).start();
            Process w = watch;
            await(() -> read(err).contains("dumps when ttft_p99"), 60, "the watch's start: " + read(err));
            // The window fills with the demo's steady load (4 requests/s, TTFT far below 500 ms).
            Thread.sleep(12_000);
            assertTrue(w.isAlive(), read(err));
            assertEquals(0, count(read(err), "asked by"), "no dump under the steady load: " + read(err));

            // Burst 1: 64 requests at once, four times the server's 16 batch slots.
            URI server0 = URI.create(base);
            long burstAt = Posix.realtimeNanos();
            List<LoadGenerator.RequestResult> sent = Collections.synchronizedList(new ArrayList<>());
            BenchResult burst = new LoadGenerator().run(new LoadGenerator.Plan(server0, model, 64,
                    Double.POSITIVE_INFINITY, 200, 1200, 48, false, 7), sent::add);
            assertEquals(0, burst.failed(), "the burst's requests");
            await(() -> MADE.matcher(read(err)).find(), 60, "a dump: " + read(err));
            Matcher m = MADE.matcher(read(err));
            assertTrue(m.find());
            Path dump1 = Path.of(m.group(2));

            // Within --min-interval: SIGUSR1 is refused, and the condition, still holding, asks nothing.
            new ProcessBuilder("kill", "-USR1", Long.toString(w.pid())).start().waitFor();
            await(() -> read(err).contains("signal (SIGUSR1) refused"), 20, "the refusal: " + read(err));

            JsonNode report = E2e.report(dump1); // exit 0: no read-partly warning
            assertEquals("queue_bound", report.at("/verdict/verdict").asText(), "verdict: " + report.get("verdict"));
            long trigger;
            Set<String> traces = new HashSet<>();
            long[] before = new long[2];
            try (CaptureReader r = CaptureReader.open(dump1)) {
                assertEquals(0, r.damagedChunks());
                trigger = Long.parseLong(r.metadata().orElseThrow().options().get("watch-trigger-epoch-ns"));
                for (Span s : r.spans().spans()) {
                    traces.add(s.traceIdHex());
                }
                r.forEachRecord(new RecordVisitor() {
                    @Override
                    public void kernel(int pid, long start, long end, int corr, KernelDesc d, String name) {
                        long at = r.clock(pid).toEpochNs(start);
                        if (at < trigger && at >= trigger - BEFORE_NS) {
                            before[0]++;
                        }
                        if (at < burstAt) {
                            before[1]++;
                        }
                    }
                });
            }
            assertTrue(trigger > burstAt, "the trigger came after the burst was sent");
            List<String> missing = new ArrayList<>();
            assertEquals(64, sent.size());
            for (LoadGenerator.RequestResult q : sent) {
                if (!traces.contains(q.traceId())) {
                    missing.add(q.traceId());
                }
            }
            assertTrue(missing.isEmpty(), missing.size() + " of the burst's 64 requests are not in the dump: " + missing);
            assertTrue(before[0] > 0, "kernels recorded in the --before window, before the trigger");
            assertTrue(before[1] > 0, "kernels of the steady load before the burst was even sent");

            // After --min-interval, burst 2 makes exactly one more dump.
            long wait = MIN_INTERVAL_S * 1000L - (Posix.realtimeNanos() - trigger) / 1_000_000 + 1000;
            if (wait > 0) {
                Thread.sleep(wait);
            }
            assertEquals(1, count(read(err), " asked by "), "one dump within the interval: " + read(err));
            new LoadGenerator().run(new LoadGenerator.Plan(server0, model, 64, Double.POSITIVE_INFINITY, 200, 1200,
                    48, false, 8), r -> { });
            await(() -> count(read(err), "asked by condition") == 2, 60, "the second dump: " + read(err));
            await(() -> count(read(err), "): " + dir.resolve("w")) == 2, 60, "the second dump written: " + read(err));

            w.destroy();
            assertTrue(w.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, w.exitValue(), read(err));
            assertEquals(2, count(read(err), "asked by condition"), read(err));
        } finally {
            if (watch != null && watch.isAlive()) {
                watch.destroyForcibly();
            }
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
