package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.otlp.Span;
import dev.vprof.source.CaptureSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's capture split where its burst begins: the steady requests against the burst. The
 * burst's start is found from the capture's own spans, here: the demo sends {@value #BURST}
 * requests at once after the steady ones, so it begins with the earliest of the last
 * {@value #BURST} requests to start. What must come out is the demo's story: TTFT up, the time in
 * the queue, GPU time per request not up, "not a kernel regression".
 */
@Timeout(180)
class DiffDemoSplitTest {
    static final int BURST = 24;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path capture;
    static String splitAt;

    @BeforeAll
    static void runTheDemo() throws Exception {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"));
        assertTrue(Files.isExecutable(nat.resolve("vprof-simgpu")), "vprof-simgpu not built: make -C native");
        Cli.Result r = Cli.run("demo", "--dir", dir.toString(), "--steady", "12", "--rate", "8", "--burst",
                Integer.toString(BURST), "--max-tokens", "16");
        assertEquals(0, r.code(), r.err());
        capture = dir.resolve("capture.vprof");
        try (CaptureReader reader = CaptureSources.open(capture)) {
            long windowStart = reader.window().orElseThrow().startEpochNs();
            List<Long> starts = new ArrayList<>();
            for (Span s : reader.spans().spans()) {
                if (s.name().equals("llm_request")) {
                    starts.add(s.startEpochNs());
                }
            }
            starts.sort(null);
            assertTrue(starts.size() >= 12 + BURST, "every request has a span: " + starts.size());
            long burstStart = starts.get(starts.size() - BURST);
            // A little before the first burst request: the split instant itself belongs to the new side.
            splitAt = String.format(Locale.ROOT, "%.3fs", (burstStart - windowStart - 1_000_000) / 1e9);
        }
    }

    @Test
    void theBurstRaisesTtftInTheQueueAndIsNotAKernelRegression() throws Exception {
        Cli.Result j = Cli.run("diff", "--json", capture.toString(), "--split-at", splitAt);
        assertEquals(0, j.code(), j.err());
        JsonNode d = JSON.readTree(j.out());
        JsonNode req = d.get("requests");
        assertEquals(BURST, req.get("new_requests").asInt(), "the burst's requests on the new side");
        JsonNode ttft = req.get("latencies").get(0);
        assertEquals("ttft", ttft.get("name").asText());
        assertTrue(ttft.get("new_p99").asDouble() > ttft.get("base_p99").asDouble(), ttft.toString());
        assertTrue(ttft.get("new_p50").asDouble() > ttft.get("base_p50").asDouble(), ttft.toString());
        assertEquals("queue", req.get("where").asText(), "the queue named as where the time went");
        assertTrue(req.get("gpu_cost").get("relative").asDouble() < 0.05, "GPU time per request not up: "
                + req.get("gpu_cost"));
        assertEquals(false, req.get("kernel_regression").asBoolean());
        assertEquals("request", d.get("basis").get("unit").asText());

        Cli.Result t = Cli.run("diff", capture.toString(), "--split-at", splitAt);
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("not a kernel regression"), t.out());
        assertTrue(t.out().contains("the time went to the queue"), t.out());
    }

    /** {@code vprof report --request ID}: the kernels that start while that request runs, counted here from the file. */
    @Test
    void theReportOfOneRequest() throws Exception {
        JsonNode whole = JSON.readTree(Cli.run("report", "--json", capture.toString()).out());
        JsonNode req = whole.get("slowest_requests").get(0);
        long from = req.get("start_ns").asLong(), to = from + req.get("e2e_ns").asLong();
        long[] n = {0};
        try (CaptureReader r = CaptureSources.open(capture)) {
            java.util.Map<Integer, dev.vprof.capture.ClockMapping> clocks = r.clocks();
            r.forEachRecord(new dev.vprof.capture.RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int c, dev.vprof.capture.KernelDesc d, String name) {
                    long t = clocks.get(pid).toEpochNs(start);
                    if (t >= from && t < to) {
                        n[0]++;
                    }
                }
            });
        }
        Cli.Result one = Cli.run("report", "--json", "--request", req.get("request_id").asText(), capture.toString());
        assertEquals(0, one.code(), one.err());
        assertEquals(n[0], JSON.readTree(one.out()).get("totals").get("kernels").asLong());
        assertTrue(n[0] > 0);
    }

    @Test
    void theSlowestRequestsAgainstTheRest() throws Exception {
        Cli.Result j = Cli.run("diff", "--json", capture.toString(), "--slow-requests", "25");
        assertEquals(0, j.code(), j.err());
        JsonNode d = JSON.readTree(j.out());
        JsonNode req = d.get("requests");
        int all = req.get("base_requests").asInt() + req.get("new_requests").asInt();
        assertEquals((int) Math.ceil(0.25 * all), req.get("new_requests").asInt());
        JsonNode e2e = req.get("latencies").get(4);
        assertEquals("e2e", e2e.get("name").asText());
        assertTrue(e2e.get("new_p50").asDouble() >= e2e.get("base_p99").asDouble(), "the slow set is the slowest: " + e2e);
    }
}
