package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * `vprof run` around the synthetic GPU process (the real agent behind
 * the CUPTI test double), each result checked in the capture file through `vprof report`.
 */
@Timeout(120)
class EndToEndTest {
    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    private static final String[] TWO_RANGES = {"--steps", "300", "--kernels-per-step", "40",
            "--profiler-range", "50:100", "--profiler-range", "200:230"};

    private Path capture(String... opts) {
        Path file = dir.resolve("a.vprof");
        List<String> o = new java.util.ArrayList<>(List.of(opts));
        o.addAll(List.of("-o", file.toString()));
        E2e.run(o, e2e.sim(TWO_RANGES));
        return file;
    }

    @Test
    void profilerRangesRepeatedRecordBothRangesWithExactly3200Kernels() {
        JsonNode r = E2e.report(capture("--capture-range=cudaProfilerApi", "--capture-range-end=repeat"));
        assertEquals(2, r.at("/totals/ranges").asInt(), r.toPrettyString());
        assertEquals(2, r.get("ranges").size(), r.toPrettyString());
        assertEquals(2000, r.at("/ranges/0/kernels").asLong(), "steps 50..99");
        assertEquals(1200, r.at("/ranges/1/kernels").asLong(), "steps 200..229");
        for (JsonNode range : r.get("ranges")) {
            assertEquals("profiler", range.get("source").asText());
            assertTrue(range.get("end_ns").asLong() > range.get("start_ns").asLong(), range.toPrettyString());
        }
        assertEquals(3200, E2e.kernels(r));
        assertEquals(0, E2e.lost(r), r.get("totals").toPrettyString());
        assertEquals(1, r.get("processes").size());
        assertTrue(r.at("/processes/0/command").asText().contains("vprof-simgpu"), r.toPrettyString());
    }

    @Test
    void profilerRangeWithStopRecordsOnlyTheFirstRange() {
        JsonNode r = E2e.report(capture("--capture-range=cudaProfilerApi", "--capture-range-end=stop"));
        assertEquals(1, r.get("ranges").size(), r.toPrettyString());
        assertEquals(2000, E2e.kernels(r));
        assertEquals(0, E2e.lost(r));
    }

    @Test
    void nvtxRangeRecordsExactlyTheKernelsOfItsSteps() {
        Path file = dir.resolve("n.vprof");
        E2e.run(List.of("--capture-range=nvtx:NAME", "-o", file.toString()),
                e2e.sim("--steps", "300", "--kernels-per-step", "40", "--nvtx-range", "NAME:10:20"));
        JsonNode r = E2e.report(file);
        assertEquals(400, E2e.kernels(r));
        assertEquals(1, r.get("ranges").size(), r.toPrettyString());
        assertEquals(0, E2e.lost(r));
    }

    /**
     * A 64 KiB ring holds about a thousand kernel records; one range of 20000 kernels reaches the
     * agent in a single forced flush (one CUPTI buffer), far faster than a front end that polls
     * every 200 us can drain it, so the ring overflows. Kernels only, so every record counted as
     * dropped by CUPTI is a kernel too.
     */
    @Test
    void aSmallRingAccountsForEveryKernelLaunchedInTheRangeAndSaysSoLoudly() throws Exception {
        Path file = dir.resolve("small.vprof");
        Path log = dir.resolve("sim.log");
        E2e.run(List.of("--capture-range=cudaProfilerApi", "--kinds=kernel", "--ring-size", "64k",
                        "-o", file.toString()),
                e2e.simLogged(log, "--steps", "600", "--kernels-per-step", "40", "--profiler-range", "50:550"));
        long launchedInRanges = E2e.simCount(log, "kernels_in_profiler_ranges");
        assertEquals(20000, launchedInRanges, "the simulator's own count");

        JsonNode r = E2e.report(file);
        JsonNode t = r.get("totals");
        long recorded = t.get("kernels").asLong();
        long ringDropped = t.get("ring_drops_kernels").asLong();
        long cuptiDropped = t.get("cupti_drops").asLong() + t.get("zero_timestamp_kernels").asLong();
        assertTrue(ringDropped > 0, "the 64k ring overflowed (else this test proves nothing): " + t.toPrettyString());
        assertEquals(launchedInRanges, recorded + ringDropped + cuptiDropped,
                "recorded + ring drops + CUPTI drops == kernels launched in the range: " + t.toPrettyString());

        Cli.Result text = E2e.ok(Cli.run("report", file.toString()));
        String warning = text.out().lines().filter(l -> l.startsWith("warning: ")).findFirst().orElse("");
        assertTrue(warning.contains(recorded + " kernels recorded + " + ringDropped + " kernels dropped by a full ring"),
                "a warning in the text report: " + text.out());
        assertTrue(warning.contains("= " + launchedInRanges) && warning.contains("--ring-size"), warning);
        Cli.Result json = E2e.ok(Cli.run("report", "--json", file.toString()));
        assertTrue(json.err().contains("vprof: warning: this capture lost records: " + recorded + " kernels recorded"), "--json still warns on stderr: " + json.err());
    }

    @Test
    void aCaptureCutShortIsReadUpToItsLastWholeChunkWithAWarning() throws Exception {
        Path file = capture("--capture-range=cudaProfilerApi", "--capture-range-end=repeat");
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length * 2 / 3));
        Cli.Result r = Cli.run("report", "--json", file.toString());
        assertEquals(3, r.code(), "read partly: " + r.err());
        assertTrue(r.err().contains("vprof: warning: " + file + " is cut short"), r.err());
        assertTrue(r.err().contains("vprof report: " + file + " was read only partly: it ends at byte "), r.err());
        JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertFalse(json.get("complete").asBoolean());
        assertTrue(E2e.kernels(json) <= 3200, json.get("totals").toPrettyString());
    }
}
