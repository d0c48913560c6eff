package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.testing.HtaLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kineto export as a user meets it: a two-worker capture through {@code vprof run} over the
 * CUPTI test double, {@code vprof export --format kineto}, and the folder read the way Holistic
 * Trace Analysis reads it ({@link HtaLoader}). The figures are the double's, never a GPU's.
 */
class KinetoExportEndToEndTest {
    /** The simulator's options of the issue's capture, exactly. */
    private static final List<String> WORKLOAD = List.of("--workers", "2", "--steps", "300", "--kernels-per-step", "40",
            "--profiler-range", "50:250", "--step-us", "2000");

    @TempDir
    Path dir;

    private final E2e e2e = E2e.nativeParts();

    /** What {@code vprof run} said, for assertion messages. */
    private String runOutput = "";

    private Path capture(List<String> runOptions, List<String> extraSimOptions) throws Exception {
        Path file = dir.resolve("a.vprof");
        List<String> opts = new ArrayList<>(List.of("--capture-range=cudaProfilerApi", "-o", file.toString()));
        opts.addAll(runOptions);
        List<String> sim = new ArrayList<>(WORKLOAD);
        sim.addAll(extraSimOptions);
        Cli.Result run = E2e.run(opts, e2e.simLogged(dir.resolve("sim.log"), sim.toArray(String[]::new)));
        runOutput = "\nvprof run said:\n" + run.err() + "\nthe simulator said:\n" + Files.readString(dir.resolve("sim.log"));
        return file;
    }

    /** A folder of its own for the export, as HTA wants. */
    private Path traces() throws Exception {
        return Files.createDirectories(dir.resolve("traces"));
    }

    /** One file per rank with its rank, world size and device properties; HTA loads them. */
    @Test
    void everyRankOfATwoWorkerCaptureIsFoundOnceTheWayHtaLoadsTheFolder() throws Exception {
        Path file = capture(List.of(), List.of());
        Path traces = traces();
        Cli.Result export = E2e.ok(Cli.run("export", file.toString(), "-o", traces.resolve("trace.json").toString(),
                "--format", "kineto"));

        HtaLoader.Folder folder = HtaLoader.load(traces);
        assertEquals(2, folder.traceFiles().size(), "one file per process: " + folder.traceFiles() + runOutput);
        assertEquals(Set.of(0, 1), folder.rankToFile().keySet(), "ranks by the text scan: " + folder.scannedRank());
        assertEquals(2, folder.rankToFile().size(), "no file replaced another");
        long kernels = 0;
        Set<Integer> devicesWithWork = new TreeSet<>();
        for (Path f : folder.traceFiles()) {
            JsonNode trace = HtaLoader.parse(f);
            JsonNode info = trace.get("distributedInfo");
            assertEquals((int) folder.scannedRank().get(f), info.get("rank").asInt(), f + ": the text and the JSON agree");
            assertEquals(2, info.get("world_size").asInt(), f.toString());
            assertTrue(HtaLoader.text(f).contains("\"rank\": " + info.get("rank").asInt()), f.toString());
            List<JsonNode> k = HtaLoader.events(trace, "kernel");
            kernels += k.size();
            k.forEach(e -> devicesWithWork.add(e.get("args").get("device").asInt()));
            assertDevicePropertiesFilled(f, trace);
        }
        assertEquals(16000, kernels, "HTA's kernel count with the rank map: both workers' 8000");
        assertEquals(Set.of(0, 1), devicesWithWork, "each worker on its own GPU");

        Matcher m = Pattern.compile("wrote \\S+-pid(\\d+)\\.json \\(kineto, [^)]*\\): pid \\d+ \\(vprof-simgpu\\), "
                + "rank (\\d) of 2 \\(from RANK\\), 8400 GPU ops").matcher(export.out());
        Set<String> ranksSaid = new TreeSet<>();
        while (m.find()) {
            ranksSaid.add(m.group(2));
        }
        assertEquals(Set.of("0", "1"), ranksSaid, "a summary line per file with its own counts: " + export.out());
    }

