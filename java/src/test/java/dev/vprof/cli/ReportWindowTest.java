package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.source.CaptureSources;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof report --window A..B}: only the GPU work that starts in the window, counted here
 * from the file directly (each kernel's start on the epoch clock against the recorded capture window).
 */
@Timeout(120)
class ReportWindowTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theWindowHoldsTheKernelsThatStartInIt() throws Exception {
        E2e e2e = E2e.nativeParts();
        Path file = dir.resolve("paced.vprof");
        E2e.run(List.of("-o", file.toString()), e2e.sim("--steps", "150", "--step-us", "2000"));
        long expected;
        long all;
        try (CaptureReader r = CaptureSources.open(file)) {
            long from = r.window().orElseThrow().startEpochNs() + 100_000_000L;
            long to = from + 100_000_000L;
            Map<Integer, ClockMapping> clocks = r.clocks();
            long[] n = {0, 0};
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int c, KernelDesc d, String name) {
                    long t = clocks.get(pid).toEpochNs(start);
                    n[1]++;
                    if (t >= from && t < to) {
                        n[0]++;
                    }
                }
            });
            expected = n[0];
            all = n[1];
        }
        assertTrue(expected > 0 && expected < all, expected + " of " + all);
        Cli.Result res = Cli.run("report", "--json", "--window", "100ms..200ms", file.toString());
        assertEquals(0, res.code(), res.err());
        JsonNode rep = JSON.readTree(res.out());
        assertEquals(expected, rep.get("totals").get("kernels").asLong());
        assertEquals(100_000_000L, rep.get("window").get("duration_ns").asLong());
        assertEquals(2, Cli.run("report", "--window", "10h..11h", file.toString()).code(), "past the end");
        assertEquals(2, Cli.run("report", "--request", "no-such-request", file.toString()).code());
    }
}
