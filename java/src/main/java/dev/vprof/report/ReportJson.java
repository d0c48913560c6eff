package dev.vprof.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.capture.ReadStats;

/** `vprof report --json`: the {@link Report} in snake_case, indented. */
public final class ReportJson {
    private ReportJson() {}

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    public static String render(Report report) {
        try {
            return MAPPER.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the report could not be written as JSON", e);
        }
    }

    /** The report with its source's read health as {@code read_health} (docs/report-json.md). */
    public static String render(Report report, ReadStats health) {
        ObjectNode tree = MAPPER.valueToTree(report);
        tree.set("read_health", MAPPER.valueToTree(health.asMap()));
        try {
            return MAPPER.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the report could not be written as JSON", e);
        }
    }
}
