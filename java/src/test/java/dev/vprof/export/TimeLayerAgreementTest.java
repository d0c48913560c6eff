package dev.vprof.export;

import static dev.vprof.adapt.SyntheticCapture.MS;
import static dev.vprof.adapt.SyntheticCapture.PID;
import static dev.vprof.adapt.SyntheticCapture.R0;
import static dev.vprof.adapt.SyntheticCapture.SEC;
import static dev.vprof.adapt.SyntheticCapture.at;
import static dev.vprof.adapt.SyntheticCapture.cupti;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.RangeRecord;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.capture.SpansV1;
import dev.vprof.capture.WindowChunk;
import dev.vprof.cli.Main;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.Span;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report and the Perfetto trace place a capture on one clock: the same range edges, the same
 * window and the same requests inside it, for one file. The agent's CLOCK_REALTIME reading of each
 * edge is 2 ms later than its CUPTI time mapped through the clock pairs (the kernels' clock), and
 * requests start and end exactly on the mapped edges, so two rules for an edge would put them on
 * different sides. Once with the WINDOW chunk the engine writes, once without (an older or cut
 * file, whose window comes from its ranges).
 */
class TimeLayerAgreementTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How much later than the mapped CUPTI time the agent read CLOCK_REALTIME at each edge. */
    private static final long REALTIME_LATE_NS = 2 * MS;

    @TempDir
    Path dir;

    private Path capture(boolean withWindowChunk) throws Exception {
        Path file = dir.resolve(withWindowChunk ? "window.vprof" : "nowindow.vprof");
        try (CaptureWriter w = SyntheticCapture.create(file, "python3 serve.py")) {
            RingRecords r = SyntheticCapture.clockPairs();
            r.string(1, "gemm").kernelDesc(1, 1, 0, 7);
            r.writeTo(w, PID);
            SyntheticCapture.range(w, VprofRing.RANGE_BEGIN, at(500) + REALTIME_LATE_NS, cupti(at(500)));
            r.kernel(cupti(at(1000)), cupti(at(1100)), 4, 1).kernel(cupti(at(9000)), cupti(at(9400)), 5, 1);
            r.writeTo(w, PID);
            SyntheticCapture.range(w, VprofRing.RANGE_END, at(9500) + REALTIME_LATE_NS, cupti(at(9500)));
            List<Span> spans = List.of(
                    SyntheticCapture.request(1, 1, -1, "starts-on-the-begin-edge", 500, 3000, 0.5, 1.0, 1.0),
                    SyntheticCapture.request(2, 2, -1, "ends-on-the-end-edge", 8000, 9500, 0.5, 0.5, 0.5),
                    SyntheticCapture.request(3, 3, -1, "well-inside", 4000, 5000, 0.2, 0.3, 0.5));
            w.chunk(CaptureFormat.KIND_SPANS, SpansV1.encode(spans));
            if (withWindowChunk) {
                w.chunk(CaptureFormat.KIND_WINDOW, new WindowChunk(at(500), at(9500), Map.of()).toJson());
            }
        }
        return file;
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
        assertEquals(0, code, String.join(" ", args) + ": " + err);
        return out.toString();
    }

    @ParameterizedTest(name = "with a WINDOW chunk: {0}")
    @ValueSource(booleans = {false, true})
    void reportAndTraceAgreeOnEdgesWindowAndRequests(boolean withWindowChunk) throws Exception {
        Path file = capture(withWindowChunk);
        JsonNode report = JSON.readTree(run("report", "--json", file.toString()));
        Path pftrace = dir.resolve(file.getFileName() + ".pftrace");
        run("export", file.toString(), "-o", pftrace.toString());
        PerfettoTraceReader trace = PerfettoTraceReader.read(Files.readAllBytes(pftrace));

        List<PerfettoTraceReader.Slice> ranges = trace.slices(trace.trackNamed("Capture ranges").uuid());
        assertEquals(1, ranges.size());
        JsonNode range = report.path("ranges").get(0);
        assertEquals(ranges.get(0).start(), range.path("start_ns").asLong(), "the begin edge");
        assertEquals(ranges.get(0).end(), range.path("end_ns").asLong(), "the end edge");
        assertTrue(Math.abs(range.path("start_ns").asLong() - at(500)) < 1000,
                "the edge is the kernels' clock, not the agent's later CLOCK_REALTIME reading");

        CaptureTimeline.Result exported;
        try (CaptureReader reader = CaptureReader.open(file)) {
            exported = CaptureTimeline.stream(reader, KernelNames.demangled(), null);
        }
        assertEquals(exported.window().startNs(), report.path("window").path("start_ns").asLong(), "window start");
        assertEquals(exported.window().endNs(), report.path("window").path("end_ns").asLong(), "window end");
        assertEquals(exported.window().source(), report.path("window").path("source").asText());
        assertEquals(exported.requests(), report.path("spans").path("requests").asInt(), "requests inside the window");
        assertEquals(3, exported.requests(), "the requests on the edges are inside on both sides");
    }
}
