package dev.vprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.aggregate.StepOracle;
import dev.vprof.capture.CaptureReader;
import dev.vprof.source.CaptureSources;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The report the SQLite export builds (no step table, so no steps' scan) is the whole report
 * less its step table: on a real trace with ProfilerStep#N steps, every other part is the same.
 */
class ReportWithoutStepsTest {

    private static final Path TRACE = TraceOracle.REAL.resolve("hta/trace_diff/control/control.json.gz");

    @Test
    void everyPartButTheStepTableIsTheWholeReports() throws IOException {
        int steps = StepOracle.of(TRACE).steps().size();
        assertTrue(steps > 0, "the trace has ProfilerStep#N steps");
        Report whole;
        Report without;
        try (CaptureReader reader = CaptureSources.open(TRACE)) {
            whole = CaptureReport.build(reader, 10);
            without = CaptureReport.withoutSteps(reader, 10);
        }
        assertNotNull(whole.steps());
        assertEquals(steps, whole.steps().count(), "the whole report counts the trace's steps");
        assertNull(without.steps());
        ObjectMapper json = new ObjectMapper();
        ObjectNode a = (ObjectNode) json.readTree(ReportJson.render(whole));
        ObjectNode b = (ObjectNode) json.readTree(ReportJson.render(without));
        JsonNode stepsField = a.remove("steps");
        assertNotNull(stepsField, "the whole report's JSON has its step table");
        b.remove("steps"); // absent or null without a table
        assertEquals(a, b);
    }
}
