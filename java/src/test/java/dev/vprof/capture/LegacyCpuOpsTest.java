package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.bindings.VprofRing;
import dev.vprof.cli.Cli;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture the trace reader wrote before CPU ops had their own record (they were marker ranges
 * of the domain {@code pytorch.cpu_op}; the file is checked in, written by that code from a real
 * trace) still reads with its CPU ops as CPU ops: the decoder hands them to {@code cpuOp}, with the
 * names and times the trace gives them, and never as NVTX markers, so report and export count them
 * as a file written today would be counted. The oracle is the trace itself, read as a Jackson tree.
 */
class LegacyCpuOpsTest {
    @TempDir
    Path dir;

    static final Path FILE = Path.of("src/test/resources/dev/vprof/capture/legacy/trace_compare-test.cpu-ops-as-markers.vprof");
    static final Path TRACE = TraceOracle.REAL.resolve("hta/trace_compare/test/test.json.gz");

    /** The trace's cpu_op events as "name start end" in epoch ns. */
    private static List<String> traceCpuOps() throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode e : TraceOracle.tree(TRACE).get("traceEvents")) {
            if ("cpu_op".equals(e.path("cat").asText()) && "X".equals(e.path("ph").asText())) {
                long start = TraceOracle.ns(e.get("ts"));
                out.add(e.get("name").asText() + " " + start + " " + (start + TraceOracle.ns(e.get("dur"))));
            }
        }
        return out;
    }

    @Test
    void markersOfTheOldCpuOpDomainComeBackAsCpuOps() throws IOException {
        List<String> ops = new ArrayList<>();
        List<MarkerEvent> markers = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(FILE)) {
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void cpuOp(int pid, CpuOpEvent op) {
                    assertEquals(VprofRing.CPU_OP_OPERATOR, op.kind());
                    ops.add(op.name() + " " + op.start() + " " + op.end());
                }

                @Override
                public void marker(int pid, MarkerEvent m) {
                    markers.add(m);
                }
            });
            assertEquals(List.of(), r.warnings());
        }
        assertEquals(traceCpuOps(), ops);
        assertEquals(6, markers.size(), "the 3 annotations' START and END, and nothing else");
        assertEquals(List.of(), markers.stream().filter(m -> m.domain() != null).toList());
    }

    @Test
    void reportAndKinetoExportCountThemAsCpuOps() throws IOException {
        Cli.Result report = Cli.run("report", "--json", FILE.toString());
        assertEquals(0, report.code(), report.err());
        JsonNode p = new ObjectMapper().readTree(report.out()).get("processes").get(0);
        assertEquals(traceCpuOps().size(), p.get("cpu_slices").asLong());
        assertEquals(3, p.get("markers").asLong(), "the trace's 3 user_annotation ranges");

        Path kineto = dir.resolve("t.pt.trace.json");
        Cli.Result export = Cli.run("export", FILE.toString(), "-o", kineto.toString());
        assertEquals(0, export.code(), export.err());
        long cpuOps = 0;
        long annotations = 0;
        for (JsonNode e : new ObjectMapper().readTree(kineto.toFile()).get("traceEvents")) {
            cpuOps += "cpu_op".equals(e.path("cat").asText()) ? 1 : 0;
            annotations += "user_annotation".equals(e.path("cat").asText()) ? 1 : 0;
        }
        assertEquals(traceCpuOps().size(), cpuOps);
        assertEquals(3, annotations);
    }
}
