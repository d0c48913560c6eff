package dev.vprof.time;

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
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.RangeRecord;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.capture.WindowChunk;
import dev.vprof.cli.Cli;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code vprof diff --split-at T} and {@code vprof report --window} cut one file at the same instant,
 * with the WINDOW chunk the engine writes and without it (then the capture's start is its first range
 * edge). The agent read CLOCK_REALTIME at the range's begin 2 ms after its CUPTI time mapped through
 * the clock pairs, and one kernel (named for where it lies) starts every 0.5 ms around T, so a second
 * rule for the capture's start, or for an edge of the cut, moves kernels across T. The oracle is the
 * test's own placement of each kernel against T.
 */
class SplitAtAndWindowAgreeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long REALTIME_LATE_NS = 2 * MS;
    /** The capture starts at 500 ms (its range's begin, on the kernels' clock), T = 4 s after it. */
    private static final long START_MS = 500;
    private static final long T_NS = 4 * SEC;
    /** Kernels at T + k * 0.5 ms for k in [-8, 8). */
    private static final int HALF_MS_STEPS = 8;

    @TempDir
    Path dir;

    private Path capture(boolean withWindowChunk) throws Exception {
        Path file = dir.resolve(withWindowChunk ? "window.vprof" : "nowindow.vprof");
        try (CaptureWriter w = SyntheticCapture.create(file, "python3 serve.py")) {
            RingRecords r = SyntheticCapture.clockPairs();
            for (int k = -HALF_MS_STEPS; k < HALF_MS_STEPS; k++) {
                int id = k + HALF_MS_STEPS + 1;
                r.string(id, name(k)).kernelDesc(id, id, 0, 7);
            }
            r.writeTo(w, PID);
            SyntheticCapture.range(w, VprofRing.RANGE_BEGIN, at(START_MS) + REALTIME_LATE_NS, cupti(at(START_MS)));
            for (int k = -HALF_MS_STEPS; k < HALF_MS_STEPS; k++) {
                long t = at(START_MS) + T_NS + k * MS / 2;
                r.kernel(cupti(t), cupti(t + 100_000), 10 + k + HALF_MS_STEPS, k + HALF_MS_STEPS + 1);
            }
            r.writeTo(w, PID);
            SyntheticCapture.range(w, VprofRing.RANGE_END, at(9500) + REALTIME_LATE_NS, cupti(at(9500)));
            if (withWindowChunk) {
                w.chunk(CaptureFormat.KIND_WINDOW, new WindowChunk(at(START_MS), at(9500), Map.of()).toJson());
            }
        }
        return file;
    }

    private static String name(int k) {
        return k < 0 ? "before_" + (-k) : "after_" + k;
    }

    private static JsonNode run(String... args) throws Exception {
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.code(), String.join(" ", args) + ": " + r.err());
        return JSON.readTree(r.out());
    }

    private static TreeSet<String> reportNames(JsonNode report) {
        TreeSet<String> names = new TreeSet<>();
        report.get("top_kernels").forEach(k -> names.add(k.get("name").asText()));
        return names;
    }

    private static TreeSet<String> diffNames(JsonNode diff, String side) {
        TreeSet<String> names = new TreeSet<>();
        diff.get("kernels").forEach(k -> {
            if (k.get(side).get("count").asLong() > 0) {
                names.add(k.get("name").asText());
            }
        });
        return names;
    }

    @ParameterizedTest(name = "with a WINDOW chunk: {0}")
    @ValueSource(booleans = {false, true})
    void theKernelsOnEachSideOfTAreTheSameInReportAndDiff(boolean withWindowChunk) throws Exception {
        Path file = capture(withWindowChunk);
        TreeSet<String> before = new TreeSet<>(), after = new TreeSet<>();
        for (int k = -HALF_MS_STEPS; k < HALF_MS_STEPS; k++) {
            (k < 0 ? before : after).add(name(k)); // a kernel at T itself starts the second part
        }
        String t = "4s";
        JsonNode first = run("report", "--json", "--top", "100", "--window", "0s.." + t, file.toString());
        JsonNode second = run("report", "--json", "--top", "100", "--window", t + "..", file.toString());
        // --force: the two sides run different kernels by construction, which the comparability gate refuses.
        JsonNode diff = run("diff", "--json", "--force", "--top", "100", file.toString(), "--split-at", t);
        assertEquals(before, reportNames(first), "report --window 0s..T");
        assertEquals(after, reportNames(second), "report --window T..");
        assertEquals(before, diffNames(diff, "base"), "diff --split-at T, before");
        assertEquals(after, diffNames(diff, "new"), "diff --split-at T, after");
        assertEquals(before.size(), diff.get("base").get("kernels").asLong());
        assertEquals(after.size(), diff.get("new").get("kernels").asLong());
        assertEquals(first.get("window").get("start_ns").asLong(), diff.get("base").get("start_ns").asLong(),
                "one start of the capture");
        assertTrue(Math.abs(first.get("window").get("start_ns").asLong() - at(START_MS)) < 1000,
                "the start is the range's edge on the kernels' clock, not the agent's later CLOCK_REALTIME reading");
    }
}
