package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DecimalNode;
import dev.vprof.aggregate.StepOracle;
import dev.vprof.trace.TraceOracle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * `vprof report` of real PyTorch profiler traces: every kernel, each name's count and total
 * duration, equal an independent count of the file's kernel events (TraceOracle); names exactly as
 * in the file; a folder of ranks is one capture with a process per rank.
 */
class TorchTraceReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Path> cudaTraces() throws IOException {
        return TraceOracle.cudaTraces().stream();
    }

    @ParameterizedTest
    @MethodSource("cudaTraces")
    void reportCountsEveryKernelOfTheTraceByNameAndDuration(Path trace) throws IOException {
        TraceOracle.Kernels expected = TraceOracle.kernels(trace);
        Cli.Result r = Cli.run("report", "--json", "--top", "1000", trace.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode report = JSON.readTree(r.out());
        assertEquals(expected.count(), report.path("totals").path("kernels").asLong(), trace.toString());
        Map<String, List<Long>> got = new TreeMap<>();
        for (JsonNode k : report.get("top_kernels")) {
            got.put(k.get("name").asText(), List.of(k.get("count").asLong(), k.get("total_ns").asLong()));
        }
        Map<String, List<Long>> want = new TreeMap<>();
        expected.byName().forEach((name, c) -> want.put(name, List.of(c[0], c[1])));
        assertEquals(want, got, trace.toString());
    }

    /**
     * The step table: each ProfilerStep#N annotation of the trace, in order, with the kernels launched
     * inside it (by correlation id, else by the kernel's start), and the kernels of no step, equal
     * {@link StepOracle}'s count from the trace's JSON; the rows and the outside row add up to every
     * kernel of the report.
     */
    @ParameterizedTest
    @MethodSource("cudaTraces")
    void theStepTableHoldsEachProfilerStepAndTheKernelsLaunchedInIt(Path trace) throws IOException {
        StepOracle.Steps expected = StepOracle.of(trace);
        Cli.Result r = Cli.run("report", "--json", trace.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode report = JSON.readTree(r.out());
        JsonNode table = report.get("steps");
        if (expected.steps().isEmpty()) {
            assertTrue(table.isNull(), trace + ": no steps, no table");
            return;
        }
        assertEquals("ProfilerStep#N", table.get("rule").asText(), trace.toString());
        assertEquals(expected.steps().size(), table.get("count").asInt(), trace.toString());
        long kernels = 0;
        for (int i = 0; i < expected.steps().size(); i++) {
            StepOracle.Step want = expected.steps().get(i);
            JsonNode got = table.get("rows").get(i);
            assertEquals(want.name(), got.get("name").asText(), trace + " step " + i);
            assertEquals(want.kernels(), got.get("kernels").asLong(), trace + " " + want.name());
            assertEquals(want.gpuNs(), got.get("gpu_ns").asLong(), trace + " " + want.name());
            assertEquals(TraceOracle.ns(new DecimalNode(
                    want.endUs().subtract(want.startUs()))), got.get("duration_ns").asLong(), trace + " " + want.name());
            kernels += got.get("kernels").asLong();
        }
        assertEquals(expected.outsideKernels(), table.get("outside").get("kernels").asLong(), trace.toString());
        assertEquals(report.get("totals").get("kernels").asLong(), kernels + table.get("outside").get("kernels").asLong(),
                trace + ": every kernel in a step or outside");
        Cli.Result text = Cli.run("report", trace.toString());
        assertTrue(text.out().contains("steps (ProfilerStep#N): " + expected.steps().size() + ","), text.out());
        assertTrue(text.out().contains(expected.steps().getFirst().name()), text.out());
    }

    @Test
    void aFolderOfTwoRanksIsOneCaptureWithRanksZeroAndOneAndTheWorldSize() throws IOException {
        Path folder = TraceOracle.REAL.resolve("hta/trace_filter");
        int worldSize = TraceOracle.tree(folder.resolve("sampled_rank-0.json.gz"))
                .path("distributedInfo").path("world_size").asInt();
        Cli.Result r = Cli.run("report", "--json", folder.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode procs = JSON.readTree(r.out()).get("processes");
        assertEquals(2, procs.size());
        Set<Integer> ranks = new HashSet<>();
        for (JsonNode p : procs) {
            ranks.add(p.get("rank").asInt());
            assertEquals(worldSize, p.get("world_size").asInt());
        }
        assertEquals(Set.of(0, 1), ranks);
        assertEquals(128, worldSize);
        Cli.Result text = Cli.run("report", folder.toString());
        assertTrue(text.out().contains("rank 0 of 128") && text.out().contains("rank 1 of 128"), text.out());
    }

    @Test
    void importWritesACompactCaptureThatReportsTheSameKernelsAndRefusesToOverwrite(@TempDir Path dir)
            throws IOException {
        Path trace = TraceOracle.REAL.resolve("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
        Path out = dir.resolve("ns.vprof");
        Cli.Result imp = Cli.run("import", trace.toString(), "-o", out.toString());
        assertEquals(0, imp.code(), imp.err());
        assertTrue(Files.size(out) > 0);
        TraceOracle.Kernels expected = TraceOracle.kernels(trace);
        Cli.Result r = Cli.run("report", "--json", "--top", "1000", out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(expected.count(), JSON.readTree(r.out()).path("totals").path("kernels").asLong());

        Cli.Result again = Cli.run("import", trace.toString(), "-o", out.toString());
        assertEquals(2, again.code());
        assertTrue(again.err().contains("already exists") && again.err().contains("--force"), again.err());
        assertFalse(again.err().contains("Exception"), again.err());
    }

    @Test
    void aBadTraceIsOneSentenceAndExitTwoInEveryCommand(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.pt.trace.json");
        Files.writeString(bad, "{\"traceEvents\": [{\"ph\": \"X\",, }]}");
        for (String[] args : List.of(new String[] {"report", bad.toString()},
                new String[] {"export", bad.toString(), "-o", dir.resolve("x.pftrace").toString()},
                new String[] {"import", bad.toString(), "-o", dir.resolve("x.vprof").toString()})) {
            Cli.Result r = Cli.run(args);
            assertEquals(2, r.code(), args[0] + ": " + r.err());
            assertTrue(r.err().contains("is not valid JSON"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
        }
        assertFalse(Files.exists(dir.resolve("x.vprof")));
    }

    @Test
    void cpuOpsAreCountedApartFromNvtxRangesAndThePrecisionIsShown() throws IOException {
        Path trace = TraceOracle.REAL.resolve("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
        long annotations = 0;
        long cpu = 0;
        for (JsonNode e : TraceOracle.tree(trace).get("traceEvents")) {
            String cat = e.path("cat").asText();
            if (!"X".equals(e.path("ph").asText())) {
                continue;
            }
            if (cat.equals("user_annotation") || cat.equals("gpu_user_annotation")) {
                annotations++;
            } else if (cat.equals("cpu_op") || cat.equals("python_function")) {
                cpu++;
            }
        }
        Cli.Result r = Cli.run("report", "--json", trace.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode p = JSON.readTree(r.out()).get("processes").get(0);
        assertEquals(annotations, p.get("markers").asLong()); // a range counts once, as import counts it
        assertEquals(cpu, p.get("cpu_slices").asLong());
        assertEquals("ns", p.get("source").get("timePrecision").asText());
        Cli.Result text = Cli.run("report", trace.toString());
        assertTrue(text.out().contains("times to the ns, CUDA runtime 12.4"), text.out());
        Cli.Result us = Cli.run("report", TraceOracle.REAL.resolve("hta/trace_compare/base/base.json.gz").toString());
        assertTrue(us.out().contains("times to the µs (whole microseconds)"), us.out());
    }

    /**
     * {@code vprof import} and {@code vprof report} of one trace give the same counts in the same
     * words: NVTX ranges counted once each (not as START and END records), CPU ops as CPU ops. The
     * oracle is the trace's own events, counted from a Jackson tree.
     */
    @Test
    void importAndReportCountRangesAndCpuOpsAlike(@TempDir Path dir) throws IOException {
        Path trace = TraceOracle.REAL.resolve("hta/trace_diff/control/control.json.gz");
        long annotations = 0;
        long cpu = 0;
        for (JsonNode e : TraceOracle.tree(trace).get("traceEvents")) {
            String cat = e.path("cat").asText();
            if ("X".equals(e.path("ph").asText())) {
                annotations += cat.equals("user_annotation") || cat.equals("gpu_user_annotation") ? 1 : 0;
                cpu += cat.equals("cpu_op") || cat.equals("python_function") ? 1 : 0;
            }
        }
        Path capture = dir.resolve("c.vprof");
        Cli.Result imported = Cli.run("import", trace.toString(), "-o", capture.toString());
        assertEquals(0, imported.code(), imported.err());
        assertTrue(imported.out().contains(", " + annotations + " NVTX ranges, " + cpu + " CPU ops,"), imported.out());
        for (Path input : List.of(trace, capture)) {
            Cli.Result json = Cli.run("report", "--json", input.toString());
            JsonNode p = JSON.readTree(json.out()).get("processes").get(0);
            assertEquals(annotations, p.get("markers").asLong(), input.toString());
            assertEquals(cpu, p.get("cpu_slices").asLong(), input.toString());
            Cli.Result text = Cli.run("report", input.toString());
            assertTrue(text.out().contains("; " + cpu + " CPU ops"), text.out());
            assertFalse(text.out().contains("NVTX markers"), text.out());
        }
    }

    /**
     * A {@code .json.gz} whose data still inflates but whose gzip CRC is wrong (one {@code "dur"}
     * changed, the trailer left as it was) is refused by import and report in one sentence naming the
     * file, with the exit code of an input that cannot be read: the reader cannot say which part is
     * wrong, so it reads none of it, and import leaves no file.
     */
    @Test
    void aTraceWhoseGzipCrcIsWrongIsRefused(@TempDir Path dir) throws IOException {
        String json = new String(new GZIPInputStream(Files.newInputStream(
                TraceOracle.REAL.resolve("hta/trace_compare/base/base.json.gz"))).readAllBytes(),
                StandardCharsets.UTF_8);
        int at = json.indexOf("\"dur\": 5,");
        assertTrue(at > 0, "the trace has a duration of 5 to change");
        String changed = json.substring(0, at) + "\"dur\": 9," + json.substring(at + "\"dur\": 5,".length());
        Path damaged = dir.resolve("damaged.json.gz");
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
            z.write(changed.getBytes(StandardCharsets.UTF_8));
        }
        byte[] bytes = gz.toByteArray();
        CRC32 crc = new CRC32();
        crc.update(json.getBytes(StandardCharsets.UTF_8));
        ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
        Files.write(damaged, bytes);
        Path out = dir.resolve("d.vprof");
        for (String[] args : List.of(new String[] {"import", damaged.toString(), "-o", out.toString()},
                new String[] {"report", damaged.toString()})) {
            Cli.Result r = Cli.run(args);
            assertEquals(ExitCode.CANNOT.code(), r.code(), args[0] + ": " + r.err());
            assertTrue(r.err().contains(damaged.toString()) && r.err().contains("gzip CRC mismatch"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
        assertFalse(Files.exists(out));
    }
}