    /** Every device a file's process knows gets Kineto's properties, from the capture's DEVICE records. */
    private static void assertDevicePropertiesFilled(Path f, JsonNode trace) {
        JsonNode props = trace.get("deviceProperties");
        Set<Integer> ids = new TreeSet<>();
        for (JsonNode d : props) {
            ids.add(d.get("id").asInt());
            assertFalse(d.path("name").asText().isEmpty(), f + ": " + d);
            for (String field : List.of("totalGlobalMem", "computeMajor", "numSms", "maxThreadsPerBlock",
                    "maxThreadsPerMultiprocessor", "regsPerBlock", "warpSize", "sharedMemPerBlock",
                    "regsPerMultiprocessor", "sharedMemPerMultiprocessor")) {
                assertTrue(d.path(field).asLong() > 0, f + ": " + field + " of " + d);
            }
            assertTrue(d.has("computeMinor"), d.toString());
        }
        assertEquals(Set.of(0, 1), ids, f + ": the double's node has two GPUs");
    }

    /** NVTX step ranges exported as ProfilerStep#N. */
    @Test
    void theSimulatorsStepRangesBecomeOneProfilerStepPerStepInTheRangeAndHtaAssignsEveryKernel() throws Exception {
        Path file = capture(List.of("--kinds", "kernel,memcpy,memset,nvtx,runtime"), List.of("--nvtx"));
        Path traces = traces();
        Cli.Result export = E2e.ok(Cli.run("export", file.toString(), "-o", traces.resolve("trace.json").toString(),
                "--format", "kineto", "--steps", "nvtx:step"));
        assertTrue(export.out().contains("HTA leaves the last step out of its analyses unless you pass "
                + "include_last_profiler_step=True"), export.out());

        HtaLoader.Folder folder = HtaLoader.load(traces);
        assertEquals(Set.of(0, 1), folder.rankToFile().keySet(), runOutput);
        for (Path f : folder.traceFiles()) {
            JsonNode trace = HtaLoader.parse(f);
            List<JsonNode> steps = HtaLoader.profilerSteps(trace);
            assertEquals(200, steps.size(), f + ": steps 50..249 of the simulator are in the profiler range");
            for (int i = 0; i < steps.size(); i++) {
                assertEquals("ProfilerStep#" + i, steps.get(i).get("name").asText());
                assertEquals("user_annotation", steps.get(i).get("cat").asText());
            }
            Map<Integer, Integer> kernelsPerIteration = new HashMap<>();
            HtaLoader.gpuIterations(trace, "kernel").forEach(it -> kernelsPerIteration.merge(it, 1, Integer::sum));
            assertFalse(kernelsPerIteration.containsKey(-1), f + ": a kernel HTA puts in no step");
            assertEquals(200, kernelsPerIteration.size(), f.toString());
            kernelsPerIteration.forEach((it, n) -> assertEquals(40, n, f + ": kernels of step " + it));
            assertEquals(199 * 40, HtaLoader.keptByDefault(trace, "kernel"),
                    f + ": HTA leaves the last step out by default (docs/viewers.md)");
        }
        assertTrue(Pattern.compile("rank 0 of 2 \\(from RANK\\), \\d+ GPU ops, 200 steps").matcher(export.out()).find(),
                export.out());
    }

    @Test
    void stepsWithoutApiCallsAreWrittenWithAWarningThatHtaWouldDropEveryKernel() throws Exception {
        Path file = capture(List.of(), List.of("--nvtx")); // the default kinds record no API calls
        Path traces = traces();
        Cli.Result r = Cli.run("export", file.toString(), "-o", traces.resolve("trace.json").toString(),
                "--format", "kineto", "--steps", "nvtx:step");
        assertEquals(0, r.code(), r.out() + r.err() + runOutput);
        assertTrue(r.err().contains("has no CUDA API calls in the capture"), r.err() + runOutput);
        assertTrue(r.err().contains("--kinds kernel,memcpy,memset,nvtx,runtime"), r.err());
        List<Path> written;
        try (var s = Files.list(traces)) {
            written = s.sorted().toList();
        }
        assertEquals(2, written.size(), "one file per worker");
        for (Path f : written) {
            String text = Files.readString(f);
            assertTrue(text.contains("\"name\": \"ProfilerStep#0\"") || text.contains("\"name\":\"ProfilerStep#0\""),
                    f + " carries the step annotations");
        }
    }
}
